/** POST /v1/scrape (spec: "POST /v1/scrape"). */
import { scrapeRequestSchema } from '../../core/schemas/scrape.js';
import { defineRoute } from '../route.js';
import { runScrape, type ScrapeRequest } from '../run-scrape.js';
import { documentSchema } from '../../core/schemas/document.js';

export const scrapeRoute = defineRoute({
  method: 'post',
  path: '/v1/scrape',
  operationId: 'scrape',
  billed: true,
  credits: 1,
  summary: 'Scrape one page',
  description:
    'Fetches one URL and returns the requested formats. `waitFor` must be at most half of `timeout`. A target refused by the URL safety policy gets 400 `url_not_allowed`; a browser action that fails gets 400 `action_failed` naming it (`actions[i]`); a page that no engine could fetch gets 502; running out of `timeout` gets 408.',
  tag: 'Scrape',
  auth: 'apiKey',
  rateLimit: 'scrape',
  paidAs: 'scrape',
  body: scrapeRequestSchema,
  responses: {
    200: {
      description: 'The page. `warning` is set when the target answered non-2xx, includeTags matched nothing, or extraction or the summary failed.',
      schema: {
        type: 'object',
        properties: { success: { const: true }, warning: { type: 'string' }, data: documentSchema, scrape_id: { type: 'string' } },
        required: ['success', 'data', 'scrape_id'],
      },
    },
    404: { description: '`minAge` was given and the page cache has no copy old enough (`no_cached_data`).', schema: { $ref: '#/components/schemas/Error' } },
    408: { description: 'The scrape did not finish within `timeout`.', schema: { $ref: '#/components/schemas/Error' } },
    502: { description: 'Every way of fetching the page failed; `error` says what failed.', schema: { $ref: '#/components/schemas/Error' } },
    503: { description: 'No worker can take the scrape right now (none reachable, or Redis, where they announce themselves, cannot be reached), or its webhook deliveries could not be scheduled (Temporal). Retry after the Retry-After seconds.', schema: { $ref: '#/components/schemas/Error' } },
  },
  async handler(ctx, { body }) {
    ctx.body = await runScrape(ctx.state.deps, body as ScrapeRequest, ctx.state.auth!, ctx.state.payment?.workBudgetMs());
  },
});
