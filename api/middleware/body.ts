/**
 * JSON bodies only. Parse failures become 400 invalid_json, oversized bodies 413, and a body sent
 * with another content type gets 415 instead of being silently ignored.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { MalformedJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../core/errors.js';
import type { AppState } from '../route.js';

export function jsonBody(limitBytes: number): Middleware<AppState>[] {
  const requireJson: Middleware<AppState> = async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (['POST', 'PUT', 'PATCH'].includes(ctx.method) && hasBody && !ctx.is('application/json', '+json')) {
      throw new UnsupportedMediaTypeError(ctx.get('content-type') || undefined);
    }
    const declared = ctx.request.length;
    if (declared !== undefined && declared > limitBytes) throw new PayloadTooLargeError(limitBytes);
    await next();
  };
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limitBytes,
    jsonStrict: true,
    onError(err: Error & { status?: number; type?: string }) {
      if (err.status === 413 || err.type === 'entity.too.large') throw new PayloadTooLargeError(limitBytes);
      throw new MalformedJsonError(err.message);
    },
  }) as unknown as Middleware<AppState>;
  return [requireJson, parse];
}
