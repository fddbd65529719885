/**
 * v2 requests as the v1 options the operations take (README "The v2 API"): the one place where the
 * hosted v2 API's request shapes are translated. What v2 moved (formats objects, `sitemap`,
 * `crawlEntireDomain`) becomes its v1 form; what needs something this server does not have is
 * refused with a 400 naming the field; hosted-only switches are dropped. The result is validated
 * against the v1 schema by the caller, which fills in the v1 defaults.
 */
import { type ErrorDetail, invalidBody } from '../errors.js';
import type { FromSchema } from 'json-schema-to-ts';
import type { v2BatchScrapeRequestSchema, v2CrawlRequestSchema, v2MapRequestSchema, v2ScrapeOptionsSchema, v2ScrapeRequestSchema, v2SearchRequestSchema, v2ExtractRequestSchema } from '../schemas/v2.js';
import { FormatError, formatsFromV2, type V2Format } from './formats.js';

export type V2ScrapeRequest = FromSchema<typeof v2ScrapeRequestSchema>;
export type V2ScrapeOptions = FromSchema<typeof v2ScrapeOptionsSchema>;
export type V2CrawlRequest = FromSchema<typeof v2CrawlRequestSchema>;
export type V2MapRequest = FromSchema<typeof v2MapRequestSchema>;
export type V2BatchScrapeRequest = FromSchema<typeof v2BatchScrapeRequestSchema>;
export type V2SearchRequest = FromSchema<typeof v2SearchRequestSchema>;
export type V2ExtractRequest = FromSchema<typeof v2ExtractRequestSchema>;

/** Largest v1 maxDepth: v2 has no path-depth bound. */
const NO_PATH_DEPTH_BOUND = 100;

function fail(details: ErrorDetail[]): never {
  throw invalidBody(details);
}

/** v2 page options (scrape, batch, crawl scrapeOptions) as v1 page options; `at` prefixes field names (`scrapeOptions.`). */
function pageOptionsFromV2(options: Omit<V2ScrapeOptions, 'timeout'>, at: string, details: ErrorDetail[]): Record<string, unknown> {
  const {
    formats,
    redactPII,
    profile,
    // Hosted-only switches: documented as ignored (core/schemas/v2.ts).
    fastMode: _fastMode,
    lockdown: _lockdown,
    parsers: _parsers,
    useMock: _useMock,
    threatProtection: _threatProtection,
    checkPromptInjection: _checkPromptInjection,
    domainTools: _domainTools,
    toolDetail: _toolDetail,
    ...same
  } = options;
  if (redactPII) details.push({ field: `${at}redactPII`, message: 'PII redaction is not offered by this server' });
  if (profile) details.push({ field: `${at}profile`, message: 'saved browser profiles are not offered by this server' });
  let translated: ReturnType<typeof formatsFromV2> | undefined;
  try {
    translated = formatsFromV2((formats ?? ['markdown']) as V2Format[]);
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    details.push({ field: `${at}formats[${err.index}]${err.path}`, message: err.message });
  }
  return { ...same, ...translated };
}

/** POST /v2/scrape → the v1 scrape request. The `alexandria` form is answered by the route (501). */
export function scrapeFromV2(req: V2ScrapeRequest): Record<string, unknown> {
  const { url, timeout, alexandria: _alexandria, requestId: _requestId, ...options } = req;
  const details: ErrorDetail[] = [];
  const page = pageOptionsFromV2(options, '', details);
  if (details.length) fail(details);
  return { url, ...(timeout !== undefined ? { timeout } : {}), ...page };
}

/** POST /v2/crawl (its `prompt` already planned, api/plan-crawl.ts) → the v1 crawl request: `sitemap` becomes ignoreSitemap (and, for `only`, no link hops), no path-depth bound. */
export function crawlFromV2(req: V2CrawlRequest): Record<string, unknown> {
  const { sitemap, prompt: _prompt, robotsUserAgent: _robotsUserAgent, scrapeOptions, ...same } = req;
  const details: ErrorDetail[] = [];
  const { timeout, ...pageOptions } = scrapeOptions ?? {};
  const page = pageOptionsFromV2(pageOptions, 'scrapeOptions.', details);
  if (details.length) fail(details);
  return {
    ...same,
    maxDepth: NO_PATH_DEPTH_BOUND,
    ignoreSitemap: sitemap === 'skip',
    // Sitemap URLs are at discovery depth 0 like the seed: depth 0 admits them and follows no link.
    ...(sitemap === 'only' ? { maxDiscoveryDepth: 0 } : {}),
    scrapeOptions: { ...(timeout !== undefined ? { timeout } : {}), ...page },
  };
}

/** POST /v2/map → the v1 map request. */
export function mapFromV2(req: V2MapRequest): Record<string, unknown> {
  const { sitemap, ignoreCache: _ignoreCache, threatProtection: _threatProtection, ...same } = req;
  return { ...same, ignoreSitemap: sitemap === 'skip', sitemapOnly: sitemap === 'only' };
}

/** POST /v2/batch/scrape (scrape options at the top level, as in v1) → the v1 batch request. */
export function batchFromV2(req: V2BatchScrapeRequest): Record<string, unknown> {
  const { urls, timeout, webhook, ignoreInvalidURLs, maxConcurrency, appendToId, ...options } = req;
  const details: ErrorDetail[] = [];
  if (appendToId) details.push({ field: 'appendToId', message: 'adding URLs to an existing batch is not offered by this server; start another batch scrape' });
  const page = pageOptionsFromV2(options, '', details);
  if (details.length) fail(details);
  return { urls, ...(timeout !== undefined ? { timeout } : {}), ...(webhook !== undefined ? { webhook } : {}), ignoreInvalidURLs, ...(maxConcurrency !== undefined ? { maxConcurrency } : {}), ...page };
}

const typeOf = (item: unknown) => (typeof item === 'string' ? item : (item as { type: string }).type);

/** POST /v2/search → the v1 search request: sources and categories as names (alexandria dropped), the hosted indexes refused, scrapeOptions as v1 page options (with formats: scraped). */
export function searchFromV2(req: V2SearchRequest): Record<string, unknown> {
  const { sources, categories, scrapeOptions, highlights: _h, enterprise: _e, threatProtection: _t, domainTools: _d, toolDetail: _td, integration: _i, ...same } = req;
  const details: ErrorDetail[] = [];
  // The hosted provider exchange (alexandria) has no tools here: asked for, it finds none (the MCP server asks for it by default).
  const sourceNames = [...new Set((sources ?? []).map(typeOf))].filter((name) => name !== 'alexandria');
  const categoryNames = [...new Set((categories ?? []).map(typeOf))];
  categoryNames.forEach((name, i) => {
    if (name !== 'github' && name !== 'pdf') details.push({ field: `categories[${i}]`, message: `the hosted ${name} index is not offered by this server; github and pdf are` });
  });
  let page: Record<string, unknown> | undefined;
  if (scrapeOptions) {
    const { timeout, ...pageOptions } = scrapeOptions;
    page = { ...(timeout !== undefined ? { timeout } : {}), ...pageOptionsFromV2(pageOptions, 'scrapeOptions.', details) };
  }
  if (details.length) fail(details);
  return { ...same, ...(sources ? { sources: sourceNames } : {}), ...(categories?.length ? { categories: categoryNames } : {}), ...(page ? { scrapeOptions: page } : {}) };
}

/** POST /v2/extract → the v1 extract request: scrapeOptions as v1 page options. */
export function extractFromV2(req: V2ExtractRequest): Record<string, unknown> {
  const { scrapeOptions, ...same } = req;
  const details: ErrorDetail[] = [];
  let page: Record<string, unknown> | undefined;
  if (scrapeOptions) {
    const { timeout, ...pageOptions } = scrapeOptions;
    page = { ...(timeout !== undefined ? { timeout } : {}), ...pageOptionsFromV2(pageOptions, 'scrapeOptions.', details) };
  }
  if (details.length) fail(details);
  return { ...same, ...(page ? { scrapeOptions: page } : {}) };
}
