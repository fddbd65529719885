/**
 * Options read back from storage go through the schema that validated them on the way in, with its
 * defaults, so a row stored before an option existed gets that option's default, and nobody casts
 * JSON into a type. A stored value the schema refuses is a bug (or a hand-edited row): it throws.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { batchScrapeRequestSchema, type BatchScrapeOptions } from './batch.js';
import { crawlRequestSchema, type CrawlOptions } from './crawl.js';

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, strictRequired: false, allowUnionTypes: true });

export class StoredOptionsError extends Error {
  override name = 'StoredOptionsError';
  constructor(
    /** What the schema refused, as ajv words it. */
    readonly problems: string,
    name: string,
  ) {
    super(`Stored ${name} do not match their schema: ${problems}`);
  }
}

function decoder<T>(name: string, schema: object): (stored: unknown) => T {
  let validate: ValidateFunction | undefined;
  return (stored) => {
    validate ??= ajv.compile(schema);
    // useDefaults writes into the value: decode a copy, never the caller's object.
    const value: unknown = structuredClone(stored);
    if (!validate(value)) throw new StoredOptionsError(ajv.errorsText(validate.errors), name);
    return value as T;
  };
}

export const decodeCrawlOptions = decoder<CrawlOptions>('crawl options', crawlRequestSchema);
export const decodeBatchScrapeOptions = decoder<BatchScrapeOptions>('batch scrape options', batchScrapeRequestSchema);
