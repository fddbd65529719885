/** POST /v1/map (spec: "POST /v1/map"). */
import { mapRequestSchema } from '../../core/schemas/map.js';
import { runMap } from '../run-map.js';
import { defineRoute } from '../route.js';

export const mapRoute = defineRoute({
  method: 'post',
  path: '/v1/map',
  operationId: 'map',
  billed: true,
  credits: 1,
  summary: 'List the URLs of a site',
  description:
    'URLs from robots.txt sitemaps, /sitemap.xml and the seed page’s links, without page content; filtered like a crawl, ranked by `search`, at most `limit`.',
  tag: 'Map',
  auth: 'apiKey',
  rateLimit: 'map',
  paidAs: 'map',
  body: mapRequestSchema,
  responses: {
    200: {
      description: 'The URLs found.',
      schema: {
        type: 'object',
        properties: { success: { const: true }, links: { type: 'array', items: { type: 'string' } }, scrape_id: { type: 'string' } },
        required: ['success', 'links', 'scrape_id'],
      },
    },
    408: { description: 'The map did not finish within its timeout (60 s by default).', schema: { $ref: '#/components/schemas/Error' } },
    502: { description: 'The site could not be read at all; `error` says what failed.', schema: { $ref: '#/components/schemas/Error' } },
    503: { description: 'The workers (Temporal) cannot be reached.', schema: { $ref: '#/components/schemas/Error' } },
  },
  async handler(ctx, { body }) {
    ctx.body = await runMap(ctx.state.deps, body, ctx.state.payment?.workBudgetMs(), ctx.state.auth?.apiKeyId);
  },
});
