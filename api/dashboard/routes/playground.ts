/**
 * The playground runs scrape, map and crawl as one of the account's keys, through the very route
 * declarations the API serves (api/routes/) and the same serveRoute: the same rate limit, schema,
 * credits gate, operation, answer and activity log entry. So the answer is the API route's, whose
 * schema is in its own declaration; here it is only "an object".
 */
import type { BillingSettings } from '../../../core/billing-settings.js';
import type { RateLimiter } from '../../rate-limit.js';
import type { RouteSpec } from '../../route.js';
import { startCrawlRoute } from '../../routes/crawl.js';
import { mapRoute } from '../../routes/map.js';
import { scrapeRoute } from '../../routes/scrape.js';
import { serveRoute } from '../../serve-route.js';
import { dashboardRoute } from '../define.js';
import { ownActiveKey } from './keys.js';

const body = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKeyId', 'request'],
  properties: { apiKeyId: { type: 'string', minLength: 1, maxLength: 100 }, request: { type: 'object' } },
} as const;

function playground(path: string, route: RouteSpec, limiter: RateLimiter, billing: BillingSettings | undefined) {
  return dashboardRoute({
    method: 'post',
    path,
    access: 'member',
    body,
    response: { type: 'object' },
    async handler(ctx, { body: input, session }) {
      ctx.state.auth = { apiKeyId: await ownActiveKey(ctx, session, input.apiKeyId), accountId: session.account.id };
      await serveRoute(ctx, route, limiter, billing, { body: input.request });
      return ctx.body as Record<string, unknown>;
    },
  });
}

export const playgroundRoutes = (limiter: RateLimiter, billing: BillingSettings | undefined) => [
  playground('/playground/scrape', scrapeRoute, limiter, billing),
  playground('/playground/map', mapRoute, limiter, billing),
  playground('/playground/crawl', startCrawlRoute, limiter, billing),
];
