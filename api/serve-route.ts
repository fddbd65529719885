/**
 * What every call of a declared route goes through once its caller is known, whether it came to
 * the route itself (api/app.ts) or through the dashboard's playground: the rate limit (before
 * validation: invalid requests count too), validation, the credits gate (billing: a credit held while the handler runs), the handler,
 * and the activity log entry.
 */
import type { BillingSettings } from '../core/billing-settings.js';
import { logRequest } from './activity-log.js';
import { holdCredit, releaseCredit } from './billing/credits.js';
import { enforceRateLimit } from './middleware/rate-limit.js';
import { validateInput } from './middleware/validate.js';
import type { RateLimiter } from './rate-limit.js';
import type { AppContext, RouteSpec } from './route.js';

export interface RouteInput {
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

/** Requests made with a key go to the account's activity log. */
function logged(ctx: AppContext, route: RouteSpec, status: number, started: number): void {
  const auth = ctx.state.auth;
  if (auth?.apiKeyId && auth.accountId) logRequest(ctx, { apiKeyId: auth.apiKeyId, accountId: auth.accountId }, route, status, performance.now() - started);
}

export async function serveRoute(ctx: AppContext, route: RouteSpec, limiter: RateLimiter, billing: BillingSettings | undefined, input: RouteInput): Promise<void> {
  const started = performance.now();
  try {
    if (route.rateLimit) await enforceRateLimit(ctx, limiter, route.rateLimit, route.units?.(input.body) ?? 1);
    // A copy: validation fills in defaults, and a handler may need what the caller actually sent (a crawl prompt's proposal yields to it).
    const body = route.body ? validateInput('body', route.body, structuredClone(input.body ?? {})) : undefined;
    const query = route.query ? validateInput('query', route.query, input.query) : undefined;
    const params = route.params ? validateInput('params', route.params, input.params) : undefined;
    const accountId = ctx.state.auth?.accountId;
    const hold = route.billed && billing && accountId ? await holdCredit(ctx.state.deps, billing, accountId) : undefined;
    try {
      await route.handler(ctx, { body, query, params } as never);
    } finally {
      if (hold) await releaseCredit(ctx.state.deps, hold);
    }
  } catch (err) {
    logged(ctx, route, (err as { status?: number }).status ?? 500, started);
    throw err;
  }
  logged(ctx, route, ctx.status, started);
}
