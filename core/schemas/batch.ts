/**
 * POST /v1/batch/scrape (the hosted v1 API's batch scrape, which the official SDKs call): a list
 * of URLs, each scraped with the same options, as one durable job: a crawl without discovery.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { MAX_CRAWL_CONCURRENCY, webhookSchema } from './crawl.js';
import { pageOptionsProperties, pageTimeout } from './scrape.js';

/** URLs in one batch, at most (and a 1 MiB request body holds about that many). */
export const MAX_BATCH_URLS = 10_000;

export const batchScrapeRequestSchema = {
  type: 'object',
  properties: {
    urls: { type: 'array', minItems: 1, maxItems: MAX_BATCH_URLS, items: { type: 'string', minLength: 1, maxLength: 8192 }, description: 'Pages to scrape; a missing scheme becomes https://. The same page listed twice is scraped once.' },
    timeout: pageTimeout,
    ...pageOptionsProperties,
    webhook: webhookSchema,
    ignoreInvalidURLs: { type: 'boolean', default: false, description: 'Scrape the valid URLs and list the others in `invalidURLs`, instead of answering 400.' },
    maxConcurrency: { type: 'integer', minimum: 1, maximum: MAX_CRAWL_CONCURRENCY, description: 'Pages of this batch fetched at once, across all workers (default 32).' },
  },
  required: ['urls'],
  additionalProperties: false,
} as const;

export type BatchScrapeOptions = FromSchema<typeof batchScrapeRequestSchema>;

export const batchIdParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$', description: 'Batch id from POST /v1/batch/scrape.' } },
  required: ['id'],
  additionalProperties: false,
} as const;
