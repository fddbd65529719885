/**
 * Fields the official SDKs send that mean something here (README "Fields from the official SDKs"):
 * each does what it says, through the real API and worker, against loopback sites.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from './fixtures/dns-server.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { crawlToEnd, pathsOf, waitForCrawl } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const page = (title: string, links: string[] = [], extra = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Text of ${title}.</p>${extra}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
const send = (res: ServerResponse, body: string): void => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
};

let site: FixtureServer;
let llm: FakeLlm;
let dns: DnsServer;
let stack: TestStack;

beforeAll(async () => {
  [site, llm, dns] = await Promise.all([
    startFixtureServer({
      '/': (req, res) => send(res, page('home', ['/docs/start', '/item?a=1', '/item?a=2', `http://docs.site.test:${String(req.headers.host).split(':')[1]}/guide`])),
      '/item': (_q, res) => send(res, page('item')),
      '/docs/start': (_q, res) => send(res, page('start', ['/about'])),
      '/about': (_q, res) => send(res, page('about')),
      '/guide': (_q, res) => send(res, page('guide')),
      '/echo': (req, res) => send(res, page(`lang ${req.headers['accept-language'] ?? 'none'}`)),
      // The page says how wide the browser's window is, and what it claims to be.
      '/viewport': (req, res) => send(res, `<!doctype html><html><head><title>x</title></head><body><p>${String(req.headers['user-agent']).includes('Mobile') ? 'mobile agent' : 'desktop agent'}</p><script>document.title = 'width ' + window.innerWidth</script></body></html>`),
      '/slow': (_q, res) => void setTimeout(() => send(res, page('slow')), 2500),
    }),
    startFakeLlm(['{"title": "from the model"}']),
    startDnsServer({ 'site.test': ['127.0.0.1'], 'docs.site.test': ['127.0.0.1'] }),
  ]);
  stack = await startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model', DNS_SERVERS: dns.address });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), llm?.close(), dns?.close()]);
});

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

describe('scrape fields', () => {
  it('jsonOptions with the json format extracts into data.json', async () => {
    const res = await stack.post('/v1/scrape', { url: `${site.url}/about`, formats: ['json'], jsonOptions: { schema, prompt: 'The title.' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ json: { title: 'from the model' }, metadata: expect.objectContaining({ title: 'about' }) });
  });

  it('refuses extraction fields that cannot work together, naming them', async () => {
    const cases: [Record<string, unknown>, { field: string; message: string }][] = [
      [{ formats: ['json'] }, { field: 'jsonOptions', message: 'is required with the json format: give a schema or a prompt' }],
      [{ jsonOptions: { schema } }, { field: 'jsonOptions', message: 'needs "json" in formats (the result is data.json)' }],
      [{ formats: ['extract'] }, { field: 'extract', message: 'is required with the extract format: give a schema or a prompt' }],
      [{ formats: ['json'], jsonOptions: { schema }, extract: { schema } }, { field: 'jsonOptions', message: 'use one of extract and jsonOptions (one extraction per page)' }],
    ];
    for (const [fields, detail] of cases) {
      const res = await stack.post('/v1/scrape', { url: `${site.url}/about`, ...fields });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([detail]);
    }
  });

  it('sends location.languages as Accept-Language, unless headers set one', async () => {
    const asked = await stack.post('/v1/scrape', { url: `${site.url}/echo`, location: { country: 'DE', languages: ['de-DE', 'en'] } });
    expect((asked.body.data as { metadata: { title: string } }).metadata.title).toBe('lang de-DE, en;q=0.9');
    const own = await stack.post('/v1/scrape', { url: `${site.url}/echo`, location: { languages: ['de-DE'] }, headers: { 'Accept-Language': 'fr' } });
    expect((own.body.data as { metadata: { title: string } }).metadata.title).toBe('lang fr');
  });

  it('renders as a phone with mobile: true', async () => {
    const phone = await stack.post('/v1/scrape', { url: `${site.url}/viewport`, mobile: true });
    const data = phone.body.data as { markdown: string; metadata: { title: string; engine: string } };
    expect(data.metadata).toMatchObject({ title: 'width 390', engine: 'local_browser' });
    expect(data.markdown).toContain('mobile agent');
  });

  it('accepts a self-signed certificate only with skipTlsVerification', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_q, res) => send(res, page('secure page')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const strict = await stack.post('/v1/scrape', { url, timeout: 15000 });
      expect(strict.status).toBe(502);
      expect(strict.body.code).toBe('scrape_failed');
      const lenient = await stack.post('/v1/scrape', { url, skipTlsVerification: true });
      expect(lenient.status).toBe(200);
      expect((lenient.body.data as { markdown: string; metadata: { engine: string } }).metadata.engine).toBe('fetch');
      expect((lenient.body.data as { markdown: string }).markdown).toContain('# secure page');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('crawl fields', () => {
  it('allowSubdomains follows links to subdomains of the seed site', async () => {
    const port = site.port;
    const narrow = await crawlToEnd(stack, { url: `http://site.test:${port}/`, ignoreRobotsTxt: true, excludePaths: ['/item', '/docs/*'] });
    expect(pathsOf(narrow.docs)).toEqual(['/']);
    expect(narrow.status.skipped.external_domain).toBe(1);
    const wide = await crawlToEnd(stack, { url: `http://site.test:${port}/`, ignoreRobotsTxt: true, excludePaths: ['/item', '/docs/*'], allowSubdomains: true });
    expect(wide.docs.map((d) => String(d.metadata.sourceURL)).sort()).toEqual([`http://docs.site.test:${port}/guide`, `http://site.test:${port}/`]);
  });

  it('ignoreQueryParameters folds URLs that differ only in their query', async () => {
    const before = site.hitsFor('/item').length;
    const { docs } = await crawlToEnd(stack, { url: site.url, ignoreRobotsTxt: true, ignoreQueryParameters: true, excludePaths: ['/docs/*'] });
    expect(pathsOf(docs)).toEqual(['/', '/item']);
    expect(site.hits.filter((h) => h.path.startsWith('/item')).length - before).toBe(1);
  });

  it('crawlEntireDomain lets a crawl leave the seed folder, as allowBackwardLinks does', async () => {
    const inside = await crawlToEnd(stack, { url: `${site.url}/docs/start`, ignoreRobotsTxt: true });
    expect(pathsOf(inside.docs)).toEqual(['/docs/start']);
    const whole = await crawlToEnd(stack, { url: `${site.url}/docs/start`, ignoreRobotsTxt: true, crawlEntireDomain: true });
    expect(pathsOf(whole.docs)).toEqual(['/about', '/docs/start']);
  });

  it('scrapeOptions.timeout is refused as the spec says, except from the official SDKs (the Python SDK always sends it), where it is each page’s budget', async () => {
    const body = { url: `${site.url}/slow`, ignoreRobotsTxt: true, scrapeOptions: { timeout: 1000 } };
    const refused = await stack.post('/v1/crawl', body);
    expect([refused.status, refused.body.details]).toEqual([400, [{ field: 'scrapeOptions.timeout', message: "is not accepted inside crawl scrapeOptions: the pages of a crawl have the server's SCRAPE_TIMEOUT_MS" }]]);
    const fromSdk = await fetch(`${stack.api.url}/v1/crawl`, { method: 'POST', headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', 'user-agent': 'python-requests/2.32.3' }, body: JSON.stringify(body) });
    expect(fromSdk.status).toBe(200);
    const { id } = (await fromSdk.json()) as { id: string };
    const status = await waitForCrawl(stack, id);
    expect(status).toMatchObject({ status: 'failed', failed: 1 });
    const errors = await stack.get(`/v1/crawl/${id}/errors`);
    expect((errors.body.errors as { code: string }[]).map((e) => e.code)).toEqual(['timeout']);
  });
});

describe('map fields', () => {
  it('sitemapOnly lists the sitemap’s URLs without fetching the seed page', async () => {
    const sitemap = await startFixtureServer({
      '/robots.txt': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(''),
      '/sitemap.xml': (req, res) =>
        void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}/listed</loc></url></urlset>`),
      '/': (_q, res) => send(res, page('home', ['/linked'])),
    });
    try {
      const all = await stack.post('/v1/map', { url: sitemap.url });
      expect(all.body.links).toEqual([`${sitemap.url}/`, `${sitemap.url}/listed`, `${sitemap.url}/linked`]);
      const before = sitemap.hitsFor('/').length;
      const only = await stack.post('/v1/map', { url: sitemap.url, sitemapOnly: true });
      expect(only.status).toBe(200);
      expect(only.body.links).toEqual([`${sitemap.url}/listed`]);
      expect(sitemap.hitsFor('/')).toHaveLength(before);
    } finally {
      await sitemap.close();
    }
  });

  it('timeout bounds the map', async () => {
    const slow = await startFixtureServer({ '/robots.txt': (_q, res) => void setTimeout(() => res.writeHead(200).end(''), 5000) });
    try {
      const res = await stack.post('/v1/map', { url: slow.url, timeout: 1000 });
      expect(res.status).toBe(408);
      expect(res.body).toMatchObject({ code: 'timeout', error: expect.stringContaining('within 1 s') });
    } finally {
      await slow.close();
    }
  });
});
