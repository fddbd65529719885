/**
 * The one place errors become responses: `{ success: false, error, code, details? }` with the
 * status the error class carries. Errors from Koa's own stack (body parser, router) are mapped to
 * the same envelope; anything unexpected is a 500 whose body says nothing about internals.
 */
import type { Middleware } from 'koa';
import { ApiError, MalformedJsonError, MethodNotAllowedError, PayloadTooLargeError } from '../../core/errors.js';
import type { AppState } from '../route.js';

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

function toApiError(err: unknown, bodyLimit: number): ApiError | undefined {
  if (err instanceof ApiError) return err;
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
      // The router's allowedMethods answered 405 with an Allow header but no body.
      if (ctx.status === 405 && ctx.body === undefined) {
        throw new MethodNotAllowedError(ctx.method, ctx.path, ctx.response.get('Allow').split(/,\s*/));
      }
    } catch (err) {
      const apiError = toApiError(err, bodyLimit);
      if (apiError) {
        ctx.status = apiError.status;
        ctx.body = { success: false, error: apiError.message, code: apiError.code, ...(apiError.details ? { details: apiError.details } : {}) };
        if (apiError.headers) ctx.set(apiError.headers);
        return;
      }
      ctx.state.deps.log.error('unhandled error', { err, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId });
      ctx.status = 500;
      ctx.body = { success: false, error: `Internal server error (request ${ctx.state.requestId}).`, code: 'internal_error' };
    }
  };
}
