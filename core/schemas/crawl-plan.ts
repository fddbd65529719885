/**
 * Crawl options from a sentence (README "Crawl options from a prompt"): what POST
 * /v2/crawl/params-preview takes, and the JSON Schema the LLM's proposal must match before the crawl
 * schema checks it again.
 */
import { ignored } from './scrape.js';
export const crawlPlanRequestSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 8192, description: 'The site to crawl.' },
    prompt: { type: 'string', minLength: 1, maxLength: 10000, pattern: '\\S', description: 'What to crawl, in a sentence.' },
    origin: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
    integration: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
  },
  required: ['url', 'prompt'],
  additionalProperties: false,
} as const;

/** The fields the planner may propose: v2 crawl options, by their v2 names. */
export const crawlProposalSchema = {
  type: 'object',
  properties: {
    includePaths: { type: ['array', 'null'], maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 500 }, description: 'Regular expressions; a URL path must match one.' },
    excludePaths: { type: ['array', 'null'], maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 500 }, description: 'Regular expressions; a URL path matching one is skipped.' },
    maxDiscoveryDepth: { type: ['integer', 'null'], minimum: 0, maximum: 100, description: 'Link hops from the seed.' },
    limit: { type: ['integer', 'null'], minimum: 1, maximum: 10000, description: 'Pages at most.' },
    sitemap: { enum: ['include', 'skip', 'only', null] },
    crawlEntireDomain: { type: ['boolean', 'null'], description: 'Also pages outside the seed’s path.' },
    allowSubdomains: { type: ['boolean', 'null'] },
    allowExternalLinks: { type: ['boolean', 'null'] },
    ignoreQueryParameters: { type: ['boolean', 'null'] },
  },
  additionalProperties: false,
} as const;

export interface CrawlPlanInput {
  url: string;
  prompt: string;
  /** Whose token usage the LLM call counts in (absent for x402 payers). */
  apiKeyId?: string;
}

export const CRAWL_PLAN_SYSTEM_PROMPT =
  'You turn a request about what to crawl on a website into crawl options, as one JSON object. ' +
  'includePaths and excludePaths are regular expressions matched against the URL path (for example "^/blog/.*"). ' +
  'maxDiscoveryDepth is how many links away from the start page to go; limit is how many pages at most. ' +
  'Leave out any option the request does not call for. Answer with the JSON object only.';
