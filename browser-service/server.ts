/**
 * The browser service's HTTP face: `POST /render` (bearer BROWSER_ENGINE_TOKEN when set),
 * `GET /health` and `GET /metrics` (bearer METRICS_TOKEN when set). Stateless: any replica behind
 * a load balancer can take any request.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { bodyParser } from '@koa/bodyparser';
import { Router } from '@koa/router';
import { Ajv } from 'ajv';
import Koa from 'koa';
import { RenderError, renderFailureStatus, renderRequestSchema, type RenderRequest, type RenderResponse } from '../browser/contract.js';
import type { BrowserPool } from '../browser/pool.js';
import type { ProxyPools } from '../core/proxy-pools.js';
import { renderPage } from '../browser/render.js';
import { METRICS_CONTENT_TYPE, metricsAllowed, metricsText } from '../telemetry/metrics.js';


const validate = new Ajv({ allErrors: true }).compile(renderRequestSchema);

/** Compare digests, so neither content nor length of the token leaks through timing. */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function createBrowserApp(options: { pool: BrowserPool; token?: string; metricsToken?: string; isDraining: () => boolean; proxies?: ProxyPools }) {
  const app = new Koa();
  const router = new Router();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const e = err as { status?: number; message?: string };
      ctx.status = e.status && e.status < 500 ? e.status : 500;
      ctx.body = { success: false, error: ctx.status < 500 ? e.message : 'Internal error in the browser service', code: ctx.status === 413 ? 'payload_too_large' : 'error' };
    }
  });
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '8mb' }));

  router.get('/health', (ctx) => {
    ctx.status = options.isDraining() ? 503 : 200;
    ctx.body = { success: !options.isDraining(), status: options.isDraining() ? 'draining' : 'ok', pool: options.pool.stats() };
  });

  router.get('/metrics', async (ctx) => {
    if (!metricsAllowed(ctx.get('authorization') || undefined, options.metricsToken)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { success: false, error: 'Missing or wrong bearer token (METRICS_TOKEN).', code: 'unauthorized' };
      return;
    }
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = await metricsText();
  });

  router.post('/render', async (ctx) => {
    if (options.token) {
      const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
      if (!match || !tokenMatches(match[1]!, options.token)) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer');
        ctx.body = { success: false, error: 'Missing or wrong bearer token (BROWSER_ENGINE_TOKEN).', code: 'unauthorized' };
        return;
      }
    }
    if (options.isDraining()) {
      ctx.status = 503;
      ctx.body = { success: false, error: 'Browser service is shutting down; retry on another replica.', code: 'draining' };
      return;
    }
    const body = ctx.request.body as unknown;
    if (!validate(body)) {
      ctx.status = 400;
      ctx.body = { success: false, error: 'Invalid render request', code: 'invalid_request', details: validate.errors?.map((e) => ({ field: e.instancePath || '(root)', message: e.message })) };
      return;
    }
    try {
      const { proxy } = body as RenderRequest;
      const via = proxy === undefined ? undefined : options.proxies?.all().find((m) => m.label === proxy);
      if (proxy !== undefined && !via) {
        ctx.status = 400;
        ctx.body = { success: false, error: `This browser service has no proxy ${proxy} (set the same PROXY_URLS, STEALTH_PROXY_URLS and PROXY_URLS_<CC> as the workers)`, code: 'invalid_request' } satisfies RenderResponse;
        return;
      }
      const result = await renderPage(options.pool, body, via);
      ctx.body = { success: true, ...result, screenshot: result.screenshot?.toString('base64') } satisfies RenderResponse;
    } catch (err) {
      if (!(err instanceof RenderError)) throw err;
      ctx.status = renderFailureStatus[err.kind];
      ctx.body = { success: false, error: err.message, code: err.kind } satisfies RenderResponse;
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
