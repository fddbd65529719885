/**
 * POST /v1/extract (README "Extract jobs"): the hosted shape. v2 takes the same, with its scrape
 * options (core/v2/requests.ts translates them); one schema types the operation.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { webhookSchema } from './crawl.js';
import { crawlScrapeOptionsSchema, ignored } from './scrape.js';

/** Pages one extract job reads at most: the URLs given, wildcard expansions and web results together. */
export const EXTRACT_MAX_PAGES = 50;
/** Web results an `enableWebSearch` job adds. */
export const EXTRACT_WEB_RESULTS = 5;

export const extractRequestSchema = {
  type: 'object',
  properties: {
    urls: {
      type: 'array',
      maxItems: EXTRACT_MAX_PAGES,
      items: { type: 'string', minLength: 1, maxLength: 8192 },
      description: `Pages to read. A \`*\` makes a pattern (\`https://site/docs/*\`): the site is mapped and its URLs matching it are read. At most ${EXTRACT_MAX_PAGES} pages in all.`,
    },
    prompt: { type: 'string', minLength: 1, maxLength: 10000, description: 'What to extract.' },
    schema: { type: 'object', description: 'JSON Schema the answer must match.' },
    systemPrompt: { type: 'string', maxLength: 10000, description: 'Replaces the default system prompt of each page’s extraction.' },
    enableWebSearch: { type: 'boolean', default: false, description: `Also read the first ${EXTRACT_WEB_RESULTS} web results for the prompt (needs a search provider: README "Search").` },
    showSources: { type: 'boolean', default: false, description: 'Answer `sources`: for each top-level field, the URLs whose pages gave it.' },
    ignoreInvalidURLs: { type: 'boolean', default: false, description: 'Leave out URLs this server may not fetch instead of refusing the request.' },
    includeSubdomains: { type: 'boolean', default: true, description: 'A pattern’s map also lists subdomains.' },
    scrapeOptions: { ...crawlScrapeOptionsSchema, description: 'How each page is read (as crawl scrapeOptions; the markdown is what the LLM reads, main content only unless onlyMainContent is false).' },
    webhook: { ...webhookSchema, description: 'A URL, or `{ url, headers?, metadata?, events? }`: `extract.started`, then `extract.completed` (with the answer in `data` when under 100 KB) or `extract.failed`, signed as crawl events are (README "Webhooks"); `events` filters by `started`, `completed`, `failed`.' },
    allowExternalLinks: { type: 'boolean', ...ignored('only the given pages (and web results) are read.') },
    agent: { type: 'object', ...ignored('no agent here.') },
    origin: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
    integration: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
    timeLimit: { type: 'integer', ...ignored('an extract job runs until its pages are read.') },
    threatProtection: { type: 'object', ...ignored('hosted feature.') },
  },
  additionalProperties: false,
} as const;

export type ExtractRequest = FromSchema<typeof extractRequestSchema>;

export const extractIdParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$', description: 'The extract job’s id.' } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** Who hears of an extract job's events (its `webhook`). */
export interface ExtractHooks {
  urls: string[];
  metadata?: unknown;
  headers?: Record<string, string>;
  events?: string[];
}

/** The extract workflow's input: the job row holds the rest. */
export interface ExtractInput {
  extractId: string;
  hooks?: ExtractHooks;
}
