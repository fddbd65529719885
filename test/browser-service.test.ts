/** The browser service: pool bounds, recycling, idle close, bearer token, and the `remote` engine end to end. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startEgressProxy } from '../egress/proxy.js';
import { BrowserPool } from '../browser/pool.js';
import { renderPage } from '../browser/render.js';
import { createBrowserApp } from '../browser-service/server.js';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const TOKEN = 'browser-token-0123456789';
let proxy: Awaited<ReturnType<typeof startEgressProxy>>;
let pages: FixtureServer;

beforeAll(async () => {
  proxy = await startEgressProxy({ allowPrivate: true });
  pages = await startFixtureServer({
    '/page': html('<html><head><title>p</title></head><body><p>pooled</p></body></html>'),
    '/slow-page': (_q, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow</p>'), 300),
  });
});
afterAll(async () => {
  await pages?.close();
  await proxy?.close();
});

function pool(options: Partial<ConstructorParameters<typeof BrowserPool>[0]> = {}) {
  return new BrowserPool({ chromiumPath: inject('chromiumPath'), maxContexts: 2, maxUsesPerContext: 100, idleTimeoutMs: 60_000, proxyUrl: proxy.url, ...options });
}

describe('BrowserPool', () => {
  it('never holds more than PLAYWRIGHT_MAX_CONTEXTS contexts, queueing the rest', async () => {
    const p = pool({ maxContexts: 2 });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, p.stats().contexts)), 10);
    try {
      const results = await Promise.all(Array.from({ length: 5 }, () => renderPage(p, { url: `${pages.url}/slow-page`, timeout: 20_000 })));
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(results.every((r) => r.html.includes('slow'))).toBe(true);
      expect(peak).toBe(2);
      expect(p.stats().contextsCreated).toBe(2);
    } finally {
      clearInterval(sampler);
      await p.close();
    }
  });

  it('recycles a context after BROWSER_MAX_USES_PER_CONTEXT pages', async () => {
    const p = pool({ maxContexts: 1, maxUsesPerContext: 2 });
    try {
      for (let i = 0; i < 5; i++) await renderPage(p, { url: `${pages.url}/page`, timeout: 20_000 });
      expect(p.stats()).toMatchObject({ contextsCreated: 3, contextsClosed: 2, contexts: 1 });
    } finally {
      await p.close();
    }
  });

  it('closes contexts idle longer than BROWSER_IDLE_TIMEOUT_MS', async () => {
    const p = pool({ idleTimeoutMs: 300 });
    try {
      await renderPage(p, { url: `${pages.url}/page`, timeout: 20_000 });
      expect(p.stats().contexts).toBe(1);
      await new Promise((r) => setTimeout(r, 800));
      expect(p.stats()).toMatchObject({ contexts: 0, contextsClosed: 1 });
    } finally {
      await p.close();
    }
  });
});

describe('browser service over HTTP', () => {
  let service: Server;
  let serviceUrl: string;
  let servicePool: BrowserPool;
  let site: FixtureServer;
  let stack: TestStack;

  beforeAll(async () => {
    servicePool = pool({ maxContexts: 2 });
    service = createBrowserApp({ pool: servicePool, token: TOKEN, isDraining: () => false }).listen(0, '127.0.0.1');
    await new Promise<void>((r) => service.once('listening', () => r()));
    serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    site = await startSite();
    stack = await startTestStack({ BROWSER_ENGINE_URL: serviceUrl, BROWSER_ENGINE_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await stack?.close();
    service?.closeAllConnections();
    await new Promise<void>((r) => (service ? service.close(() => r()) : r()));
    await servicePool?.close();
    await site?.close();
  });

  it.each([
    ['no token', undefined],
    ['a wrong token', 'Bearer wrong-token-0123456789'],
  ])('refuses a render with %s (401)', async (_label, authorization) => {
    const res = await fetch(`${serviceUrl}/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ url: `${pages.url}/page`, timeout: 5000 }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: 'Missing or wrong bearer token (BROWSER_ENGINE_TOKEN).', code: 'unauthorized' });
  });

  it('renders with the right token and reports health', async () => {
    const res = await fetch(`${serviceUrl}/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ url: `${pages.url}/page`, timeout: 10000 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; html: string; statusCode: number; finalUrl: string };
    expect(body.success).toBe(true);
    expect(body.statusCode).toBe(200);
    expect(body.finalUrl).toBe(`${pages.url}/page`);
    expect(body.html).toContain('<p>pooled</p>');
    const health = await fetch(`${serviceUrl}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
  });

  it('is the engine of a scrape that needs a browser when BROWSER_ENGINE_URL is set', async () => {
    const spa = await stack.post('/v1/scrape', { url: `${site.url}/spa` });
    expect(spa.status).toBe(200);
    const data = spa.body.data as { markdown: string; metadata: { engine: string } };
    expect(data.metadata.engine).toBe('remote');
    expect(data.markdown).toContain('# Rendered by script');
    const shot = await stack.post('/v1/scrape', { url: `${site.url}/tall`, formats: ['screenshot'] });
    expect(shot.status).toBe(200);
    expect((shot.body.data as { metadata: { engine: string } }).metadata.engine).toBe('remote');
  });

  it('runs actions on the remote engine: results come back over the wire, a failed action is a 400 naming it', async () => {
    const res = await stack.post('/v1/scrape', {
      url: `${site.url}/spa`,
      actions: [{ type: 'executeJavascript', script: 'document.querySelector("h1").textContent' }, { type: 'screenshot', quality: 40 }, { type: 'pdf' }],
    });
    expect(res.status).toBe(200);
    const data = res.body.data as { metadata: { engine: string }; actions: { javascriptReturns: unknown[]; screenshots: string[]; pdfs: string[] } };
    expect(data.metadata.engine).toBe('remote');
    expect(data.actions.javascriptReturns).toEqual([{ type: 'string', value: 'Rendered by script' }]);
    expect(data.actions.screenshots.map((s) => Buffer.from(s, 'base64').subarray(0, 2).toString('hex'))).toEqual(['ffd8']);
    expect(data.actions.pdfs.map((p) => Buffer.from(p, 'base64').subarray(0, 5).toString())).toEqual(['%PDF-']);

    const failed = await stack.post('/v1/scrape', { url: `${site.url}/spa`, actions: [{ type: 'click', selector: '#none' }] });
    expect(failed.status).toBe(400);
    const error = 'actions[0] (click): no element matches "#none" (waited 2000 ms)';
    expect(failed.body).toEqual({ success: false, code: 'action_failed', error, details: [{ field: 'actions[0]', message: error }] });
  });
});
