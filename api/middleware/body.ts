/**
 * JSON bodies only. Parse failures become 400 invalid_json, oversized bodies 413, and a body sent
 * with another content type gets 415 instead of being silently ignored. A body nested deeper than
 * MAX_JSON_DEPTH is a 400 naming the field where it goes too deep: free-form fields (metadata,
 * webhook metadata, headers, schemas) would otherwise carry 100,000 levels under the size limit to
 * code that recurses. Free-form fields also have a size of their own (FREE_FORM_LIMITS).
 */
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { invalidBody, MalformedJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../core/errors.js';
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
  const shallow: Middleware<AppState> = async (ctx, next) => {
    const field = tooDeep(ctx.request.body);
    if (field !== undefined) {
      const message = `nests deeper than ${MAX_JSON_DEPTH} levels`;
      throw invalidBody([{ field, message }]);
    }
    const details = oversized(ctx.request.body);
    if (details.length) throw invalidBody(details);
    await next();
  };
  return [requireJson, parse, shallow];
}

/**
 * Free-form fields, wherever they sit, and the most JSON text each may hold: metadata is echoed on
 * every webhook delivery and travels in workflow inputs; a schema is compiled.
 */
const FREE_FORM_LIMITS: Record<string, number> = { metadata: 16_384, webhookMetadata: 16_384, schema: 65_536 };

/** Free-form fields over their limit, by path (after the depth check, so stringify is safe). */
function oversized(body: unknown): { field: string; message: string }[] {
  const found: { field: string; message: string }[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      const limit = Array.isArray(value) ? undefined : FREE_FORM_LIMITS[key];
      if (limit === undefined) stack.push({ value: child, path: at });
      else if (JSON.stringify(child ?? null).length > limit) found.push({ field: at, message: `is over ${limit} characters of JSON` });
    }
  }
  return found;
}

/** Levels of objects and arrays a request body may nest (the body itself is level 1). */
const MAX_JSON_DEPTH = 32;

/**
 * The field (as `webhook.metadata.a`, at most three steps, `…` beyond) under which `value` nests
 * deeper than MAX_JSON_DEPTH, or undefined. Iterative: the check itself must not recurse.
 */
function tooDeep(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string[] }> = [{ value, depth: 1, path: [] }];
  while (stack.length > 0) {
    const { value: v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return path.slice(0, 3).join('.').replaceAll('.[', '[') + (path.length > 3 ? '…' : '');
    for (const [key, child] of Object.entries(v)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1, path: path.length > 3 ? path : [...path, Array.isArray(v) ? `[${key}]` : key] });
    }
  }
  return undefined;
}
