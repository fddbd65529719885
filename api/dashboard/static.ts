/**
 * The dashboard's built files (scripts/build-dashboard.ts → dashboard/dist), served by the API
 * process: assets under /dashboard/assets/, and index.html for every other /dashboard path (the app
 * routes in the browser). Every dashboard answer carries a strict Content-Security-Policy: no
 * inline script or style, nothing from another origin.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { ApiError, NotFoundError } from '../../core/errors.js';
import type { AppState } from '../route.js';

export const DIST_DIR = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  'report-uri /dashboard/api/csp-report',
].join('; ');

const types: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8', '.map': 'application/json' };

const cache = new Map<string, Buffer>();

async function load(file: string): Promise<Buffer | undefined> {
  const hit = cache.get(file);
  if (hit) return hit;
  const body = await readFile(join(DIST_DIR, file)).catch(() => undefined);
  if (body) cache.set(file, body);
  return body;
}

export function securityHeaders(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'same-origin', 'Cross-Origin-Opener-Policy': 'same-origin' });
    await next();
  };
}

/** GET /dashboard, /dashboard/assets/<file>, /dashboard/<anything the app routes>. */
export function serveDashboard(): Middleware<AppState> {
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; use GET.`, undefined, { Allow: 'GET, HEAD' });
    const asset = /^\/dashboard\/assets\/([A-Za-z0-9._-]+)$/.exec(ctx.path)?.[1];
    const file = asset ? `assets/${asset}` : 'index.html';
    const body = await load(file);
    if (!body && asset) throw new NotFoundError(`No dashboard asset ${asset}.`);
    if (!body) throw new ApiError(503, 'dashboard_not_built', 'The dashboard has not been built: run `npx tsx scripts/build-dashboard.ts` (./scripts/stack setup does it).');
    ctx.type = types[extname(file)] ?? 'application/octet-stream';
    // index.html names the current bundle: never cached; assets may be cached briefly.
    ctx.set('Cache-Control', asset ? 'public, max-age=300' : 'no-store');
    ctx.body = body;
  };
}
