/**
 * The JSON Schemas callers give for LLM extraction (`extract.schema`, `jsonOptions.schema`,
 * `changeTrackingOptions.schema`) are untrusted input, and ajv turns a schema into code. So:
 * - the API compiles each one before accepting the request (`extractionSchemaProblem`): one that
 *   does not compile is a 400 naming the field, not a failed page later;
 * - `pattern` and `patternProperties` run on RE2 (linear time), not JavaScript's backtracking
 *   RegExp, so a pattern cannot stall a worker on a model's answer; a pattern that unrolls too far
 *   (core/crawl/regex-size.ts) is refused like a path pattern;
 * - the request body's depth and the schema's size are bounded before (api/middleware/body.ts).
 * Compiled schemas are cached by their text.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import { MAX_PATTERN_SIZE } from './crawl/patterns.js';
import { expandedSize } from './crawl/regex-size.js';

const re2 = Object.assign(
  (pattern: string) => {
    if (expandedSize(pattern) > MAX_PATTERN_SIZE) throw new Error(`pattern ${JSON.stringify(pattern.slice(0, 60))} repeats too much`);
    return RE2JS.compile(pattern);
  },
  { code: 'RE2JS.compile' },
);

const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: re2 } });
const cache = new Map<string, ValidateFunction>();
const CACHE_SIZE = 100;

/** The validator of an extraction schema; throws when the schema does not compile. */
export function compileExtractionSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, validate);
  }
  return validate;
}

/** The validator's last errors, as text naming the data `answer`. */
export function schemaErrorsText(validate: ValidateFunction): string {
  return ajv.errorsText(validate.errors, { dataVar: 'answer' });
}

/** Why the schema cannot be used, or undefined when it compiles. */
export function extractionSchemaProblem(schema: Record<string, unknown>): string | undefined {
  try {
    compileExtractionSchema(schema);
    return undefined;
  } catch (err) {
    return `is not a JSON Schema this server can use: ${(err as Error).message}`;
  }
}
