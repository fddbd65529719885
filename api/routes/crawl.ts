/** POST /v1/crawl, GET /v1/crawl/{id}, DELETE /v1/crawl/{id} (and …/cancel), GET|DELETE /v1/crawl/{id}/errors (spec: "Endpoints"). */
import { crawlIdParams, crawlRequestSchema, crawlStatusQuery, crawlStatusSchema, jobErrorsSchema } from '../../core/schemas/crawl.js';
import { invalidBody } from '../../core/errors.js';
import { startCrawl } from '../crawl.js';
import { cancelJob, isOfficialSdk, jobErrors, jobStatus, linkStyleFor, type Caller } from '../jobs.js';
import { defineRoute, type AppContext } from '../route.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;
/** The job's owner: an API key, or the paying wallet (x402). A paid job is charged before it starts, a paid cancel before it cancels. */
export function caller(ctx: AppContext): Caller {
  const { auth, payment } = ctx.state;
  const idempotencyKey = ctx.get('x-idempotency-key');
  return { apiKeyId: auth?.apiKeyId, payer: auth?.payer, ...(payment ? { charge: () => payment.chargeNow() } : {}), ...(ctx.headers['x-idempotency-key'] !== undefined ? { idempotencyKey } : {}) };
}

/** How this request gets `next` links (README "Paging"). */
export const linkStyle = (ctx: AppContext) => linkStyleFor(ctx.get('user-agent'), ctx.state.deps.config.NEXT_URL_STYLE);

export const startCrawlRoute = defineRoute({
  method: 'post',
  path: '/v1/crawl',
  operationId: 'startCrawl',
  billed: true,
  idempotencyKey: true,
  summary: 'Start a crawl',
  description: 'Returns at once with the crawl id; poll GET /v1/crawl/{id}. Invalid path patterns get 400 naming `includePaths[i]` / `excludePaths[i]`.',
  tag: 'Crawl',
  auth: 'apiKey',
  rateLimit: 'crawl',
  paidAs: 'crawl',
  body: crawlRequestSchema,
  responses: {
    200: {
      description: 'The crawl was created and is running.',
      schema: { type: 'object', properties: { success: { const: true }, id: { type: 'string' }, url: { type: 'string' } }, required: ['success', 'id', 'url'] },
    },
    503: { description: 'The workers (Temporal) cannot be reached; nothing was started.', schema: errorRef },
  },
  async handler(ctx, { body }) {
    // The spec refuses `timeout` inside crawl scrapeOptions; the official Python SDK always sends
    // it, so the SDKs keep working (it is then each page's budget) and every other client gets the 400.
    if (body.scrapeOptions.timeout !== undefined && !isOfficialSdk(ctx.get('user-agent'))) {
      const message = 'is not accepted inside crawl scrapeOptions: the pages of a crawl have the server\'s SCRAPE_TIMEOUT_MS';
      throw invalidBody([{ field: 'scrapeOptions.timeout', message }]);
    }
    ctx.body = await startCrawl(ctx.state.deps, body, caller(ctx));
  },
});

export const crawlStatusRoute = defineRoute({
  method: 'get',
  path: '/v1/crawl/:id',
  operationId: 'getCrawl',
  summary: 'Crawl status and documents',
  description: 'Read from PostgreSQL. `next` is present only while more documents exist beyond this page. A batch scrape’s id works here too.',
  tag: 'Crawl',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  paidAs: 'crawlStatus',
  params: crawlIdParams,
  query: crawlStatusQuery,
  responses: {
    200: { description: 'Status, counters and one page of documents.', schema: crawlStatusSchema },
    404: { description: 'Unknown or expired crawl id.', schema: errorRef },
  },
  async handler(ctx, { params, query }) {
    ctx.body = await jobStatus(ctx.state.deps, params.id, caller(ctx), { offset: query.offset ?? query.skip ?? 0, limit: query.limit, path: 'crawl', style: linkStyle(ctx) });
  },
});

const cancelSpec = {
  summary: 'Cancel a crawl',
  description: 'The status is `cancelled` at once; queued pages are dropped and no new page starts. Cancelling an ended crawl changes nothing.',
  tag: 'Crawl',
  auth: 'apiKey',
  rateLimit: 'cancel',
  paidAs: 'cancel',
  params: crawlIdParams,
  responses: {
    200: {
      description: 'Cancelled (or already ended).',
      schema: { type: 'object', properties: { success: { const: true }, message: { type: 'string' } }, required: ['success', 'message'] },
    },
    404: { description: 'Unknown or expired crawl id.', schema: errorRef },
  },
} as const;

export const cancelCrawlRoute = defineRoute({
  ...cancelSpec,
  method: 'delete',
  path: '/v1/crawl/:id',
  operationId: 'cancelCrawl',
  async handler(ctx, { params }) {
    const { success, message } = await cancelJob(ctx.state.deps, params.id, caller(ctx));
    ctx.body = { success, message };
  },
});

export const cancelCrawlAliasRoute = defineRoute({
  ...cancelSpec,
  method: 'delete',
  path: '/v1/crawl/:id/cancel',
  operationId: 'cancelCrawlAlias',
  async handler(ctx, { params }) {
    const { success, message } = await cancelJob(ctx.state.deps, params.id, caller(ctx));
    ctx.body = { success, message };
  },
});

const errorsSpec = {
  summary: 'Pages of a crawl that failed',
  description: 'Each failed page with its error and code, and the URLs robots.txt kept the crawl from. Also answered to DELETE, which is what the JS SDK sends: it cancels nothing.',
  tag: 'Crawl',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  paidAs: 'crawlStatus',
  params: crawlIdParams,
  responses: {
    200: { description: 'The failures so far.', schema: jobErrorsSchema },
    404: { description: 'Unknown or expired crawl id.', schema: errorRef },
  },
} as const;

export const crawlErrorsRoute = defineRoute({
  ...errorsSpec,
  method: 'get',
  path: '/v1/crawl/:id/errors',
  operationId: 'getCrawlErrors',
  async handler(ctx, { params }) {
    ctx.body = await jobErrors(ctx.state.deps, params.id, caller(ctx));
  },
});

export const crawlErrorsDeleteRoute = defineRoute({
  ...errorsSpec,
  method: 'delete',
  path: '/v1/crawl/:id/errors',
  operationId: 'getCrawlErrorsByDelete',
  async handler(ctx, { params }) {
    ctx.body = await jobErrors(ctx.state.deps, params.id, caller(ctx));
  },
});
