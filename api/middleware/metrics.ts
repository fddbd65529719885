/**
 * Counts every answered request and its latency by method, route pattern and status
 * (telemetry/metrics.ts). The route is the declared pattern (`/v1/crawl/:id`), never the raw path,
 * so ids and probes of random paths do not make new series; the dashboard is one route.
 */
import type { Context, Next } from 'koa';
import { httpDuration, httpRequests, since } from '../../telemetry/metrics.js';

function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.path === '/dashboard' || ctx.path.startsWith('/dashboard/')) return '/dashboard';
  return 'unmatched';
}

export async function countRequests(ctx: Context, next: Next): Promise<void> {
  const start = performance.now();
  try {
    await next();
  } finally {
    // After the error middleware: ctx.status is what the caller gets. A thrown error that escaped it is a 500.
    const labels = { method: ctx.method, route: routeOf(ctx), status: String(ctx.status) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, since(start));
  }
}
