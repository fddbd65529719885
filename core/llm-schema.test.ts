import { describe, expect, it } from 'vitest';
import { compileExtractionSchema, extractionSchemaProblem } from './llm-schema.js';

describe('extraction schemas from callers', () => {
  it('run their patterns on RE2: a pattern that backtracks for ever in JavaScript answers at once', () => {
    const validate = compileExtractionSchema({ type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } });
    expect(validate({ name: `${'a'.repeat(40)}!` })).toBe(false);
    expect(validate({ name: 'aaaa' })).toBe(true);
  });

  it('name why a schema cannot be used', () => {
    expect(extractionSchemaProblem({ type: 'object', properties: { a: { type: 'nope' } } })).toMatch(/^is not a JSON Schema this server can use: schema is invalid/);
    expect(extractionSchemaProblem({ type: 'string', pattern: '[a-z]{1000}'.repeat(10) })).toMatch(/repeats too much/);
    expect(extractionSchemaProblem({ type: 'string', pattern: '(?<=a)b' })).toMatch(/^is not a JSON Schema this server can use/);
    expect(extractionSchemaProblem({ type: 'object', properties: { price: { type: 'number' } }, required: ['price'] })).toBeUndefined();
  });
});
