/** POST /v1/batch/scrape: the hosted v1 API's batch scrape, which the official SDKs call; its status, cancel and errors are in ./jobs.ts. */
import { batchScrapeRequestSchema } from '../../core/schemas/batch.js';
import { startBatchScrape } from '../start-batch-scrape.js';
import { caller, linkStyle } from '../callers.js';
import { defineRoute } from '../route.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;

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
