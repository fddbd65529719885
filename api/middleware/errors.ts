/**
 * The one place errors become responses: `{ success: false, error, code, details? }` with the
 * status the error class carries. Errors from Koa's own stack (body parser, router) are mapped to
 * the same envelope; a database that cannot be reached is a 503 the caller may retry; anything
 * unexpected is a 500 whose body says nothing about internals.
 */
import type { Middleware } from 'koa';
import { ApiError, DatabaseUnavailableError, MalformedJsonError, MethodNotAllowedError, PayloadTooLargeError } from '../../core/errors.js';
import { Prisma } from '../../prisma/client.js';
import type { AppState } from '../route.js';

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/**
 * How a lost database shows itself, as seen by stopping, killing and restarting PostgreSQL under
 * Prisma 7 + @prisma/adapter-pg (test/faults.test.ts):
 * - PrismaClientKnownRequestError P1001 ("Can't reach database server"), or P2010 for raw queries,
 *   with `meta.driverAdapterError.cause.kind` "DatabaseNotReachable" (ECONNREFUSED);
 * - the same with `cause.kind` "postgres" and a SQLSTATE: 57P01 when the server shuts down under a
 *   running query, 57P03 while it starts or recovers;
 * - a plain node-postgres Error, unwrapped by Prisma, when the connection dies without a message
 *   (a killed backend): "Connection terminated unexpectedly".
 * The other codes and kinds are their documented siblings (pool and socket timeouts, connection limits).
 */
const UNREACHABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** SQLSTATE class 08 (connection exception), shutdown and start-up (57P01-57P03), too many connections. */
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const PG_CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Query read timeout', // pg's client-side query_timeout, should the pool ever set one
  'Client has encountered a connection error and is not queryable',
]);

interface DriverAdapterCause {
  kind?: string;
  code?: string;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNREACHABLE_CODES.has(err.code)) return true;
    const cause = (err.meta?.driverAdapterError as { cause?: DriverAdapterCause } | undefined)?.cause;
    return Boolean(cause && (UNREACHABLE_KINDS.has(cause.kind ?? '') || (cause.kind === 'postgres' && UNREACHABLE_SQLSTATE.test(cause.code ?? ''))));
  }
  return err instanceof Error && err.constructor === Error && PG_CONNECTION_MESSAGES.has(err.message);
}

function toApiError(err: unknown, bodyLimit: number): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return new DatabaseUnavailableError();
  const e = err as HttpishError;
  if (e?.type === 'entity.too.large' || e?.status === 413) return new PayloadTooLargeError(bodyLimit);
  if (e?.type === 'entity.parse.failed' || (e?.status === 400 && /JSON|token|Unexpected/i.test(e.message ?? ''))) {
    return new MalformedJsonError(e.message ?? 'parse error');
  }
  if (e?.status && e.status >= 400 && e.status < 500 && e.expose) {
    return new ApiError(e.status, e.status === 400 ? 'bad_request' : 'client_error', e.message ?? 'Bad request');
  }
  return undefined;
}

export function errorMiddleware(bodyLimit: number): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}. See /api-reference.`);
      }
      // The router's allowedMethods answered 405, or 501 for a method it implements nowhere (TRACE,
      // QUERY, ...), with an Allow header but no body. Neither is the server's fault: a path that
      // exists gets 405 listing its methods, any other path 404.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined) {
        const allowed = ctx.response.get('Allow').split(/,\s*/).filter(Boolean);
        if (!allowed.length) {
          ctx.remove('Allow');
          throw new ApiError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}. See /api-reference.`);
        }
        throw new MethodNotAllowedError(ctx.method, ctx.path, allowed);
      }
    } catch (err) {
      const apiError = toApiError(err, bodyLimit);
      if (apiError instanceof DatabaseUnavailableError) {
        ctx.state.deps.log.warn('database unavailable', { error: (err as Error).message, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId });
      }
      if (apiError) {
        ctx.status = apiError.status;
        ctx.body = { success: false, error: apiError.message, code: apiError.code, ...(apiError.details ? { details: apiError.details } : {}), ...apiError.extra };
        if (apiError.headers) ctx.set(apiError.headers);
        return;
      }
      ctx.state.deps.log.error('unhandled error', { err, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId });
      ctx.status = 500;
      ctx.body = { success: false, error: `Internal server error (request ${ctx.state.requestId}).`, code: 'internal_error' };
    }
  };
}
