/**
 * One failure vocabulary, from the page to the HTTP answer. A page that could not become a document
 * fails with one of the PageError classes below, and the class says everything about it:
 * - `retryable`, its retry policy (as in Crawlee): a final failure fails the same way on every try;
 *   a retryable one may succeed later; a ThrottledError means the site asked us to slow down.
 *   Crawl lanes requeue, record or pause by it (activities/crawl/page-work.ts).
 * - `code`, its stable machine code, reported per failed page by GET /v1/crawl/{id}/errors.
 * - `type`, its name on the wire between worker and API: the ApplicationFailure type across
 *   Temporal (the retry policies list the final ones) and the worker scrape endpoint's refusal.
 * - `status`, the HTTP status of a scrape that fails with it.
 * `failureAnswer` is the one table from a wire type to the API's error: the API reads Temporal
 * failures (api/temporal-errors.ts) and scrape endpoint refusals (api/scrape-workers.ts) through it.
 */
import { ApiError, ScrapeFailedError, UrlNotAllowedError, ValidationError } from './errors.js';

/** Failure types on the wire (ApplicationFailure types, scrape refusals). Stored in workflow histories: never rename. */
export const failureTypes = {
  /** The target URL (or a redirect hop) is refused by the URL safety policy. */
  unsafeUrl: 'UnsafeUrl',
  /** The request cannot work, e.g. an invalid CSS selector. */
  invalidRequest: 'InvalidRequest',
  /** Every engine failed. */
  allEnginesFailed: 'AllEnginesFailed',
  /** The caller's time budget ran out. */
  timeout: 'ScrapeTimeout',
  /** The body cannot be converted (an image, an archive, a broken PDF). */
  unconvertible: 'UnconvertibleContent',
  /** A browser action failed (a selector that matches nothing, a script that threw). */
  actionFailed: 'ActionFailed',
} as const;
export type FailureType = (typeof failureTypes)[keyof typeof failureTypes];

/** The types no retry can fix: activity retry policies stop on them. */
export const nonRetryableFailures = [failureTypes.unsafeUrl, failureTypes.invalidRequest, failureTypes.timeout, failureTypes.unconvertible, failureTypes.actionFailed];

/** What a failure class is, in one line per class below. */
interface FailureSpec {
  retryable: boolean;
  code: string;
  type: FailureType;
  status: number;
}

export abstract class PageError extends Error {
  protected abstract readonly spec: FailureSpec;
  get retryable(): boolean {
    return this.spec.retryable;
  }
  get code(): string {
    return this.spec.code;
  }
  get type(): FailureType {
    return this.spec.type;
  }
  get status(): number {
    return this.spec.status;
  }
}

/** The target, or a redirect hop, is refused by the URL safety policy. Scrape: 400 url_not_allowed. */
export class UnsafeTargetError extends PageError {
  override name = 'UnsafeTargetError';
  protected readonly spec = { retryable: false, code: 'url_not_allowed', type: failureTypes.unsafeUrl, status: 400 };
}

/** The request cannot work on this page (an invalid CSS selector, a body over the size limit). Scrape: 400. */
export class InvalidPageRequestError extends PageError {
  override name = 'InvalidPageRequestError';
  protected readonly spec = { retryable: false, code: 'invalid_request', type: failureTypes.invalidRequest, status: 400 };
}

/** The caller's time budget ran out. Scrape: 408. A crawl page has a budget of its own and may try again. */
export class PageTimeoutError extends PageError {
  override name = 'PageTimeoutError';
  protected readonly spec = { retryable: true, code: 'timeout', type: failureTypes.timeout, status: 408 };
  constructor(readonly timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms`);
  }
}

/** Every engine failed (network errors, the browser could not load it). Scrape: 502, after one more try. */
export class FetchFailedError extends PageError {
  override name = 'FetchFailedError';
  protected readonly spec = { retryable: true, code: 'fetch_failed', type: failureTypes.allEnginesFailed, status: 502 };
}

/**
 * The site answered 429, or 503 with Retry-After: it wants fewer requests. Crawls put the page back
 * and pause for `retryAfterMs` (undefined: the site did not say). Scrapes never see it: a single
 * request returns the site's answer with a warning (were one to, it would be a failed fetch).
 */
export class ThrottledError extends PageError {
  override name = 'ThrottledError';
  protected readonly spec = { retryable: true, code: 'rate_limited_by_site', type: failureTypes.allEnginesFailed, status: 502 };
  constructor(
    readonly statusCode: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`The site answered HTTP ${statusCode}${retryAfterMs === undefined ? '' : ` (Retry-After ${Math.round(retryAfterMs / 1000)} s)`}`);
  }
}

/** `Retry-After`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The body cannot be converted (an image, an archive, a broken PDF). Scrape: 502 scrape_failed, not retried. */
export class UnconvertibleContentError extends PageError {
  override name = 'UnconvertibleContentError';
  protected readonly spec = { retryable: false, code: 'unconvertible_content', type: failureTypes.unconvertible, status: 502 };
}

/** A browser action failed; the message starts with `actions[i] (type)`. Scrape: 400 action_failed, naming the action. */
export class ActionFailedError extends PageError {
  override name = 'ActionFailedError';
  protected readonly spec = { retryable: false, code: 'action_failed', type: failureTypes.actionFailed, status: 400 };
}

/**
 * The API's error for a failure of `type` (from Temporal or a scrape endpoint), or undefined for a
 * type this table does not know. A timeout is answered by `onTimeout`, which knows the budget.
 */
export function failureAnswer(type: string | undefined, message: string, onTimeout: () => ApiError): ApiError | undefined {
  switch (type) {
    case failureTypes.unsafeUrl:
      return new UrlNotAllowedError(message);
    case failureTypes.invalidRequest:
      return new ValidationError(message, [{ field: /selector/i.test(message) ? 'includeTags/excludeTags' : 'url', message }]);
    case failureTypes.allEnginesFailed:
    case failureTypes.unconvertible:
      return new ScrapeFailedError(message);
    case failureTypes.timeout:
      return onTimeout();
    case failureTypes.actionFailed:
      return new ApiError(400, 'action_failed', message, [{ field: /actions\[\d+\]/.exec(message)?.[0] ?? 'actions', message }]);
  }
  return undefined;
}
