/**
 * The API's error family. Each class carries its HTTP status and a stable machine `code`; one Koa
 * middleware (api/middleware/errors.ts) turns them into `{ success: false, error, code, details? }`.
 * Error codes are listed in the README ("Errors").
 */

export interface ErrorDetail {
  /** Where the problem is: a JSON path into the body (`formats[1]`), or a header / query name. */
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** More top-level fields of the error body (the 402's `paymentRequired`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, details: ErrorDetail[]) {
    super(400, 'invalid_request', message, details);
  }
}

/** The one way a request body's problems are reported: a 400 whose message names every field, with the details. */
export function invalidBody(details: ErrorDetail[]): ValidationError {
  return new ValidationError(`Invalid request body: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

export class MalformedJsonError extends ApiError {
  constructor(reason: string) {
    super(400, 'invalid_json', `Request body is not valid JSON (${reason}). Send a JSON object with Content-Type: application/json.`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(got: string | undefined) {
    super(415, 'unsupported_media_type', `Expected Content-Type: application/json, got ${got ? JSON.stringify(got) : 'none'}.`);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `Request body exceeds the ${limitBytes}-byte limit.`);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message: string) {
    super(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

/** Billing: the account has used its credits for the period (README "Billing"). */
export class InsufficientCreditsError extends ApiError {
  constructor(used: number, granted: number, billingUrl: string) {
    super(402, 'insufficient_credits', `This account has no credits left for this period (${used} of ${granted} used). An admin can upgrade the plan at ${billingUrl}; credits also renew with the next period.`);
  }
}

/** Signed in, but not allowed: a member asking for an admin action, or a request without its CSRF token. */
export class ForbiddenError extends ApiError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}

/** The request contradicts what exists (an e-mail already taken, the last admin leaving). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/** Dashboard: no session, or it ended. No WWW-Authenticate (this is not bearer auth). */
export class SignedOutError extends ApiError {
  constructor(message = 'Not signed in, or the session ended: sign in again.') {
    super(401, 'signed_out', message);
  }
}

/** A hosted-API operation this server does not offer (README "Not offered here"). */
export class NotSupportedError extends ApiError {
  constructor(message: string) {
    super(501, 'not_supported', message);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string, path: string, allowed: string[]) {
    super(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') });
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(503, 'service_unavailable', message, details, { 'Retry-After': '5' });
  }
}

/** PostgreSQL cannot be reached (down, restarting, out of connections): the caller should retry. */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor() {
    super('The database is unavailable; try again shortly.', [{ field: 'database', message: 'PostgreSQL cannot be reached' }]);
  }
}

export class UrlNotAllowedError extends ApiError {
  constructor(message: string, field = 'url') {
    super(400, 'url_not_allowed', message, [{ field, message }]);
  }
}

export class ScrapeFailedError extends ApiError {
  constructor(message: string) {
    super(502, 'scrape_failed', message);
  }
}

/** The search provider could not be asked or answered with an error (README "Search"). */
export class SearchFailedError extends ApiError {
  constructor(message: string) {
    super(502, 'search_failed', message);
  }
}

/** `minAge`: the page cache has no copy old enough (README "Page cache"). */
export class NoCachedDataError extends ApiError {
  constructor(minAge: number) {
    super(404, 'no_cached_data', `The page cache has no copy of this page with these options at least ${minAge} ms old (minAge answers from the cache only). Leave out minAge to read the site.`);
  }
}

export class ScrapeTimeoutError extends ApiError {
  constructor(timeoutMs: number) {
    super(408, 'timeout', `The scrape did not finish within its ${timeoutMs} ms timeout. Raise \`timeout\` (up to 90000) or try again.`);
  }
}

/** Over an endpoint's rate limit (api/rate-limit.ts). Carries the IETF draft RateLimit-* headers and Retry-After. */
export class RateLimitedError extends ApiError {
  constructor(
    readonly endpoint: string,
    readonly limit: number,
    readonly retryAfterSeconds: number,
    readonly resetSeconds: number,
    readonly per = 'API key',
  ) {
    const wait = `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
    super(429, 'rate_limited', `Rate limit exceeded for ${endpoint}: ${limit} requests per minute per ${per}. Retry in ${wait}.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(resetSeconds),
    });
  }
}

/**
 * x402: the request needs a payment, or its payment was refused (invalid, replayed, not settled).
 * The PAYMENT-REQUIRED header carries the protocol's base64 payload; the body repeats it decoded
 * as `paymentRequired`, beside our usual fields.
 */
export class PaymentRequiredError extends ApiError {
  constructor(code: 'payment_required' | 'payment_invalid' | 'payment_settlement_failed', message: string, headers: Record<string, string>, paymentRequired: unknown) {
    super(402, code, message, undefined, headers, { paymentRequired });
  }
}

/** x402: the facilitator could not be reached or did not answer in time. Nothing was done or charged. */
export class FacilitatorUnavailableError extends ApiError {
  constructor(message: string) {
    super(503, 'payment_facilitator_unavailable', message, undefined, { 'Retry-After': '5' });
  }
}

/** x402: the facilitator answered with something that is not the protocol. Nothing was done or charged. */
export class FacilitatorError extends ApiError {
  constructor(message: string) {
    super(502, 'payment_facilitator_error', message);
  }
}
