/**
 * Turns a failed workflow into the API's answer, by the ApplicationFailure type the activity set
 * (core/contracts.ts). Anything else — e.g. the Temporal server unreachable — is a 503.
 */
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { failureTypes } from '../core/contracts.js';
import { ApiError, ScrapeFailedError, ServiceUnavailableError, UrlNotAllowedError, ValidationError } from '../core/errors.js';

function applicationFailure(err: unknown): ApplicationFailure | undefined {
  let cause: unknown = err;
  while (cause instanceof WorkflowFailedError || cause instanceof ActivityFailure) cause = cause.cause;
  return cause instanceof ApplicationFailure ? cause : undefined;
}

export function toApiError(err: unknown, onTimeout: () => ApiError): ApiError {
  if (err instanceof ApiError) return err;
  const failure = applicationFailure(err);
  switch (failure?.type) {
    case failureTypes.unsafeUrl:
      return new UrlNotAllowedError(failure.message);
    case failureTypes.invalidRequest:
      return new ValidationError(failure.message, [{ field: /selector/i.test(failure.message) ? 'includeTags/excludeTags' : 'url', message: failure.message }]);
    case failureTypes.allEnginesFailed:
      return new ScrapeFailedError(failure.message);
    case failureTypes.timeout:
      return onTimeout();
  }
  if (err instanceof WorkflowFailedError) return new ScrapeFailedError(`The scrape failed: ${failure?.message ?? err.message}`);
  return new ServiceUnavailableError(`Could not reach the workers (Temporal): ${(err as Error).message}. Try again shortly.`);
}
