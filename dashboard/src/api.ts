/**
 * The one way the dashboard talks to /dashboard/api: same-origin cookies, JSON both ways, the
 * session's CSRF token on every state-changing request, and error bodies turned into ApiError.
 */

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly details?: FieldError[],
    /** The parsed error body, for answers that carry more than the message (GET /session's 401). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Sign-in, sign-up, invite acceptance and the session probe: a 401 there is an answer, not an expired session. */
  signedOut?: boolean;
}

const BASE = '/dashboard/api';

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a signed-in request answers 401: the session expired or was signed out elsewhere. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken && !options.signedOut) headers['X-CSRF-Token'] = csrfToken;

  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0);
  }

  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) return body as T;

  if (response.status === 401 && !options.signedOut) onUnauthorized?.();
  throw toApiError(response.status, body);
}

function toApiError(status: number, body: unknown): ApiError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const details = Array.isArray(fields.details) ? (fields.details as FieldError[]) : undefined;
  const base = typeof fields.error === 'string' && fields.error ? fields.error : `Request failed (HTTP ${status}).`;
  // Validation answers name the field in details; the message alone often does not.
  const message = details?.length ? `${base} ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}` : base;
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  return new ApiError(message, status, code, details, body);
}

export const get = <T>(path: string, signal?: AbortSignal): Promise<T> => request<T>('GET', path, { signal });
export const post = <T>(path: string, body?: unknown): Promise<T> => request<T>('POST', path, { body });
export const del = (path: string): Promise<void> => request<void>('DELETE', path);

/** Path segment from an id the API gave us, encoded so it can never change the path's shape. */
export const seg = (id: string): string => encodeURIComponent(id);

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
