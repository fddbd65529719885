/**
 * The hosted v2 API's scrape, crawl, map and batch scrape (README "The v2 API"), which the official
 * SDKs' default clients and the MCP server call. Each is an adapter: the v2 request becomes the v1
 * options (core/v2/requests.ts, then the v1 schema's defaults), the same operation runs with the
 * same rate limit, x402 price, credits and webhooks, and its answer is put in the v2 shape.
 */
import { documentSchema } from '../../core/schemas/document.js';
import { batchScrapeRequestSchema, type BatchScrapeOptions } from '../../core/schemas/batch.js';
import { crawlRequestSchema, type CrawlOptions } from '../../core/schemas/crawl.js';
import { mapRequestSchema, type MapOptions } from '../../core/schemas/map.js';
import { scrapeRequestSchema } from '../../core/schemas/scrape.js';
import { v2BatchScrapeRequestSchema, v2CrawlRequestSchema, v2MapRequestSchema, v2ScrapeRequestSchema } from '../../core/schemas/v2.js';
import { batchFromV2, crawlFromV2, mapFromV2, scrapeFromV2 } from '../../core/v2/requests.js';
import { NotSupportedError } from '../../core/errors.js';
import { ACTIVE_CRAWLS_MAX, activeCrawls, jobUrl } from '../../jobs/read.js';
import { startBatchScrape } from '../start-batch-scrape.js';
import { startCrawl } from '../start-crawl.js';
import { runMap } from '../run-map.js';
import { planCrawlOptions } from '../plan-crawl.js';
import { crawlPlanRequestSchema } from '../../core/schemas/crawl-plan.js';
import { validateInput } from '../middleware/validate.js';
import { defineRoute, type AppContext, type Schema } from '../route.js';
import { runScrape, type ScrapeRequest } from '../run-scrape.js';
import { caller, linkStyle } from '../callers.js';
import { jobRoutes } from './jobs.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;
const unavailable = { description: 'The workers (Temporal) cannot be reached; nothing was started.', schema: errorRef } as const;

/** The translated request through the v1 schema: its defaults filled in, as a v1 request would have them. */
const asV1 = <T>(schema: Schema, translated: Record<string, unknown>): T => validateInput('body', schema, translated) as T;

/** A v2 document: the v1 one, with the scrape's warning inside it. */
const v2DocumentSchema = { ...documentSchema, properties: { ...documentSchema.properties, warning: { type: 'string', description: 'Set when the target answered non-2xx, or extraction or the summary failed.' } } } as const;

const started = (what: string) =>
  ({
    description: `The ${what} was created and is running.`,
    schema: {
      type: 'object',
      properties: {
        success: { const: true },
        id: { type: 'string' },
        url: { type: 'string', description: `The ${what}’s status URL.` },
        invalidURLs: { type: 'array', items: { type: 'string' }, description: 'Batch scrape with ignoreInvalidURLs: the URLs left out.' },
      },
      required: ['success', 'id', 'url'],
    },
  }) as const;

export const scrapeV2Route = defineRoute({
  method: 'post',
  path: '/v2/scrape',
  operationId: 'scrapeV2',
  billed: true,
  credits: 1,
  summary: 'Scrape one page (v2)',
  description: 'POST /v1/scrape in the v2 shape: formats may be objects, `onlyMainContent` defaults to true, the document’s `warning` is inside `data`. The same errors as POST /v1/scrape; a body with `alexandria` gets 501.',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'scrape',
  paidAs: 'scrape',
  body: v2ScrapeRequestSchema,
  responses: {
    200: { description: 'The page.', schema: { type: 'object', properties: { success: { const: true }, data: v2DocumentSchema }, required: ['success', 'data'] } },
    404: { description: '`minAge` was given and the page cache has no copy old enough (`no_cached_data`).', schema: errorRef },
    408: { description: 'The scrape did not finish within `timeout`.', schema: errorRef },
    501: { description: 'A hosted-only form of the request (`alexandria`).', schema: errorRef },
    502: { description: 'Every way of fetching the page failed; `error` says what failed.', schema: errorRef },
    503: { description: 'No worker can take the scrape right now. Retry after the Retry-After seconds.', schema: errorRef },
  },
  async handler(ctx, { body }) {
    if (body.alexandria !== undefined) throw new NotSupportedError('The provider exchange (alexandria) is not offered by this server: it is a hosted feature. This server offers scrape, crawl, batch scrape, map and search.');
    const request = asV1<ScrapeRequest>(scrapeRequestSchema, scrapeFromV2(body));
    // The hosted v2 default: a copy up to CACHE_DEFAULT_MAX_AGE_MS old is good enough (README "Page cache").
    request.maxAge ??= ctx.state.deps.config.CACHE_DEFAULT_MAX_AGE_MS;
    const { data, warning } = await runScrape(ctx.state.deps, request, ctx.state.auth!, ctx.state.payment?.workBudgetMs());
    ctx.body = { success: true, data: { ...data, ...(warning ? { warning } : {}) } };
  },
});

export const mapV2Route = defineRoute({
  method: 'post',
  path: '/v2/map',
  operationId: 'mapV2',
  billed: true,
  credits: 1,
  summary: 'List the URLs of a site (v2)',
  description: 'POST /v1/map in the v2 shape: `sitemap` is `include` (default), `skip` or `only`; subdomains are included and query strings dropped unless turned off; each link is `{ url }`.',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'map',
  paidAs: 'map',
  body: v2MapRequestSchema,
  responses: {
    200: {
      description: 'The URLs found.',
      schema: {
        type: 'object',
        properties: { success: { const: true }, links: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } } },
        required: ['success', 'links'],
      },
    },
    408: { description: 'The map did not finish within its timeout (60 s by default).', schema: errorRef },
    502: { description: 'The site could not be read at all; `error` says what failed.', schema: errorRef },
    503: unavailable,
  },
  async handler(ctx, { body }) {
    const options = asV1<MapOptions>(mapRequestSchema, mapFromV2(body));
    const { links } = await runMap(ctx.state.deps, options, ctx.state.payment?.workBudgetMs(), ctx.state.auth?.apiKeyId);
    ctx.body = { success: true, links: links.map((url) => ({ url })) };
  },
});

export const startCrawlV2Route = defineRoute({
  method: 'post',
  path: '/v2/crawl',
  operationId: 'startCrawlV2',
  billed: true,
  idempotencyKey: true,
  summary: 'Start a crawl (v2)',
  description:
    'POST /v1/crawl in the v2 shape: `sitemap` (`include` by default, `skip`, `only`) instead of ignoreSitemap, no path-depth bound (maxDiscoveryDepth bounds link hops), `scrapeOptions` as in POST /v2/scrape. `url` in the answer is the status URL. Poll GET /v2/crawl/{id}.',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'crawl',
  paidAs: 'crawl',
  body: v2CrawlRequestSchema,
  responses: {
    200: started('crawl'),
    408: { description: 'With `prompt`: the LLM did not propose options within 60 s; nothing was started.', schema: errorRef },
    501: { description: 'With `prompt`: no LLM is configured (LLM_BASE_URL, LLM_MODEL).', schema: errorRef },
    502: { description: 'With `prompt`: the LLM failed, or proposed options the crawl schema refuses (`planning_failed`); nothing was started.', schema: errorRef },
    503: unavailable,
  },
  async handler(ctx, { body }) {
    const { prompt, ...given } = body;
    // The request's own problems are a 400 before anything asks the LLM.
    let options = asV1<CrawlOptions>(crawlRequestSchema, crawlFromV2(given));
    if (prompt) {
      // The LLM proposes options, checked by the crawl schema; what the request gives wins.
      const planned = await planCrawlOptions(ctx.state.deps, body.url, prompt, ctx.state.auth?.apiKeyId);
      const request = validateInput('body', v2CrawlRequestSchema, { ...planned, ...explicitFields(ctx.request.body) }) as typeof given;
      options = asV1<CrawlOptions>(crawlRequestSchema, crawlFromV2(request));
    }
    const { id } = await startCrawl(ctx.state.deps, options, caller(ctx));
    ctx.body = { success: true, id, url: jobUrl(ctx.state.deps, 'crawl', id, linkStyle(ctx), '', 'v2') };
  },
});

/** The fields the caller sent, before defaults were filled in (they win over a prompt's proposal). */
function explicitFields(raw: unknown): Record<string, unknown> {
  const { prompt: _prompt, ...sent } = (raw ?? {}) as Record<string, unknown>;
  return sent;
}

export const crawlParamsPreviewV2Route = defineRoute({
  method: 'post',
  path: '/v2/crawl/params-preview',
  operationId: 'crawlParamsPreviewV2',
  summary: 'Crawl options from a prompt (v2)',
  description: 'The LLM proposes crawl options (includePaths, excludePaths, maxDiscoveryDepth, limit, sitemap, crawlEntireDomain, allowSubdomains, allowExternalLinks, ignoreQueryParameters) for `url` from `prompt`; they are checked by the crawl schema before they are returned. Nothing is crawled. POST /v2/crawl with `prompt` does the same and starts the crawl with them (fields given in the request win).',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'crawl',
  paidAs: 'crawl',
  body: crawlPlanRequestSchema,
  responses: {
    200: { description: 'The proposed options, as POST /v2/crawl takes them.', schema: { type: 'object', properties: { success: { const: true }, data: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } }, required: ['success', 'data'] } },
    408: { description: 'The LLM did not answer within 60 s.', schema: errorRef },
    501: { description: 'No LLM is configured (LLM_BASE_URL, LLM_MODEL).', schema: errorRef },
    502: { description: 'The LLM failed, or proposed options the crawl schema refuses (`planning_failed`, with details).', schema: errorRef },
    503: unavailable,
  },
  async handler(ctx, { body }) {
    const options = await planCrawlOptions(ctx.state.deps, body.url, body.prompt, ctx.state.auth?.apiKeyId);
    ctx.body = { success: true, data: { url: body.url, ...options } };
  },
});

export const startBatchScrapeV2Route = defineRoute({
  method: 'post',
  path: '/v2/batch/scrape',
  operationId: 'startBatchScrapeV2',
  billed: true,
  idempotencyKey: true,
  summary: 'Start a batch scrape (v2)',
  description: 'POST /v1/batch/scrape with the scrape options of POST /v2/scrape. Poll GET /v2/batch/scrape/{id}.',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'batchScrape',
  paidAs: 'batchScrape',
  body: v2BatchScrapeRequestSchema,
  responses: { 200: started('batch scrape'), 503: unavailable },
  async handler(ctx, { body }) {
    const options = asV1<BatchScrapeOptions>(batchScrapeRequestSchema, batchFromV2(body));
    ctx.body = await startBatchScrape(ctx.state.deps, options, caller(ctx), linkStyle(ctx), 'v2');
  },
});

export const activeCrawlsV2Route = defineRoute({
  method: 'get',
  path: '/v2/crawl/active',
  operationId: 'activeCrawlsV2',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  paidAs: 'crawlStatus',
  // Registered before /v2/crawl/{id}, which would take `active` for an id.
  readsNoBody: true,
  summary: 'Running crawls (v2)',
  description: `The crawls this API key (or paying wallet) started that are still running, newest first, at most ${ACTIVE_CRAWLS_MAX}: id, \`teamId\` (the key's account; the wallet for x402 callers), seed URL and the crawl's options as validated (v1 names). Batch scrapes are not listed.`,
  responses: {
    200: {
      description: 'The running crawls.',
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          crawls: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, teamId: { type: 'string' }, url: { type: 'string' }, options: { type: 'object' } }, required: ['id', 'teamId', 'url', 'options'] } },
        },
        required: ['success', 'crawls'],
      },
    },
  },
  async handler(ctx: AppContext) {
    const teamId = ctx.state.auth?.accountId ?? ctx.state.auth?.payer ?? '';
    ctx.body = { success: true, crawls: (await activeCrawls(ctx.state.deps, caller(ctx))).map((c) => ({ id: c.id, teamId, url: c.url, options: c.options })) };
  },
});

export const v2Routes = [scrapeV2Route, mapV2Route, crawlParamsPreviewV2Route, startCrawlV2Route, activeCrawlsV2Route, ...jobRoutes('crawl', 'v2'), startBatchScrapeV2Route, ...jobRoutes('batch_scrape', 'v2')];
