/**
 * The playground runs scrape, map and crawl as one of the account's keys, through the very route
 * declarations the API serves (api/routes/): the same schema, rate limit, operation and answer, and
 * the request lands in the activity log like any other.
 */
import { billingSettings } from '../../../core/billing-settings.js';
import { requireCredits } from '../../billing/credits.js';
import { enforceRateLimit } from '../../middleware/rate-limit.js';
import { validateInput } from '../../middleware/validate.js';
import type { RateLimiter } from '../../rate-limit.js';
import type { AppContext, RouteSpec } from '../../route.js';
import { startCrawlRoute } from '../../routes/crawl.js';
import { mapRoute } from '../../routes/map.js';
import { scrapeRoute } from '../../routes/scrape.js';
import { logRequest } from '../../activity-log.js';
import { dashboardRoute } from '../define.js';
import { ownActiveKey } from './keys.js';

const body = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKeyId', 'request'],
  properties: { apiKeyId: { type: 'string', minLength: 1, maxLength: 100 }, request: { type: 'object' } },
} as const;

function playground(path: string, route: RouteSpec, limiter: RateLimiter) {
  return dashboardRoute({
    method: 'post',
    path,
    access: 'member',
    body,
    async handler(ctx, { body: input, session }) {
      const apiKeyId = await ownActiveKey(ctx, session, input.apiKeyId);
      ctx.state.auth = { apiKeyId, accountId: session.account.id };
      const started = performance.now();
      let status = 500;
      try {
        if (route.rateLimit) await enforceRateLimit(ctx, limiter, route.rateLimit);
        const request = validateInput('body', route.body!, input.request);
        const billing = billingSettings(ctx.state.deps.config);
        if (route.billed && billing) await requireCredits(ctx.state.deps, billing, session.account.id);
        await route.handler(ctx as AppContext, { body: request, query: undefined, params: undefined } as never);
        status = ctx.status;
        return ctx.body;
      } catch (err) {
        status = (err as { status?: number }).status ?? 500;
        throw err;
      } finally {
        logRequest(ctx, { apiKeyId, accountId: session.account.id }, route, status, performance.now() - started);
      }
    },
  });
}

export const playgroundRoutes = (limiter: RateLimiter) => [
  playground('/playground/scrape', scrapeRoute, limiter),
  playground('/playground/map', mapRoute, limiter),
  playground('/playground/crawl', startCrawlRoute, limiter),
];
