/**
 * Validates a route's body, query and path parameters against its JSON Schemas. Unknown fields are
 * rejected (schemas set additionalProperties: false), defaults are filled in, and every problem is
 * reported in `details` with the field it concerns.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ValidationError, type ErrorDetail } from '../../core/errors.js';
import type { Schema } from '../route.js';

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats.default(ajv);
  // OpenAPI annotations allowed inside schemas.
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}
const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true); // query strings and path params arrive as text

function fieldOf(error: ErrorObject, prefix: string): string {
  let path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
  const extra =
    error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty
    : error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty
    : undefined;
  if (extra) path = path ? `${path}.${extra}` : extra;
  const full = path || '(root)';
  return prefix ? `${prefix}${path ? '.' + path : ''}` : full;
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a recognised field';
    case 'enum':
      return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Deduplicate ajv's errors (anyOf/oneOf repeat themselves) into one detail per field and message. */
export function toDetails(errors: ErrorObject[] | null | undefined, prefix = ''): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const d = { field: fieldOf(e, prefix), message: messageOf(e) };
    const key = `${d.field}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(d);
  }
  return details;
}

const cache = new WeakMap<object, ValidateFunction>();
function compile(schema: Schema, text: boolean): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = (text ? textAjv : bodyAjv).compile(schema)));
  return fn;
}

export type InputPart = 'body' | 'query' | 'params';

/** Validate in place (defaults are written into `value`); throws ValidationError. */
export function validateInput(part: InputPart, schema: Schema, value: unknown): unknown {
  const prefix = part === 'body' ? '' : part === 'query' ? 'query' : 'path';
  const where = part === 'body' ? 'request body' : part === 'query' ? 'query string' : 'path';
  const nul = nulAt(value);
  if (nul !== undefined) {
    const field = [prefix, nul].filter(Boolean).join('.').replaceAll('.[', '[') || '(root)';
    const message = 'contains a NUL character (\\u0000), which cannot be stored: remove it';
    throw new ValidationError(`Invalid ${where}: ${field} ${message}`, [{ field, message }]);
  }
  const fn = compile(schema, part !== 'body');
  if (fn(value)) return value;
  const details = toDetails(fn.errors, prefix);
  throw new ValidationError(`Invalid ${where}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

/**
 * The path of the first string (or key) holding U+0000, or undefined. PostgreSQL stores no NUL in
 * text or jsonb, so such input would fail deep in a handler as a 500. Bodies are at most 32 levels
 * deep by now (api/middleware/body.ts).
 */
function nulAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulAt(child, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Compile every schema up front so a schema mistake fails at boot, not on the first request. */
export function precompile(schema: Schema, part: InputPart): void {
  compile(schema, part !== 'body');
}
