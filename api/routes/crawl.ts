/** POST /v1/crawl (spec: "Endpoints"); its status, cancel and errors are in ./jobs.ts. */
import { crawlRequestSchema } from '../../core/schemas/crawl.js';
import { invalidBody } from '../../core/errors.js';
import { startCrawl } from '../start-crawl.js';
import { caller, isOfficialSdk } from '../callers.js';
import { defineRoute } from '../route.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;
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
