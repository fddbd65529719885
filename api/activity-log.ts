/**
 * The activity log behind the dashboard: one row per API request made with a key (route pattern,
 * status, duration, credits), written after the answer and never in its way: a failed write is
 * logged and forgotten. Kept ACTIVITY_RETENTION_DAYS (the expire-data Schedule deletes older rows).
 */
import type { AppContext, RouteSpec } from './route.js';

export function logRequest(ctx: AppContext, auth: { apiKeyId: string; accountId: string }, route: Pick<RouteSpec, 'method' | 'path' | 'credits'>, status: number, durationMs: number): void {
  const { prisma, log } = ctx.state.deps;
  const credits = status >= 200 && status < 300 ? (route.credits ?? 0) : 0;
  prisma.requestLog
    .create({ data: { accountId: auth.accountId, apiKeyId: auth.apiKeyId, method: route.method.toUpperCase(), path: route.path, status, durationMs: Math.round(durationMs), credits } })
    .catch((err: Error) => log.warn('activity log write failed', { error: err.message }));
}
