/** Crawl options (spec: "Crawl options") and the GET /v1/crawl/{id} query. */
import type { FromSchema } from 'json-schema-to-ts';
import { documentSchema } from './document.js';
import { crawlScrapeOptionsSchema } from './scrape.js';

const patternList = {
  type: 'array',
  maxItems: 100,
  items: { type: 'string', minLength: 1, maxLength: 500 },
  default: [],
} as const;

/**
 * The hosted API's `webhook`: a URL, or a URL with headers sent on every delivery, metadata (as
 * webhookMetadata) and which events to send. It joins `webhookUrls` (README "Webhooks").
 */
export const webhookSchema = {
  description: 'A webhook URL, or `{ url, headers?, metadata?, events? }`: events are `started`, `page`, `completed` (also sent for a cancelled job) and `failed`; all when absent.',
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 2048 },
    {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2048 },
        headers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 4096 } },
        metadata: { type: 'object' },
        events: { type: 'array', maxItems: 4, uniqueItems: true, items: { enum: ['started', 'page', 'completed', 'failed'] } },
      },
      required: ['url'],
      additionalProperties: false,
    },
  ],
} as const;

/** Largest `limit` accepted: a crawl of more pages should be split. */
export const MAX_CRAWL_LIMIT = 100_000;
/** Largest `maxConcurrency`, and what a crawl without one may have in flight across all workers. */
export const MAX_CRAWL_CONCURRENCY = 100;
export const DEFAULT_CRAWL_CONCURRENCY = 32;
/** Largest `delay`, seconds (robots.txt Crawl-delay is capped at 10 s; a caller may ask for more). */
export const MAX_CRAWL_DELAY_SECONDS = 60;

export const crawlRequestSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 8192, description: 'Seed URL; a missing scheme becomes https://.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_CRAWL_LIMIT, default: 10000, description: 'Maximum pages to scrape (exact).' },
    maxDepth: { type: 'integer', minimum: 0, maximum: 100, default: 10, description: 'Maximum path depth below the seed (the seed is 0).' },
    maxDiscoveryDepth: { type: 'integer', minimum: 0, maximum: 100, description: 'Maximum link hops from the seed (the seed is 0). No bound when absent.' },
    includePaths: { ...patternList, description: 'Patterns a URL must match (empty: everything). See README "Path patterns".' },
    excludePaths: { ...patternList, description: 'Patterns that reject a URL. See README "Path patterns".' },
    allowBackwardLinks: { type: 'boolean', default: false, description: 'Allow URLs outside the seed path.' },
    crawlEntireDomain: { type: 'boolean', description: 'The hosted API’s newer name for allowBackwardLinks: true allows URLs outside the seed path.' },
    allowExternalLinks: { type: 'boolean', default: false, description: 'Allow other hosts.' },
    allowSubdomains: { type: 'boolean', default: false, description: 'Follow links to subdomains of the seed’s site (`docs.example.com` for `example.com`).' },
    ignoreQueryParameters: { type: 'boolean', default: false, description: 'Treat URLs that differ only in their query as one page (the first spelling is fetched).' },
    deduplicateSimilarURLs: { type: 'boolean', description: 'Accepted from hosted-API clients: URL variants (scheme, www., trailing slash, fragment) are always folded into one page here.' },
    ignoreSitemap: { type: 'boolean', default: true, description: 'Skip sitemap seeding.' },
    ignoreRobotsTxt: { type: 'boolean', default: false, description: 'Ignore robots.txt rules and Crawl-delay.' },
    regexOnFullURL: { type: 'boolean', default: false, description: 'Match patterns against the full URL instead of the path.' },
    maxConcurrency: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CRAWL_CONCURRENCY,
      description: `Pages of this crawl fetched at once, across all workers (default ${DEFAULT_CRAWL_CONCURRENCY}, bounded by the workers' WORKER_CONCURRENCY). See README "Politeness".`,
    },
    delay: {
      type: 'number',
      minimum: 0,
      maximum: MAX_CRAWL_DELAY_SECONDS,
      description: 'Seconds between requests to the site; any delay means one page at a time. The larger of this and robots.txt Crawl-delay applies.',
    },
    scrapeOptions: crawlScrapeOptionsSchema,
    webhookUrls: {
      type: 'array',
      maxItems: 10,
      items: { type: 'string', minLength: 1, maxLength: 2048 },
      description: 'Receive crawl.started, crawl.page, crawl.completed, crawl.failed and crawl.cancelled events; see README "Webhooks".',
    },
    webhookMetadata: { description: 'Attached to every webhook payload as `metadata`.' },
    webhook: webhookSchema,
    origin: { type: 'string', maxLength: 100, description: 'Accepted for compatibility with hosted-API clients; ignored.' },
    integration: { type: 'string', maxLength: 100, description: 'Accepted from hosted-API clients; ignored.' },
    zeroDataRetention: { type: 'boolean', description: 'Accepted from hosted-API clients; ignored: results are kept CRAWL_TTL_SECONDS like every other.' },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

/** A crawl's options as validated: defaults filled in. Stored in `crawl.options`; read back with decodeCrawlOptions. */
export type CrawlOptions = FromSchema<typeof crawlRequestSchema>;

export const crawlIdParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$', description: 'Crawl id from POST /v1/crawl.' } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** Paging over a crawl's documents: defaults and bounds are documented in the README. */
export const CRAWL_PAGE_DEFAULT = 100;
export const CRAWL_PAGE_MAX = 1000;
/** Longest `x-idempotency-key` a job start takes (the SDKs send UUIDs; jobs/start.ts startJob). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** A page of results stops growing past this many bytes of documents (at least one is returned). */
export const CRAWL_PAGE_MAX_BYTES = 10 * 1024 * 1024;

/** Largest offset a listing takes (a PostgreSQL integer; beyond any job's documents anyway). */
export const MAX_OFFSET = 1_000_000_000;

export const crawlStatusQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, description: 'Documents to skip (0-based, in the order pages finished); default 0.' },
    skip: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, description: 'The name the SDKs send for `offset` (and the hosted v2 API’s); `offset` wins when both are given.' },
    limit: { type: 'integer', minimum: 1, maximum: CRAWL_PAGE_MAX, default: CRAWL_PAGE_DEFAULT, description: `Documents to return, at most ${CRAWL_PAGE_MAX}; fewer when they pass 10 MiB.` },
  },
  additionalProperties: false,
} as const;

/** GET /v1/crawl/{id}/errors and GET /v1/batch/scrape/{id}/errors (the hosted v1 API's shape). */
export const jobErrorsSchema = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The page’s id within the job.' },
          timestamp: { type: 'string', format: 'date-time', description: 'When it failed.' },
          url: { type: 'string' },
          code: { type: 'string', description: 'url_not_allowed, invalid_request, action_failed, unconvertible_content, fetch_failed, timeout, rate_limited_by_site, worker_lost or internal_error.' },
          error: { type: 'string' },
        },
        required: ['id', 'url', 'error'],
        additionalProperties: false,
      },
    },
    robotsBlocked: { type: 'array', items: { type: 'string' }, description: 'URLs robots.txt kept the crawl from (the first 1,000).' },
  },
  required: ['errors', 'robotsBlocked'],
  additionalProperties: false,
} as const;

/** GET /v1/crawl/{id}'s answer: the OpenAPI reference and the type the API, benches and tests share. */
export const crawlStatusSchema = {
  type: 'object',
  properties: {
    success: { const: true },
    status: { enum: ['scraping', 'completed', 'failed', 'cancelled'] },
    completed: { type: 'integer', description: 'Pages done, failed ones included.' },
    total: { type: 'integer', description: 'Pages known so far (admitted to the crawl).' },
    creditsUsed: { type: 'integer', description: 'Pages billed: pages stored.' },
    expiresAt: { type: 'string', format: 'date-time' },
    next: { type: 'string', description: 'Relative path of the next page of documents.' },
    failed: { type: 'integer', description: 'Pages that failed after retries.' },
    skipped: { type: 'object', additionalProperties: { type: 'integer' }, description: 'URLs not crawled, counted by reason.' },
    error: { type: 'string', description: 'Why the crawl failed.' },
    data: { type: 'array', items: documentSchema },
  },
  required: ['success', 'status', 'completed', 'total', 'creditsUsed', 'expiresAt', 'failed', 'skipped', 'data'],
  additionalProperties: false,
} as const;

export type CrawlStatusBody = FromSchema<typeof crawlStatusSchema>;
