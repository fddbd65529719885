/**
 * Scrape options (spec: "Scrape options", "Extract options", "Limits"), plus the fields the hosted
 * v1 API's official SDKs send (README "Fields from the official SDKs"). The same schema validates
 * POST /v1/scrape, types its handler and appears in the OpenAPI reference; crawl scrapeOptions and
 * batch scrapes reuse it.
 */
import { screenshotQualitySchema, viewportSchema } from './screenshot.js';
import type { FromSchema } from 'json-schema-to-ts';
import { extractionSchemaProblem } from '../llm-schema.js';
import { actionProblems, actionsSchema } from './actions.js';
import { selectorProblem } from '../html/select.js';

/**
 * `json` (with jsonOptions) and `extract` (with extract) are the hosted v1 API's extraction formats;
 * `changeTracking` (with markdown) compares the page with its last version (README "Change tracking").
 * `images`, `attributes` (with attributesOptions) and `summary` are the hosted v2 API's formats,
 * offered on v1 too as an extension (README "Images, attributes and summary").
 */
export const formats = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'screenshot@fullPage', 'json', 'extract', 'changeTracking', 'images', 'attributes', 'summary'] as const;
export type Format = (typeof formats)[number];

const llmProperties = {
  schema: { type: 'object', description: 'JSON Schema the result must match.' },
  systemPrompt: { type: 'string', maxLength: 10000, description: 'Replaces the default system prompt.' },
  prompt: { type: 'string', maxLength: 10000, description: 'Extra instruction on what to extract.' },
} as const;

export const extractSchema = {
  type: 'object',
  description: 'Structured extraction by a language model, returned in `data.extract`. Without LLM settings on the server, the scrape succeeds with `metadata.extractSkipped: true`.',
  properties: {
    ...llmProperties,
    mode: { enum: ['llm'], default: 'llm', description: 'Extraction mode; `llm` is the only one.' },
  },
  additionalProperties: false,
} as const;

/** The hosted v1 API's name for extraction into `data.json` (format `json`). */
export const jsonOptionsSchema = {
  type: 'object',
  description: 'Structured extraction by a language model, returned in `data.json` (with format `json`); as `extract` otherwise.',
  properties: {
    ...llmProperties,
    checkPromptInjection: { type: 'boolean', description: 'Accepted from hosted-API clients; ignored.' },
    agent: { type: 'object', description: 'Accepted from hosted-API clients; ignored (no agent here).' },
  },
  additionalProperties: false,
} as const;

/** The changeTracking format's options (the hosted v1 API's changeTrackingOptions). */
export const changeTrackingOptionsSchema = {
  type: 'object',
  description: 'With format `changeTracking`: how to compare the page with its last version (per API key, URL and `tag`).',
  properties: {
    modes: {
      type: 'array',
      maxItems: 2,
      uniqueItems: true,
      items: { enum: ['git-diff', 'json'] },
      description: '`git-diff`: a unified diff of the markdown (and its parsed form) for changed pages; `json`: the fields that differ, extracted by the LLM with `schema` (or described by it with `prompt`).',
    },
    schema: { type: 'object', description: 'For `json` mode: what to extract from both versions; the top-level fields that differ are returned as { previous, current }.' },
    prompt: { type: 'string', maxLength: 10000, description: 'For `json` mode: an instruction for the comparison.' },
    tag: { type: ['string', 'null'], maxLength: 200, description: 'Keeps a separate history per tag (e.g. per monitor); null: the default history.' },
  },
  additionalProperties: false,
} as const;

/** Most selectors one attributes format may ask for. */
export const MAX_ATTRIBUTE_SELECTORS = 20;

/** One `{ selector, attribute }` pair of the attributes format (v1 attributesOptions.selectors, v2 `{ type: "attributes", selectors }`). */
export const attributeSelectorSchema = {
  type: 'object',
  properties: {
    selector: { type: 'string', minLength: 1, maxLength: 500, description: 'CSS selector (as includeTags); every matching element of the whole page is read.' },
    attribute: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\s"\'>/=]+$', description: 'Attribute name, e.g. `href`, `data-id` (case-insensitive).' },
  },
  required: ['selector', 'attribute'],
  additionalProperties: false,
} as const;

export const attributeSelectorsSchema = { type: 'array', minItems: 1, maxItems: MAX_ATTRIBUTE_SELECTORS, items: attributeSelectorSchema } as const;

/** The attributes format's options (v2 carries them in the format object). */
export const attributesOptionsSchema = {
  type: 'object',
  description: `With format \`attributes\`: which attribute to read from which elements. \`data.attributes\` holds one \`{ selector, attribute, values }\` per pair, in order (at most ${MAX_ATTRIBUTE_SELECTORS} pairs; README "Images, attributes and summary").`,
  properties: { selectors: attributeSelectorsSchema },
  required: ['selectors'],
  additionalProperties: false,
} as const;

/** Accepted because the official SDKs send them; they change nothing here (README "Fields from the official SDKs"). */
export const ignored = (description: string) => ({ description: `Accepted from hosted-API clients; ignored: ${description}` });

const selectorList = { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 500 } } as const;

/** Every scrape option except `url` and `timeout`. */
export const pageOptionsProperties = {
  formats: {
    type: 'array',
    items: { enum: formats },
    minItems: 1,
    uniqueItems: true,
    default: ['markdown'],
    description:
      'Which representations to return. `screenshot` and `screenshot@fullPage` are base64 PNGs; choose at most one of them. `images`: every image URL of the page; `attributes` (with `attributesOptions`): attribute values by selector; `summary`: a short summary of the page by the LLM (like `extract`, skipped with `metadata.extractSkipped` when the server has no LLM).',
  },
  screenshotOptions: {
    type: 'object',
    properties: {
      quality: { ...screenshotQualitySchema, description: 'A JPEG of this quality instead of a PNG.' },
      viewport: { ...viewportSchema, description: 'The window size the page is rendered and shot at (default 1280×800; 390×844 with `mobile`).' },
    },
    additionalProperties: false,
    description: 'With a screenshot format: JPEG quality and window size (v2: the screenshot format object\'s `quality` and `viewport`).',
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
  actions: actionsSchema,
  extract: extractSchema,
  jsonOptions: jsonOptionsSchema,
  changeTrackingOptions: changeTrackingOptionsSchema,
  attributesOptions: attributesOptionsSchema,
  location: {
    type: 'object',
    properties: {
      country: { type: 'string', maxLength: 10, description: 'ISO 3166-1 country code: the request goes out through that country\'s proxy pool (PROXY_URLS_<CC>) when the operator has one, else through PROXY_URLS (README "Proxies").' },
      languages: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 35 }, description: 'Sent to the site as Accept-Language (unless `headers` sets one).' },
    },
    additionalProperties: false,
    description: 'Where the page should be fetched from: `country` chooses the proxy pool, `languages` becomes Accept-Language.',
  },
  mobile: { type: 'boolean', default: false, description: 'Render as a phone: a 390×844 viewport and a mobile user agent in the browser engines.' },
  skipTlsVerification: { type: 'boolean', default: false, description: 'Accept invalid TLS certificates (self-signed, expired) in the fetch engine. The URL safety policy still applies.' },
  removeBase64Images: { type: 'boolean', description: 'Accepted; base64 (data:) images are always left out of markdown here.' },
  blockAds: { type: 'boolean', description: 'Refuse advert and tracker requests in the browser (EasyList and EasyPrivacy; default true, as hosted). `metadata.adsBlocked` counts them when a browser rendered the page.' },
  proxy: {
    enum: ['basic', 'stealth', 'enhanced', 'auto'],
    description: 'Which operator proxies the page goes out through: `basic` (PROXY_URLS, or the country\'s), `stealth` / `enhanced` (STEALTH_PROXY_URLS; a 400 without them), `auto` (basic, then stealth after a 401, 403, 429 or challenge page). Without proxies configured, requests go out directly. `metadata.proxyUsed` says which tier was used.',
  },
  maxAge: {
    type: 'integer',
    minimum: 0,
    description: 'Serve the page from the cache when a copy younger than this many ms exists (scrape only; v1 default 0: always read the site; v2 default CACHE_DEFAULT_MAX_AGE_MS). `metadata.cacheState` says `hit` or `miss`. See README "Page cache".',
  },
  minAge: { type: 'integer', minimum: 0, description: 'Scrape only: answer from the cache only, with a copy at least this many ms old; none is `404 no_cached_data`.' },
  storeInCache: { type: 'boolean', description: 'false keeps this result out of the page cache (default true).' },
  parsePDF: { type: 'boolean', ...ignored('PDFs are always converted to text.') },
  agent: { type: 'object', ...ignored('no agent here.') },
  zeroDataRetention: { type: 'boolean', ...ignored('results are kept CRAWL_TTL_SECONDS like every other.') },
  auditMetadata: { type: 'object', ...ignored('hosted-account bookkeeping.') },
  integration: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
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

export const pageTimeout = { type: 'integer', minimum: 1000, maximum: 90000, description: 'Budget of each page in ms (default 30000).' } as const;

/**
 * Crawl scrapeOptions: the page options, and `timeout` as each page's budget (the spec leaves it out;
 * the official Python SDK always sends it).
 */
export const crawlScrapeOptionsSchema = {
  type: 'object',
  properties: { timeout: pageTimeout, ...pageOptionsProperties },
  additionalProperties: false,
  default: {},
} as const;

/** The page options alone, as the page pipeline reads them. */
export const pageOptionsSchema = { type: 'object', properties: pageOptionsProperties, additionalProperties: false } as const;

/** Page options after validation: defaults filled in (ajv useDefaults), as every page pipeline caller sees them. */
export type PageOptions = FromSchema<typeof pageOptionsSchema>;

export interface ErrorDetailLike {
  field: string;
  message: string;
}

/** Rules JSON Schema can't say: combinations that cannot succeed. */
export function pageOptionProblems(options: Pick<PageOptions, 'formats' | 'waitFor' | 'extract' | 'jsonOptions' | 'changeTrackingOptions' | 'actions' | 'screenshotOptions' | 'attributesOptions'>, timeout?: number): ErrorDetailLike[] {
  const problems: ErrorDetailLike[] = actionProblems(options.actions, options.waitFor);
  if (options.formats.includes('screenshot') && options.formats.includes('screenshot@fullPage')) {
    problems.push({ field: 'formats', message: 'choose one of screenshot, screenshot@fullPage' });
  }
  if (options.screenshotOptions && !options.formats.some((f) => f.startsWith('screenshot'))) {
    problems.push({ field: 'screenshotOptions', message: 'needs a screenshot format (screenshot or screenshot@fullPage)' });
  }
  if (options.formats.includes('json') !== (options.jsonOptions !== undefined)) {
    problems.push(options.jsonOptions ? { field: 'jsonOptions', message: 'needs "json" in formats (the result is data.json)' } : { field: 'jsonOptions', message: 'is required with the json format: give a schema or a prompt' });
  }
  if (options.formats.includes('attributes') !== (options.attributesOptions !== undefined)) {
    problems.push(options.attributesOptions ? { field: 'attributesOptions', message: 'needs "attributes" in formats (the result is data.attributes)' } : { field: 'attributesOptions', message: 'is required with the attributes format: give { "selectors": [{ "selector", "attribute" }] }' });
  }
  options.attributesOptions?.selectors.forEach(({ selector }, j) => {
    const problem = selectorProblem(selector);
    if (problem) problems.push({ field: `attributesOptions.selectors[${j}].selector`, message: problem });
  });
  if (options.formats.includes('extract') && !options.extract) problems.push({ field: 'extract', message: 'is required with the extract format: give a schema or a prompt' });
  if (options.extract && options.jsonOptions) problems.push({ field: 'jsonOptions', message: 'use one of extract and jsonOptions (one extraction per page)' });
  const tracking = options.formats.includes('changeTracking');
  if (tracking && !options.formats.includes('markdown')) problems.push({ field: 'formats', message: 'changeTracking needs markdown in formats as well (it compares the markdown)' });
  if (options.changeTrackingOptions && !tracking) problems.push({ field: 'changeTrackingOptions', message: 'needs "changeTracking" in formats' });
  for (const [field, schema] of [['extract.schema', options.extract?.schema], ['jsonOptions.schema', options.jsonOptions?.schema], ['changeTrackingOptions.schema', options.changeTrackingOptions?.schema]] as const) {
    const problem = schema ? extractionSchemaProblem(schema as Record<string, unknown>) : undefined;
    if (problem) problems.push({ field, message: problem });
  }
  if (timeout !== undefined && options.waitFor > timeout / 2) {
    problems.push({ field: 'waitFor', message: `must be at most half of timeout (${timeout} ms), so the page has time to load: at most ${Math.floor(timeout / 2)}` });
  }
  return problems;
}
