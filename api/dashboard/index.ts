/**
 * Everything under /dashboard: the JSON endpoints the dashboard calls (/dashboard/api/..., cookie
 * sessions, CSRF, CORS with credentials for the origins in CORS_ORIGIN) and the built app. Mounted
 * by api/app.ts ahead of the API's own CORS, which does not share credentials.
 */
import cors from '@koa/cors';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { NotFoundError } from '../../core/errors.js';
import type { ApiDeps } from '../deps.js';
import { jsonBody } from '../middleware/body.js';
import type { RateLimiter } from '../rate-limit.js';
import type { AppContext, AppState } from '../route.js';
import { dashboardRoute, registerDashboardRoutes, type DashboardRoute } from './define.js';
import { checkOrigin, dashboardOrigins, isStateChanging } from './guard.js';
import { dashboardDocument, type DashboardDocument } from './openapi.js';
import { authRoutes } from './routes/auth.js';
import { billingRoutes, type Billing } from './routes/billing.js';
import { cspReport } from './routes/csp-report.js';
import { jobRoutes } from './routes/jobs.js';
import { keyRoutes } from './routes/keys.js';
import { monitorRoutes } from './routes/monitors.js';
import { registerOidc } from './routes/oidc.js';
import { playgroundRoutes } from './routes/playground.js';
import { teamRoutes } from './routes/team.js';
import { usageRoutes } from './routes/usage.js';
import { webhookSecretRoutes } from './routes/webhook-secret.js';
import { securityHeaders, serveDashboard } from './static.js';

/** Every JSON endpoint of the dashboard below /dashboard/api (OpenID Connect's redirects aside), and its OpenAPI document. */
export function dashboardRoutes(limiter: RateLimiter, billing?: Billing): DashboardRoute[] {
  const routes = [...authRoutes(limiter), ...keyRoutes, ...webhookSecretRoutes, ...jobRoutes, ...monitorRoutes, ...playgroundRoutes(limiter, billing?.settings), ...usageRoutes, ...teamRoutes, ...billingRoutes(billing)];
  let document: DashboardDocument | undefined;
  const all: DashboardRoute[] = [...routes, documentRoute(() => (document ??= dashboardDocument(all)))];
  return all;
}

/** GET /openapi.json: the dashboard's endpoints as an OpenAPI 3.1 document, for anyone (it holds no account data). */
function documentRoute(document: () => DashboardDocument): DashboardRoute {
  return dashboardRoute({
    method: 'get',
    path: '/openapi.json',
    access: 'public',
    response: { type: 'object' },
    handler: async () => document(),
  });
}

export function dashboard(deps: ApiDeps, limiter: RateLimiter, billing?: Billing): Middleware<AppState> {
  const origins = dashboardOrigins(deps.config);
  const api = new Router<AppState>({ prefix: '/dashboard/api' });
  registerOidc(api);
  registerDashboardRoutes(api, dashboardRoutes(limiter, billing), origins);
  const apiStack = compose<Parameters<Middleware<AppState>>[0]>([
    cors({ origin: (ctx) => (origins.has(ctx.get('origin')) ? ctx.get('origin') : ''), credentials: true, allowHeaders: ['Content-Type', 'X-CSRF-Token'], exposeHeaders: ['X-Request-Id', 'Retry-After'], maxAge: 600 }),
    ...jsonBody(deps.config.API_BODY_LIMIT_BYTES),
    api.routes(),
    api.allowedMethods(),
  ] as Middleware<AppState>[]);
  const report = cspReport(deps.log);
  const app = serveDashboard();
  const headers = securityHeaders();
  return async (ctx, next) => {
    if (ctx.path !== '/dashboard' && !ctx.path.startsWith('/dashboard/')) return next();
    return headers(ctx, async () => {
      // Browsers post violation reports as application/csp-report, which the JSON body parser refuses.
      if (ctx.path === '/dashboard/api/csp-report' && ctx.method === 'POST') return report(ctx, next);
      if (ctx.path.startsWith('/dashboard/api/') || ctx.path === '/dashboard/api') {
        // Before the body is read: a cross-origin form post is refused as such, not as a wrong content type.
        if (isStateChanging(ctx.method)) checkOrigin(ctx as unknown as AppContext, origins);
        await apiStack(ctx, async () => undefined);
        if (ctx.status === 404 && ctx.body === undefined) throw new NotFoundError(`No dashboard endpoint ${ctx.method} ${ctx.path}.`);
        return;
      }
      await app(ctx, next);
    });
  };
}
