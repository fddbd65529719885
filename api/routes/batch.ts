/** POST /v1/batch/scrape, GET and DELETE /v1/batch/scrape/{id}, GET|DELETE …/errors: the hosted v1 API's batch scrape, which the official SDKs call. */
import { batchIdParams, batchScrapeRequestSchema } from '../../core/schemas/batch.js';
import { crawlStatusQuery, crawlStatusSchema, jobErrorsSchema } from '../../core/schemas/crawl.js';
import { startBatchScrape } from '../batch.js';
import { cancelJob, jobErrors, jobStatus } from '../jobs.js';
import { defineRoute } from '../route.js';
import { caller, linkStyle } from './crawl.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;
const notFound = { description: 'Unknown or expired batch id.', schema: errorRef } as const;

export const startBatchScrapeRoute = defineRoute({
  method: 'post',
  path: '/v1/batch/scrape',
  operationId: 'startBatchScrape',
  billed: true,
  idempotencyKey: true,
  summary: 'Start a batch scrape',
  description:
    'Scrapes every URL with the same options, as one durable job (a crawl without discovery); returns at once. Poll GET /v1/batch/scrape/{id}. An invalid URL is a 400 naming `urls[i]`, unless ignoreInvalidURLs lists it in `invalidURLs`.',
  tag: 'Batch scrape',
  auth: 'apiKey',
  rateLimit: 'batchScrape',
  paidAs: 'batchScrape',
  body: batchScrapeRequestSchema,
  responses: {
    200: {
      description: 'The batch was created and is running.',
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          id: { type: 'string' },
          url: { type: 'string', description: 'The batch’s status URL.' },
          invalidURLs: { type: 'array', items: { type: 'string' }, description: 'With ignoreInvalidURLs: the URLs left out.' },
        },
        required: ['success', 'id', 'url'],
      },
    },
    503: { description: 'The workers (Temporal) cannot be reached; nothing was started.', schema: errorRef },
  },
  async handler(ctx, { body }) {
    ctx.body = await startBatchScrape(ctx.state.deps, body, caller(ctx), linkStyle(ctx));
  },
});

export const batchScrapeStatusRoute = defineRoute({
  method: 'get',
  path: '/v1/batch/scrape/:id',
  operationId: 'getBatchScrape',
  summary: 'Batch scrape status and documents',
  description: 'The same shape as a crawl’s status; `next` is present only while more documents exist beyond this page.',
  tag: 'Batch scrape',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  paidAs: 'crawlStatus',
  params: batchIdParams,
  query: crawlStatusQuery,
  responses: { 200: { description: 'Status, counters and one page of documents.', schema: crawlStatusSchema }, 404: notFound },
  async handler(ctx, { params, query }) {
    ctx.body = await jobStatus(ctx.state.deps, params.id, caller(ctx), { offset: query.offset ?? query.skip ?? 0, limit: query.limit, path: 'batch_scrape', style: linkStyle(ctx) });
  },
});

export const cancelBatchScrapeRoute = defineRoute({
  method: 'delete',
  path: '/v1/batch/scrape/:id',
  operationId: 'cancelBatchScrape',
  summary: 'Cancel a batch scrape',
  description: 'The status is `cancelled` at once; queued pages are dropped and no new page starts. Cancelling an ended batch changes nothing.',
  tag: 'Batch scrape',
  auth: 'apiKey',
  rateLimit: 'cancel',
  paidAs: 'cancel',
  params: batchIdParams,
  responses: {
    200: {
      description: 'Cancelled (or already ended).',
      schema: { type: 'object', properties: { success: { const: true }, message: { type: 'string' } }, required: ['success', 'message'] },
    },
    404: notFound,
  },
  async handler(ctx, { params }) {
    const { success, message } = await cancelJob(ctx.state.deps, params.id, caller(ctx), 'batch_scrape');
    ctx.body = { success, message };
  },
});

const errorsSpec = {
  summary: 'Pages of a batch scrape that failed',
  description: 'Each failed page with its error and code. Also answered to DELETE, which is what the JS SDK sends: it cancels nothing.',
  tag: 'Batch scrape',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  paidAs: 'crawlStatus',
  params: batchIdParams,
  responses: { 200: { description: 'The failures so far.', schema: jobErrorsSchema }, 404: notFound },
} as const;

export const batchScrapeErrorsRoute = defineRoute({
  ...errorsSpec,
  method: 'get',
  path: '/v1/batch/scrape/:id/errors',
  operationId: 'getBatchScrapeErrors',
  async handler(ctx, { params }) {
    ctx.body = await jobErrors(ctx.state.deps, params.id, caller(ctx), 'batch_scrape');
  },
});

export const batchScrapeErrorsDeleteRoute = defineRoute({
  ...errorsSpec,
  method: 'delete',
  path: '/v1/batch/scrape/:id/errors',
  operationId: 'getBatchScrapeErrorsByDelete',
  async handler(ctx, { params }) {
    ctx.body = await jobErrors(ctx.state.deps, params.id, caller(ctx), 'batch_scrape');
  },
});
