/**
 * The Koa application: request id, errors, CORS, JSON body, then the declared routes, each wrapped
 * with authentication, rate limiting and validation as its declaration says.
 */
import { randomUUID } from 'node:crypto';
import cors from '@koa/cors';
import { Router } from '@koa/router';
import Koa from 'koa';
import { MethodNotAllowedError, NotSupportedError } from '../core/errors.js';
import { x402Settings } from '../core/x402-settings.js';
import type { ApiDeps } from './deps.js';
import { billingSettings, type BillingSettings } from '../core/billing-settings.js';
import { polarProvider } from './billing/polar.js';
import { billingWebhook } from './billing/webhook.js';
import { dashboard } from './dashboard/index.js';
import { authenticate } from './middleware/auth.js';
import { clientAddress, trustProxyOf } from './client-address.js';
import { jsonBody } from './middleware/body.js';
import { errorMiddleware } from './middleware/errors.js';
import { traceRequests } from './middleware/trace.js';
import { precompile } from './middleware/validate.js';
import { buildOpenApi, type OpenApiDocument } from './openapi.js';
import { RateLimiter } from './rate-limit.js';
import { serveRoute } from './serve-route.js';
import type { AppContext, AppState, RouteSpec } from './route.js';
import { apiRoutes } from './routes/index.js';
import { countRequests } from './middleware/metrics.js';
import { referenceRoute } from './routes/reference.js';
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE, PAYMENT_SIGNATURE, X402Gateway } from './x402/gateway.js';
import { acceptPayment } from './x402/payment.js';

export const API_VERSION = '0.1.0';

function allowedOrigins(setting: string): (ctx: Koa.Context) => string {
  const list = setting.split(',').map((s) => s.trim()).filter(Boolean);
  const any = list.includes('*');
  // Returning '' leaves the CORS headers off, so browsers refuse the response.
  return (ctx) => {
    const origin = ctx.get('origin');
    return any ? '*' : list.includes(origin) ? origin : '';
  };
}

/** `body`: the JSON body parser, before authentication and the handler (none for routes that read no body). */
function register(router: Router<AppState>, route: RouteSpec, limiter: RateLimiter, x402: X402Gateway | undefined, billing: BillingSettings | undefined, body: Koa.Middleware<AppState>[]): void {
  if (route.rateLimit && route.auth !== 'apiKey') throw new Error(`Route ${route.operationId}: a rate limit needs auth 'apiKey' (it counts per caller)`);
  if (route.body) precompile(route.body, 'body');
  if (route.query) precompile(route.query, 'query');
  if (route.params) precompile(route.params, 'params');
  router[route.method](route.path, ...body, async (ctx) => {
    const c = ctx as unknown as AppContext;
    // A caller with an Authorization header is an API-key caller (never asked to pay); without one, x402 may pay.
    const payment = x402 && route.paidAs && !ctx.get('authorization') ? await acceptPayment(c, x402, { operation: route.paidAs, units: route.units?.(ctx.request.body) ?? 1 }) : undefined;
    if (payment) c.state.auth = { payer: payment.payer };
    else if (route.auth === 'apiKey') await authenticate(c);
    c.state.payment = payment;
    try {
      // After authentication: limits and credits are per caller.
      await serveRoute(c, route, limiter, billing, { body: ctx.request.body, query: { ...ctx.query }, params: { ...ctx.params } });
    } catch (err) {
      await payment?.release(err);
      throw err;
    }
    // Served: charge for it. If settlement fails, the error replaces the result (nothing unpaid leaves).
    await payment?.chargeNow();
  });
}

export function createApp(deps: ApiDeps, routes: readonly RouteSpec[] = apiRoutes): { app: Koa<AppState>; router: Router<AppState> } {
  const app = new Koa<AppState>({ proxy: false });
  const settings = x402Settings(deps.config);
  const x402 = settings ? new X402Gateway(settings, deps.log) : undefined;
  const billing = billingSettings(deps.config);
  const billingProvider = billing ? polarProvider(billing) : undefined;
  let doc: OpenApiDocument | undefined;
  const reference = referenceRoute(() => (doc ??= buildOpenApi(all, deps.config.AUTH_URL, API_VERSION, settings, billing !== undefined)));
  const all = [...routes, reference];

  const trust = trustProxyOf(deps.config.TRUST_PROXY);
  app.use(countRequests);
  // Only with tracing on (README "Traces"): otherwise no middleware at all.
  if (deps.tracing.tracer) app.use(traceRequests(deps.tracing));
  app.use(async (ctx, next) => {
    ctx.state.deps = deps;
    ctx.state.requestId = randomUUID();
    ctx.state.clientIp = clientAddress(ctx.socket.remoteAddress ?? '', ctx.get('x-forwarded-for') || undefined, trust);
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(errorMiddleware(deps.config.API_BODY_LIMIT_BYTES));
  // The SDKs' watchers (crawlUrlAndWatch, crawl_url_and_watch) ask to upgrade to a WebSocket: not offered.
  app.use(async (ctx, next) => {
    if (ctx.get('upgrade').toLowerCase() !== 'websocket') return next();
    throw new NotSupportedError('Watching a job over a WebSocket is not offered by this server: poll GET /v1|v2/crawl/{id} (or /v1|v2/batch/scrape/{id}) instead, or give the job a webhook.');
  });
  const { config } = deps;
  const limiter = new RateLimiter({
    redis: deps.redis,
    log: deps.log,
    limits: {
      scrape: config.RATE_LIMIT_SCRAPE_PER_MIN,
      crawl: config.RATE_LIMIT_CRAWL_PER_MIN,
      batchScrape: config.RATE_LIMIT_BATCH_SCRAPE_PER_MIN,
      crawlStatus: config.RATE_LIMIT_CRAWL_STATUS_PER_MIN,
      cancel: config.RATE_LIMIT_CANCEL_PER_MIN,
      map: config.RATE_LIMIT_MAP_PER_MIN,
      monitor: config.RATE_LIMIT_MONITOR_PER_MIN,
      signIn: config.SIGN_IN_RATE_LIMIT_PER_MIN,
      signInAccount: Math.max(1, Math.floor(config.SIGN_IN_RATE_LIMIT_PER_MIN / 2)),
    },
  });
  // The dashboard (its JSON endpoints and its files) answers everything under /dashboard, with its own CORS.
  app.use(dashboard(deps, limiter, billing && billingProvider ? { settings: billing, provider: billingProvider } : undefined));
  // Before the JSON body parser: the signature covers the raw body.
  if (billing && billingProvider) app.use(billingWebhook(billing, billingProvider));
  app.use(cors({ origin: allowedOrigins(deps.config.CORS_ORIGIN), allowHeaders: ['Authorization', 'Content-Type', ...(x402 ? [PAYMENT_SIGNATURE] : [])], exposeHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', ...(x402 ? [PAYMENT_REQUIRED, PAYMENT_RESPONSE] : [])], maxAge: 600 }));
  // A path without parameters answers its own methods only: `PUT /v2/crawl/active` is a 405 naming GET, not `/v2/crawl/{id}`'s business.
  const fixed = new Map<string, string[]>();
  for (const route of all) if (!route.path.includes(':')) fixed.set(route.path, [...(fixed.get(route.path) ?? []), route.method.toUpperCase()]);
  app.use(async (ctx, next) => {
    const methods = fixed.get(ctx.path);
    if (!methods || methods.includes(ctx.method) || (ctx.method === 'HEAD' && methods.includes('GET'))) return next();
    const allowed = methods.includes('GET') ? ['HEAD', ...methods] : methods;
    if (ctx.method !== 'OPTIONS') throw new MethodNotAllowedError(ctx.method, ctx.path, allowed);
    // As the router answers OPTIONS elsewhere (CORS preflights were answered above).
    ctx.set('Allow', allowed.join(', '));
    ctx.status = 200;
    ctx.body = '';
  });
  const body = jsonBody(deps.config.API_BODY_LIMIT_BYTES);
  const router = new Router<AppState>();
  // Routes that read no body first: they answer before any other route matches (`/v2/crawl/active` is not a crawl id).
  for (const route of [...all.filter((r) => r.readsNoBody), ...all.filter((r) => !r.readsNoBody)]) register(router, route, limiter, x402, billing, route.readsNoBody ? [] : body);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, router };
}
