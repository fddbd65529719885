/**
 * Scrape options (spec: "Scrape options", "Extract options", "Limits"). The same schema validates
 * POST /v1/scrape, types its handler and appears in the OpenAPI reference; crawl scrapeOptions
 * reuse it without `url` and `timeout`.
 */
import type { FromSchema } from 'json-schema-to-ts';

export const formats = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'screenshot@fullPage'] as const;
export type Format = (typeof formats)[number];

export const extractSchema = {
  type: 'object',
  description: 'Structured extraction by a language model. Without LLM settings on the server, the scrape succeeds with `metadata.extractSkipped: true`.',
  properties: {
    schema: { type: 'object', description: 'JSON Schema the returned `data.extract` must match.' },
    mode: { enum: ['llm'], default: 'llm', description: 'Extraction mode; `llm` is the only one.' },
    systemPrompt: { type: 'string', maxLength: 10000, description: 'Replaces the default system prompt.' },
    prompt: { type: 'string', maxLength: 10000, description: 'Extra instruction on what to extract.' },
  },
  additionalProperties: false,
} as const;

const selectorList = { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 500 } } as const;

/** Every scrape option except `url` and `timeout`. */
export const pageOptionsProperties = {
  formats: {
    type: 'array',
    items: { enum: formats },
    minItems: 1,
    uniqueItems: true,
    default: ['markdown'],
    description: 'Which representations to return. `screenshot` and `screenshot@fullPage` are base64 PNGs; choose at most one of them.',
  },
  headers: {
    type: 'object',
    maxProperties: 50,
    additionalProperties: { type: 'string', maxLength: 8192 },
    description: 'Extra request headers sent to the target (Cookie, User-Agent, Authorization, ...).',
  },
  includeTags: { ...selectorList, description: 'CSS selectors to keep, with their descendants; everything else is dropped.' },
  excludeTags: { ...selectorList, description: 'CSS selectors to remove.' },
  onlyMainContent: { type: 'boolean', default: false, description: 'Prune navigation, headers, footers, sidebars, banners and ads before conversion.' },
  waitFor: { type: 'integer', minimum: 0, maximum: 60000, default: 0, description: 'Wait this many ms after load before capture (renders in a browser). At most half of `timeout`.' },
  extract: extractSchema,
  webhookUrls: {
    type: 'array',
    maxItems: 10,
    items: { type: 'string', minLength: 1, maxLength: 2048 },
    description: 'Each URL receives the result by POST (event `scrape.completed`), signed; see README "Webhooks".',
  },
  metadata: { description: 'Anything; echoed back on the webhook payload.' },
  origin: { type: 'string', maxLength: 100, description: 'Accepted for compatibility with hosted-API clients; recorded, not used.' },
} as const;

export const scrapeRequestSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 8192, description: 'Page to fetch; a missing scheme becomes https://.' },
    timeout: { type: 'integer', minimum: 1000, maximum: 90000, description: 'Whole-request budget in ms (default 30000, or SCRAPE_TIMEOUT_MS).' },
    ...pageOptionsProperties,
  },
  required: ['url'],
  additionalProperties: false,
} as const;

/** Crawl scrapeOptions: the page options only; a crawl has no per-page timeout to set. */
export const crawlScrapeOptionsSchema = {
  type: 'object',
  properties: pageOptionsProperties,
  additionalProperties: false,
  default: {},
} as const;

/** Page options after validation: defaults filled in (ajv useDefaults), as every page pipeline caller sees them. */
export type PageOptions = FromSchema<typeof crawlScrapeOptionsSchema>;

export interface ErrorDetailLike {
  field: string;
  message: string;
}

/** Rules JSON Schema can't say: combinations that cannot succeed. */
export function pageOptionProblems(options: Pick<PageOptions, 'formats' | 'waitFor'>, timeout?: number): ErrorDetailLike[] {
  const problems: ErrorDetailLike[] = [];
  if (options.formats.includes('screenshot') && options.formats.includes('screenshot@fullPage')) {
    problems.push({ field: 'formats', message: 'choose one of screenshot, screenshot@fullPage' });
  }
  if (timeout !== undefined && options.waitFor > timeout / 2) {
    problems.push({ field: 'waitFor', message: `must be at most half of timeout (${timeout} ms), so the page has time to load: at most ${Math.floor(timeout / 2)}` });
  }
  return problems;
}
