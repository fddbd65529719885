/**
 * Turns a failed workflow into the API's answer, by the ApplicationFailure type the activity set
 * (core/contracts.ts). Anything else — e.g. the Temporal server unreachable — is a 503.
 */
import { ActivityFailure, ApplicationFailure, TimeoutFailure, WorkflowFailedError } from '@temporalio/client';
import { failureTypes } from '../core/contracts.js';
import { ApiError, ScrapeFailedError, ServiceUnavailableError, UrlNotAllowedError, ValidationError } from '../core/errors.js';

function innermost(err: unknown): unknown {
  let cause: unknown = err;
  while (cause instanceof WorkflowFailedError || cause instanceof ActivityFailure) cause = cause.cause;
  return cause;
}

/** `what` names the operation in messages ("scrape", "map"). */
export function toApiError(err: unknown, onTimeout: () => ApiError, what = 'scrape'): ApiError {
  if (err instanceof ApiError) return err;
  const cause = innermost(err);
  // The activity's schedule-to-close timeout is the caller's budget: running out of it is a timeout,
  // whatever the last attempt failed with.
  if (cause instanceof TimeoutFailure) return onTimeout();
  const failure = cause instanceof ApplicationFailure ? cause : undefined;
  switch (failure?.type) {
    case failureTypes.unsafeUrl:
      return new UrlNotAllowedError(failure.message);
    case failureTypes.invalidRequest:
      return new ValidationError(failure.message, [{ field: /selector/i.test(failure.message) ? 'includeTags/excludeTags' : 'url', message: failure.message }]);
    case failureTypes.allEnginesFailed:
    case failureTypes.unconvertible:
      return new ScrapeFailedError(failure.message);
    case failureTypes.timeout:
      return onTimeout();
  }
  if (err instanceof WorkflowFailedError) return new ScrapeFailedError(`The ${what} failed: ${failure?.message ?? err.message}`);
  return new ServiceUnavailableError(`Could not reach the workers (Temporal): ${(err as Error).message}. Try again shortly.`);
}
