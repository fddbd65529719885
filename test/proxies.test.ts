/**
 * Operator proxies end to end (README "Proxies"): real proxy servers on loopback (proxy-chain for
 * HTTP, a SOCKS5 server speaking the real protocol), each going out from its own loopback address,
 * so the target site sees which one a request came through. Real API, worker, Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server as ProxyServer } from 'proxy-chain';
import { html, startFixtureServer, type FixtureServer, type Handler } from './fixtures/server.js';
import { startSocks5Server, type Socks5Server } from './fixtures/socks5-server.js';
import { startTestApi, type TestApi } from './helpers/api.js';
import { createKey } from '../api/keys-store.js';
import { TEST_PEPPER, testConfig } from './helpers/env.js';
import { freePort } from '../scripts/infra/ready.js';
import type { AddressInfo } from 'node:net';
import { startBrowserRuntime } from '../browser/runtime.js';
import { createBrowserApp } from '../browser-service/server.js';
import { ProxyPools } from '../core/proxy-pools.js';
import { crawlToEnd } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

interface HttpProxy {
  url: string;
  label: string;
  /** `host:port` of each request or tunnel, as asked. */
  asked: string[];
  close(): Promise<void>;
}

/** An HTTP proxy (proxy-chain) that goes out from `localAddress`, optionally with a username and password. */
async function startHttpProxy(localAddress: string, auth?: { user: string; password: string }): Promise<HttpProxy> {
  const asked: string[] = [];
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username, password, hostname, port }) => {
      const refused = auth !== undefined && (username !== auth.user || password !== auth.password);
      if (!refused) asked.push(`${hostname}:${port}`);
      return { requestAuthentication: refused, localAddress };
    },
  });
  await server.listen();
  const label = `http://127.0.0.1:${server.port}`;
  return { url: auth ? `http://${auth.user}:${auth.password}@127.0.0.1:${server.port}` : label, label, asked, close: () => server.close(true) };
}

let site: FixtureServer;
let basicA: HttpProxy;
let basicB: HttpProxy;
let stealth: HttpProxy;
let germany: Socks5Server;
let stack: TestStack;
let plainApi: TestApi;
let deadPort: number;

beforeAll(async () => {
  [site, basicA, basicB, stealth, germany, deadPort] = await Promise.all([
    startFixtureServer({
      // Who connected: the proxy's outgoing address, or 127.0.0.1 directly.
      '/whoami': (req, res, body) => void html(`<html><head><title>Who</title></head><body><p>From ${req.socket.remoteAddress}</p></body></html>`)(req, res, body),
      // Turns away everyone but the stealth proxy's address, as a site guarding itself would.
      '/guarded': (req, res, body) =>
        req.socket.remoteAddress === '127.0.0.4'
          ? void html('<html><head><title>Guarded</title></head><body><p>Welcome in.</p></body></html>')(req, res, body)
          : void res.writeHead(403, { 'content-type': 'text/html' }).end('<html><head><title>Forbidden</title></head><body><p>Go away.</p></body></html>'),
    }),
    startHttpProxy('127.0.0.2', { user: 'scraper', password: 's3cret' }),
    startHttpProxy('127.0.0.3'),
    startHttpProxy('127.0.0.4'),
    startSocks5Server({ localAddress: '127.0.0.5', auth: { user: 'de', password: 'pw' } }),
    freePort(),
  ]);
  stack = await startTestStack({ PROXY_URLS: `${basicA.url},${basicB.url}`, STEALTH_PROXY_URLS: stealth.url, PROXY_URLS_DE: germany.url });
  plainApi = await startTestApi({ env: { ALLOW_PRIVATE_ADDRESSES: 'true' } });
});
afterAll(async () => {
  await stack?.close();
  await plainApi?.close();
  await Promise.all([site?.close(), basicA?.close(), basicB?.close(), stealth?.close(), germany?.close()]);
});

type Doc = { markdown: string; metadata: Record<string, unknown> };
const scrape = (path: string, more: Record<string, unknown> = {}) => stack.post('/v1/scrape', { url: `${site.url}${path}`, ...more });
const from = (r: { body: Record<string, unknown> }) => /From (\S+)/.exec((r.body.data as Doc).markdown)?.[1];
const meta = (r: { body: Record<string, unknown> }) => (r.body.data as Doc).metadata;

describe('basic proxies (PROXY_URLS): rotated per request, credentials kept out of the answer', () => {
  it('alternates between the two members; metadata names the tier and the member, never its credentials', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await scrape('/whoami'));
    const seen = answers.map((r) => [r.status, from(r), meta(r).proxyUsed, meta(r).proxyServer]);
    expect(seen.filter(([, who]) => who === '127.0.0.2')).toHaveLength(2);
    expect(seen.filter(([, who]) => who === '127.0.0.3')).toHaveLength(2);
    for (const [status, who, tier, server] of seen) {
      expect([status, tier]).toEqual([200, 'basic']);
      expect(server).toBe(who === '127.0.0.2' ? basicA.label : basicB.label);
    }
    expect(JSON.stringify(answers)).not.toContain('s3cret');
  });

  it('asks the proxy for the checked address, never the name (a proxy resolving names itself cannot be led elsewhere)', async () => {
    const before = basicA.asked.length + basicB.asked.length;
    const res = await stack.post('/v1/scrape', { url: `http://localhost:${site.port}/whoami` });
    expect(res.status).toBe(200);
    const asked = [...basicA.asked, ...basicB.asked].slice(before);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.every((a) => a === `127.0.0.1:${site.port}` || a === `[::1]:${site.port}` || a === `::1:${site.port}`)).toBe(true);
  });

  it('a browser render goes out through the proxy too', async () => {
    const res = await scrape('/whoami', { waitFor: 10 });
    expect(res.status).toBe(200);
    expect(meta(res).engine).toBe('local_browser');
    expect(['127.0.0.2', '127.0.0.3']).toContain(from(res));
    expect(meta(res).proxyServer).toBe(from(res) === '127.0.0.2' ? basicA.label : basicB.label);
  });
});

describe('the remote engine', () => {
  it('the browser service goes out through the member the worker chose, named by its label', async () => {
    const env = { ALLOW_PRIVATE_ADDRESSES: 'true', PROXY_URLS: basicA.url };
    const config = testConfig('worker', env);
    const runtime = await startBrowserRuntime(config);
    const service = createBrowserApp({ pool: runtime.pool, token: 'remote-proxy-token-0123456789', isDraining: () => false, proxies: ProxyPools.fromSettings(config, config.PROXY_URLS_BY_COUNTRY) }).listen(0, '127.0.0.1');
    await new Promise<void>((r) => service.once('listening', () => r()));
    const remote = await startTestStack({ ...env, BROWSER_ENGINE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`, BROWSER_ENGINE_TOKEN: 'remote-proxy-token-0123456789' });
    try {
      const res = await remote.post('/v1/scrape', { url: `${site.url}/whoami`, waitFor: 10 });
      expect([res.status, meta(res).engine, from(res), meta(res).proxyServer]).toEqual([200, 'remote', '127.0.0.2', basicA.label]);
    } finally {
      await remote.close();
      service.closeAllConnections();
      await new Promise<void>((r) => service.close(() => r()));
      await runtime.close();
    }
  });
});

describe('stealth, auto and country pools', () => {
  it('proxy "stealth" goes through STEALTH_PROXY_URLS', async () => {
    const res = await scrape('/whoami', { proxy: 'stealth' });
    expect([res.status, from(res), meta(res).proxyUsed, meta(res).proxyServer]).toEqual([200, '127.0.0.4', 'stealth', stealth.label]);
  });

  it('proxy "auto" tries basic, and after a 403 the stealth pool', async () => {
    const before = site.hitsFor('/guarded').length;
    const res = await scrape('/guarded', { proxy: 'auto' });
    expect(res.status).toBe(200);
    expect((res.body.data as Doc).markdown).toContain('Welcome in.');
    expect([meta(res).proxyUsed, meta(res).statusCode]).toEqual(['stealth', 200]);
    // Through basic, turned away (and not retried in a browser through basic); then through stealth.
    expect(site.hitsFor('/guarded').length).toBe(before + 2);
    // Without auto, the block is the answer.
    const basic = await scrape('/guarded');
    expect([basic.status, meta(basic).statusCode, meta(basic).proxyUsed]).toEqual([200, 403, 'basic']);
  });

  it('location.country picks PROXY_URLS_<CC> (here a SOCKS5 proxy with a password), asked for the address', async () => {
    const res = await scrape('/whoami', { location: { country: 'DE' } });
    expect([res.status, from(res), meta(res).proxyServer]).toEqual([200, '127.0.0.5', germany.url.replace('de:pw@', '')]);
    expect(germany.destinations.at(-1)).toBe(`127.0.0.1:${site.port}`);
    // A country without a pool of its own uses PROXY_URLS.
    const other = await scrape('/whoami', { location: { country: 'FR' } });
    expect(['127.0.0.2', '127.0.0.3']).toContain(from(other));
  });
});

describe('failing proxies', () => {
  it('a dead member costs a retry, then is taken out: every scrape still succeeds', async () => {
    const dead = await startTestStack({ PROXY_URLS: `http://127.0.0.1:${deadPort},${basicB.url}` });
    try {
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await dead.post('/v1/scrape', { url: `${site.url}/whoami` }));
      expect(results.map((r) => [r.status, from(r), meta(r).proxyServer])).toEqual(Array.from({ length: 6 }, () => [200, '127.0.0.3', basicB.label]));
    } finally {
      await dead.close();
    }
  });

  it('a member that dies mid-crawl loses no page: every page is stored once', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => `/p/${i}`);
    const slowPage = (p: string): Handler => (_q, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>Page ${p}</p></body></html>`), 100);
    const crawlSite = await startFixtureServer({
      '/': html(`<html><body>${pages.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`),
      ...Object.fromEntries(pages.map((p) => [p, slowPage(p)])),
    });
    const dying = await startHttpProxy('127.0.0.6');
    const crawlStack = await startTestStack({ PROXY_URLS: `${dying.url},${basicB.url}` });
    try {
      const killer = setTimeout(() => void dying.close(), 1500);
      const { status, docs } = await crawlToEnd(crawlStack, { url: `${crawlSite.url}/`, limit: 31, ignoreSitemap: true });
      clearTimeout(killer);
      expect(status.status).toBe('completed');
      const urls = docs.map((d) => String((d.metadata as Record<string, unknown>).sourceURL));
      expect(urls.sort()).toEqual([`${crawlSite.url}/`, ...pages.map((p) => `${crawlSite.url}${p}`)].sort());
      expect(new Set(urls).size).toBe(31);
      expect(dying.asked.length).toBeGreaterThan(0);
    } finally {
      await crawlStack.close();
      await dying.close().catch(() => undefined);
      await crawlSite.close();
    }
  });
});

describe('without stealth proxies', () => {
  it('"stealth" is a 400 naming the setting, before any work', async () => {
    const { key } = await createKey(plainApi.deps.prisma, 'proxy-test', TEST_PEPPER);
    const res = await fetch(`${plainApi.url}/v1/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/whoami`, proxy: 'stealth' }) });
    expect(res.status).toBe(400);
    const message = '"stealth" needs stealth proxies and this server has none (its operator sets STEALTH_PROXY_URLS); use "basic" or "auto", or leave it out';
    expect(await res.json()).toEqual({ success: false, code: 'invalid_request', error: `Invalid request body: proxy ${message}`, details: [{ field: 'proxy', message }] });
  });
});
