/**
 * Why a page could not be turned into a document. The class is the retry policy (as in Crawlee):
 * a `final` failure fails the same way on every try; a `retryable` one may succeed later; a
 * `ThrottledError` means the site asked us to slow down. Scrapes map them to their HTTP answers
 * (activities/scrape.ts), crawl lanes to requeue / record-failed / pause (activities/crawl/lane.ts).
 */
export abstract class PageError extends Error {
  abstract readonly retryable: boolean;
  /** Stable machine code, reported per failed page by GET /v1/crawl/{id}/errors. */
  abstract readonly code: string;
}

/** The target, or a redirect hop, is refused by the URL safety policy. Scrape: 400 url_not_allowed. */
export class UnsafeTargetError extends PageError {
  override name = 'UnsafeTargetError';
  readonly retryable = false;
  readonly code = 'url_not_allowed';
}

/** The request cannot work on this page (an invalid CSS selector, a body over the size limit). Scrape: 400. */
export class InvalidPageRequestError extends PageError {
  override name = 'InvalidPageRequestError';
  readonly retryable = false;
  readonly code = 'invalid_request';
}

/** The caller's time budget ran out. Scrape: 408. A crawl page has a budget of its own and may try again. */
export class PageTimeoutError extends PageError {
  override name = 'PageTimeoutError';
  readonly retryable = true;
  readonly code = 'timeout';
  constructor(readonly timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms`);
  }
}

/** Every engine failed (network errors, the browser could not load it). Scrape: 502, after one more try. */
export class FetchFailedError extends PageError {
  override name = 'FetchFailedError';
  readonly retryable = true;
  readonly code = 'fetch_failed';
}

/**
 * The site answered 429, or 503 with Retry-After: it wants fewer requests. Crawls put the page back
 * and pause for `retryAfterMs` (undefined: the site did not say). Scrapes never see it: a single
 * request returns the site's answer with a warning.
 */
export class ThrottledError extends PageError {
  override name = 'ThrottledError';
  readonly retryable = true;
  readonly code = 'rate_limited_by_site';
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
  readonly retryable = false;
  readonly code = 'unconvertible_content';
}
