/**
 * Turns a failed workflow into the API's answer, by the ApplicationFailure type the activity set
 * (core/failures.ts). Anything else — e.g. the Temporal server unreachable — is a 503.
 */
import { ActivityFailure, ApplicationFailure, TimeoutFailure, WorkflowFailedError } from '@temporalio/client';
import { ApiError, ScrapeFailedError, ServiceUnavailableError } from '../core/errors.js';
import { failureAnswer } from '../core/failures.js';

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
  const answer = failure && failureAnswer(failure.type ?? undefined, failure.message, onTimeout);
  if (answer) return answer;
  if (err instanceof WorkflowFailedError) return new ScrapeFailedError(`The ${what} failed: ${failure?.message ?? err.message}`);
  return new ServiceUnavailableError(`Could not reach the workers (Temporal): ${(err as Error).message}. Try again shortly.`);
}
