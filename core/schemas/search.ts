/**
 * POST /v1/search (README "Search"): the hosted v1 shape, plus the v2 fields (sources, categories,
 * domains), so that one schema types the operation and v2 requests are translated onto it
 * (core/v2/requests.ts), as for the other operations.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { ignored, pageOptionsProperties, pageTimeout } from './scrape.js';

export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_TIMEOUT_DEFAULT_MS = 60_000;

const domainList = { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$' } } as const;

const { webhookUrls: _webhookUrls, metadata: _metadata, formats, ...pageOptions } = pageOptionsProperties;

/** The results' page options: with formats, each web and news result is scraped (v1: an empty list, the SDK's default, scrapes nothing). */
export const searchScrapeOptionsSchema = {
  type: 'object',
  properties: {
    timeout: pageTimeout,
    formats: { ...formats, minItems: 0, default: [], description: 'Formats of each scraped result; empty (the default): the results are not scraped.' },
    ...pageOptions,
  },
  additionalProperties: false,
} as const;

export const searchRequestSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S', description: 'What to search for.' },
    limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 5, description: 'Results wanted (of each source).' },
    sources: {
      type: 'array',
      uniqueItems: true,
      items: { enum: ['web', 'news', 'images'] },
      default: ['web'],
      description: 'Which kinds of results: `web`, `news`, `images` (v1 answers web results only).',
    },
    categories: { type: 'array', maxItems: 2, uniqueItems: true, items: { enum: ['github', 'pdf'] }, description: '`github`: results on github.com; `pdf`: PDF files.' },
    includeDomains: { ...domainList, description: 'Only results on these sites (`site:` in the query).' },
    excludeDomains: { ...domainList, description: 'No results on these sites (`-site:` in the query).' },
    tbs: { type: 'string', minLength: 1, maxLength: 200, description: 'Time filter, Google style: `qdr:h`, `qdr:d`, `qdr:w`, `qdr:m`, `qdr:y` (Serper takes any Google `tbs`).' },
    lang: { type: 'string', minLength: 2, maxLength: 10, description: 'Language of the results (ISO 639-1, `en`).' },
    country: { type: 'string', minLength: 2, maxLength: 10, description: 'Country of the results (ISO 3166-1 alpha-2, `us`).' },
    location: { type: 'string', minLength: 1, maxLength: 200, description: 'A place the results are for (`Berlin, Germany`); Serper only, ignored by SearXNG.' },
    timeout: { type: 'integer', minimum: 1000, maximum: 300_000, default: SEARCH_TIMEOUT_DEFAULT_MS, description: 'Budget of the whole request in ms, scraping included.' },
    ignoreInvalidURLs: { type: 'boolean', default: false, description: 'Leave out results whose URL this server may not fetch (private addresses and the like) instead of listing them unscraped with `metadata.error`.' },
    scrapeOptions: searchScrapeOptionsSchema,
    filter: { type: 'string', maxLength: 200, ...ignored('hosted result filtering.') },
    origin: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

export type SearchRequest = FromSchema<typeof searchRequestSchema>;

const { sources: _sources, ...v1Properties } = searchRequestSchema.properties;

/** What POST /v1/search takes: web results only (the v1 answer is one list). */
export const v1SearchRequestSchema = { ...searchRequestSchema, properties: v1Properties } as const;
