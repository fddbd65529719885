/**
 * The hosted v2 API's request shapes (README "The v2 API"): what the official SDKs' default clients
 * and the MCP server send to /v2/scrape, /v2/crawl, /v2/map and /v2/batch/scrape. Built from the v1
 * schemas, so a field means the same in both; core/v2/requests.ts turns each into the v1 options
 * the operations take. Fields v2 clients send that need what this server does not have are
 * accepted by type here and refused by name there (400), or, when they change nothing a caller
 * could rely on, accepted and ignored, as the descriptions say.
 */
import { screenshotQualitySchema, viewportSchema } from './screenshot.js';
import { crawlRequestSchema } from './crawl.js';
import { mapRequestSchema } from './map.js';
import { MAX_BATCH_URLS, batchScrapeRequestSchema } from './batch.js';
import { attributeSelectorsSchema, ignored, pageOptionsProperties, pageTimeout, scrapeRequestSchema } from './scrape.js';
import { searchRequestSchema } from './search.js';
import { extractRequestSchema } from './extract.js';

const refused = (description: string) => ({ description: `Not offered here: ${description} Leave it out (400 otherwise).` });

/** A v2 format: a name, or an object with `type` carrying that format's options. */
export const v2FormatSchema = {
  // if/then/else rather than anyOf: a wrong object is told what is wrong with it, not that it is not a string.
  if: { type: 'string' },
  then: { type: 'string', minLength: 1, maxLength: 50 },
  else: {
    type: 'object',
    properties: {
      type: { type: 'string', minLength: 1, maxLength: 50 },
      // json and changeTracking
      schema: { type: 'object' },
      prompt: { type: ['string', 'null'], maxLength: 10000 },
      checkPromptInjection: { type: ['boolean', 'null'] },
      modes: { type: 'array', maxItems: 2, uniqueItems: true, items: { enum: ['git-diff', 'json'] } },
      tag: { type: ['string', 'null'], maxLength: 200 },
      // screenshot
      fullPage: { type: 'boolean' },
      quality: screenshotQualitySchema,
      viewport: viewportSchema,
      // attributes
      selectors: attributeSelectorsSchema,
      // formats not offered here, accepted by shape so the refusal names the format
      question: { type: 'string' },
      query: { type: 'string' },
      mode: { type: 'string' },
    },
    required: ['type'],
    additionalProperties: false,
  },
} as const;

/** What v1 and v2 page options share, minus the v1 ways of asking for extraction and change tracking (v2 puts them in `formats`). */
const {
  formats: _formats,
  extract: _extract,
  jsonOptions: _jsonOptions,
  changeTrackingOptions: _changeTrackingOptions,
  attributesOptions: _attributesOptions,
  webhookUrls: _webhookUrls,
  metadata: _metadata,
  parsePDF: _parsePDF,
  agent: _agent,
  screenshotOptions: _screenshotOptions,
  onlyMainContent,
  ...shared
} = pageOptionsProperties;

export const v2PageOptionsProperties = {
  formats: {
    type: 'array',
    minItems: 1,
    maxItems: 20,
    items: v2FormatSchema,
    default: ['markdown'],
    description:
      'Names or objects: `markdown`, `html`, `rawHtml`, `links`, `images` (every image URL of the page), `screenshot` (or `{ type: "screenshot", fullPage }`), `summary` (by the LLM), `{ type: "json", schema?, prompt? }` (into `json`, by the LLM), `{ type: "attributes", selectors: [{ selector, attribute }] }` (at most 20 pairs; into `attributes`) and `changeTracking` (or `{ type: "changeTracking", modes?, schema?, prompt?, tag? }`, with markdown). Other hosted formats (branding, product, menu, audio, video, question, highlights, query) get 400 naming `formats[i]`.',
  },
  onlyMainContent: { ...onlyMainContent, default: true, description: 'Prune navigation, headers, footers, sidebars, banners and ads before conversion (v2 default: true).' },
  ...shared,
  fastMode: { type: 'boolean', ...ignored('there is one way of fetching here.') },
  lockdown: { type: 'boolean', ...ignored('hosted feature.') },
  parsers: { type: 'array', maxItems: 10, ...ignored('PDFs are always converted to text.') },
  useMock: { type: 'string', maxLength: 200, ...ignored('no mocks.') },
  threatProtection: { type: 'object', ...ignored('hosted feature.') },
  checkPromptInjection: { type: 'boolean', ...ignored('hosted feature.') },
  domainTools: { type: 'boolean', ...ignored('hosted feature.') },
  toolDetail: { enum: ['compact', 'summary', 'full'], ...ignored('hosted feature.') },
  redactPII: { type: ['boolean', 'object'], ...refused('PII redaction needs a service this server does not have. false is accepted.') },
  profile: { type: 'object', ...refused('saved browser profiles.') },
} as const;

export const v2ScrapeRequestSchema = {
  type: 'object',
  properties: {
    url: scrapeRequestSchema.properties.url,
    timeout: scrapeRequestSchema.properties.timeout,
    ...v2PageOptionsProperties,
    alexandria: { ...refused('the hosted provider exchange (Alexandria). Answered 501.') },
    requestId: { type: 'string', maxLength: 200, ...ignored('hosted bookkeeping.') },
  },
  // `alexandria` bodies have no url: they get their own 501 rather than "url is required".
  if: { required: ['alexandria'] },
  else: { required: ['url'] },
  additionalProperties: false,
} as const;

export const v2ScrapeOptionsSchema = {
  type: 'object',
  properties: { timeout: pageTimeout, ...v2PageOptionsProperties },
  additionalProperties: false,
  default: {},
} as const;

const { scrapeOptions: _scrapeOptions, webhookUrls: _crawlWebhookUrls, webhookMetadata: _webhookMetadata, ignoreSitemap: _ignoreSitemap, maxDepth: _maxDepth, allowBackwardLinks: _allowBackwardLinks, ...crawlShared } = crawlRequestSchema.properties;

const sitemapMode = (what: string, fallback: 'include') =>
  ({
    enum: ['include', 'skip', 'only'],
    default: fallback,
    description: `\`include\`: ${what} sitemap URLs and the pages’ links; \`skip\`: no sitemaps; \`only\`: ${what === 'crawl' ? 'the seed and the sitemap URLs, no links followed' : 'the sitemap URLs alone'}.`,
  }) as const;

export const v2CrawlRequestSchema = {
  type: 'object',
  properties: {
    ...crawlShared,
    crawlEntireDomain: { type: 'boolean', default: false, description: 'Allow URLs outside the seed path (v1: allowBackwardLinks).' },
    sitemap: sitemapMode('crawl', 'include'),
    scrapeOptions: v2ScrapeOptionsSchema,
    prompt: { type: 'string', minLength: 1, maxLength: 10000, description: 'What to crawl, in a sentence: the LLM proposes the options (as POST /v2/crawl/params-preview), checked by this schema; fields given in the request win. Needs LLM settings (501 otherwise).' },
    robotsUserAgent: { type: 'string', maxLength: 500, ...ignored('robots.txt is read for SERVICE_USER_AGENT.') },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

const { ignoreSitemap: _mapIgnoreSitemap, sitemapOnly: _sitemapOnly, allowBackwardLinks: _mapBackward, includeSubdomains, ...mapShared } = mapRequestSchema.properties;

export const v2MapRequestSchema = {
  type: 'object',
  properties: {
    ...mapShared,
    sitemap: sitemapMode('map', 'include'),
    includeSubdomains: { ...includeSubdomains, default: true, description: 'Also list URLs on subdomains of the site (v2 default: true).' },
    ignoreQueryParameters: { type: 'boolean', default: true, description: 'List URLs that differ only in their query once, without the query (v2 default: true).' },
    ignoreCache: { type: 'boolean', ...ignored('no sitemap cache; every map reads the site.') },
    threatProtection: { type: 'object', ...ignored('hosted feature.') },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

const { urls, timeout: _batchTimeout, ignoreInvalidURLs, maxConcurrency, webhook } = batchScrapeRequestSchema.properties;

export const v2BatchScrapeRequestSchema = {
  type: 'object',
  properties: {
    urls: { ...urls, maxItems: MAX_BATCH_URLS },
    timeout: pageTimeout,
    ...v2PageOptionsProperties,
    webhook,
    ignoreInvalidURLs,
    maxConcurrency,
    appendToId: { type: 'string', maxLength: 100, ...refused('adding URLs to a running batch; start another batch.') },
  },
  required: ['urls'],
  additionalProperties: false,
} as const;

const { sources: _sources, categories: _categories, scrapeOptions: _searchScrapeOptions, filter: _filter, lang: _lang, ...searchShared } = searchRequestSchema.properties;

const { default: _noDefault, ...scrapeOptionsWithoutDefault } = v2ScrapeOptionsSchema;

/** A source or category: a name, or an object with `type` (the SDKs send both). */
const named = (names: readonly string[]) => ({ if: { type: 'string' }, then: { enum: names }, else: { type: 'object', properties: { type: { enum: names } }, required: ['type'] } }) as const;

export const v2SearchRequestSchema = {
  type: 'object',
  properties: {
    ...searchShared,
    sources: { type: 'array', minItems: 1, maxItems: 4, items: named(['web', 'news', 'images', 'alexandria']), description: '`web` (default), `news`, `images`, as names or `{ type }` objects; `alexandria` (the hosted provider exchange) finds nothing here.' },
    categories: { type: 'array', maxItems: 5, items: named(['github', 'research', 'pdf', 'developer', 'gov']), description: '`github` and `pdf` narrow web results; the hosted indexes (`research`, `developer`, `gov`) are not offered here (400).' },
    scrapeOptions: { ...scrapeOptionsWithoutDefault, description: 'Scrape each web and news result with these options (as POST /v2/scrape; `maxAge` defaults to CACHE_DEFAULT_MAX_AGE_MS).' },
    highlights: { type: 'boolean', ...ignored('no highlights here.') },
    enterprise: { type: 'array', maxItems: 3, ...ignored('hosted feature.') },
    threatProtection: { type: 'object', ...ignored('hosted feature.') },
    domainTools: { type: 'boolean', ...ignored('hosted feature.') },
    toolDetail: { enum: ['compact', 'summary', 'full'], ...ignored('hosted feature.') },
    integration: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

const { scrapeOptions: _extractScrapeOptions, ...extractShared } = extractRequestSchema.properties;

export const v2ExtractRequestSchema = {
  type: 'object',
  properties: {
    ...extractShared,
    scrapeOptions: { ...scrapeOptionsWithoutDefault, description: 'How each page is read (as POST /v2/scrape; the markdown is what the LLM reads).' },
  },
  additionalProperties: false,
} as const;
