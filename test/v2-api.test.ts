/**
 * The v2 adapters over HTTP (README "The v2 API"): what the hosted v2 shapes become here, the
 * fields refused by name, the bodies the Python SDK sends with its defaults, map's v2 defaults,
 * status paging with `skip`, and one rate limit shared by a v1 route and its v2 twin.
 */
import { imageSize } from './helpers/images.js';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { startTestApi } from './helpers/api.js';
import { TEST_PEPPER } from './helpers/env.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let llm: FakeLlm;
let stack: TestStack;

beforeAll(async () => {
  const page = (body: string) => (q: never, res: ServerResponse) => html(`<html><head><title>T</title></head><body>${body}</body></html>`)(q, res, '');
  [site, llm] = await Promise.all([
    startFixtureServer({
      '/': page('<nav><a href="/a?x=1">A1</a></nav><main><h1>Home</h1><a href="/a?x=2">A2</a> <a href="/b">B</a> <a href="/c">C</a></main>'),
      '/a': page('<h1>A</h1>'),
      '/b': page('<h1>B</h1>'),
      '/c': page('<h1>C</h1>'),
      '/slow': (q: never, res: ServerResponse) => void setTimeout(() => page('<h1>Slow</h1>')(q, res), 5000),
    } as never),
    startFakeLlm([JSON.stringify({ title: 'T' })]),
  ]);
  stack = await startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), llm?.close()]);
});

describe('POST /v2/scrape', () => {
  it('takes the body the Python SDK sends with its defaults (json format with nulls, hosted-only switches) and answers { success, data }', async () => {
    const res = await stack.post('/v2/scrape', {
      url: `${site.url}/`,
      formats: ['markdown', { type: 'json', prompt: null, schema: { type: 'object', properties: { title: { type: 'string' } } }, checkPromptInjection: null }],
      onlyMainContent: true,
      mobile: false,
      skipTlsVerification: true,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      maxAge: 14400000,
      storeInCache: true,
      proxy: 'auto',
      parsers: ['pdf'],
      actions: [],
      redactPII: false,
      origin: 'python-sdk@4.53.2',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success']);
    const data = res.body.data as { markdown: string; json: unknown; metadata: Record<string, unknown> };
    expect(data.markdown).toBe(`# Home\n\n[A2](${site.url}/a?x=2) [B](${site.url}/b) [C](${site.url}/c)`);
    expect(data.json).toEqual({ title: 'T' });
    expect(data.metadata).toMatchObject({ sourceURL: `${site.url}/`, statusCode: 200 });
  });

  it('refuses, naming each field, what needs something this server does not have', async () => {
    const res = await stack.post('/v2/scrape', { url: `${site.url}/`, formats: ['json', 'images', { type: 'screenshot', quality: 50 }], redactPII: true, profile: { name: 'p' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(res.body.details).toEqual([
      { field: 'redactPII', message: 'PII redaction is not offered by this server' },
      { field: 'profile', message: 'saved browser profiles are not offered by this server' },
      { field: 'formats[0]', message: 'the json format needs its options: { "type": "json", "schema": {...} } or { "type": "json", "prompt": "..." }' },
    ]);
    const branding = await stack.post('/v2/scrape', { url: `${site.url}/`, formats: ['markdown', 'branding'] });
    expect(branding.body.details).toEqual([{ field: 'formats[1]', message: 'the "branding" format is not offered by this server (offered: markdown, html, rawHtml, links, images, screenshot, summary, changeTracking, json, attributes)' }]);
  });

  it('takes a screenshot format object with quality (a JPEG) and viewport (the window size)', async () => {
    const res = await stack.post('/v2/scrape', { url: `${site.url}/`, formats: [{ type: 'screenshot', quality: 40, viewport: { width: 600, height: 400 } }] });
    expect(res.status).toBe(200);
    expect(imageSize((res.body.data as { screenshot: string }).screenshot)).toEqual({ kind: 'jpeg', width: 600, height: 400 });
    const v1 = await stack.post('/v1/scrape', { url: `${site.url}/`, formats: ['screenshot'], screenshotOptions: { viewport: { width: 700, height: 500 } } });
    expect(imageSize((v1.body.data as { screenshot: string }).screenshot)).toEqual({ kind: 'png', width: 700, height: 500 });
    const alone = await stack.post('/v1/scrape', { url: `${site.url}/`, screenshotOptions: { quality: 50 } });
    expect([alone.status, alone.body.details]).toEqual([400, [{ field: 'screenshotOptions', message: 'needs a screenshot format (screenshot or screenshot@fullPage)' }]]);
  });

  it('runs browser actions and answers their results in data.actions', async () => {
    const res = await stack.post('/v2/scrape', { url: `${site.url}/`, actions: [{ type: 'executeJavascript', script: 'document.querySelectorAll("a").length' }, { type: 'scrape' }] });
    expect(res.status).toBe(200);
    const data = res.body.data as { actions: { scrapes: { url: string; html: string }[]; javascriptReturns: unknown[]; screenshots: string[]; pdfs: string[] }; metadata: Record<string, unknown> };
    expect(data.actions.javascriptReturns).toEqual([{ type: 'number', value: 4 }]);
    expect(data.actions.scrapes).toEqual([{ url: `${site.url}/`, html: expect.stringContaining('<h1>Home</h1>') }]);
    expect([data.actions.screenshots, data.actions.pdfs]).toEqual([[], []]);
    expect(data.metadata.engine).toBe('local_browser');
  });

  it('validates like v1: unknown fields, v1-only fields and the v1 rules (waitFor within timeout) get 400 naming the field', async () => {
    expect((await stack.post('/v2/scrape', { url: `${site.url}/`, jsonOptions: { prompt: 'x' } })).body.details).toEqual([{ field: 'jsonOptions', message: 'is not a recognised field' }]);
    expect((await stack.post('/v2/scrape', { url: `${site.url}/`, formats: [{ type: 'markdown', colour: 'red' }] })).body.details).toEqual([{ field: 'formats[0].colour', message: 'is not a recognised field' }]);
    expect((await stack.post('/v2/scrape', { formats: ['markdown'] })).body.details).toEqual([{ field: 'url', message: 'is required' }]);
    const wait = await stack.post('/v2/scrape', { url: `${site.url}/`, timeout: 2000, waitFor: 1500 });
    expect([wait.status, wait.body.details]).toEqual([400, [{ field: 'waitFor', message: 'must be at most half of timeout (2000 ms), so the page has time to load: at most 1000' }]]);
  });
});

describe('POST /v2/map', () => {
  it('includes subdomains and drops query strings by default (v2), keeps them when asked, and answers link objects', async () => {
    const res = await stack.post('/v2/map', { url: `${site.url}/`, sitemap: 'skip' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, links: [`${site.url}/`, `${site.url}/a`, `${site.url}/b`, `${site.url}/c`].map((url) => ({ url })) });
    const kept = await stack.post('/v2/map', { url: `${site.url}/`, sitemap: 'skip', ignoreQueryParameters: false });
    expect(kept.body.links).toEqual([`${site.url}/`, `${site.url}/a?x=1`, `${site.url}/a?x=2`, `${site.url}/b`, `${site.url}/c`].map((url) => ({ url })));
    // v1 is unchanged: query strings kept unless asked.
    expect((await stack.post('/v1/map', { url: `${site.url}/`, ignoreSitemap: true })).body.links).toEqual([`${site.url}/`, `${site.url}/a?x=1`, `${site.url}/a?x=2`, `${site.url}/b`, `${site.url}/c`]);
  });
});

describe('/v2/crawl and /v2/batch/scrape', () => {
  it('takes the body the Python SDK sends (every boolean) and refuses a format it does not offer by name; a prompt goes to the LLM', async () => {
    const python = { url: `${site.url}/`, ignoreQueryParameters: false, deduplicateSimilarURLs: true, crawlEntireDomain: false, allowExternalLinks: false, allowSubdomains: false, ignoreRobotsTxt: false, regexOnFullURL: false, zeroDataRetention: false, origin: 'python-sdk@4.53.2', sitemap: 'skip', limit: 3 };
    const started = await stack.post('/v2/crawl', python);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `/v2/crawl/${started.body.id}` });
    const ended = await pollUntil(() => stack.get(`/v2/crawl/${started.body.id}`), (r) => r.body.status !== 'scraping', 'crawl ended');
    expect(ended.body).toMatchObject({ status: 'completed', completed: 3, creditsUsed: 3 });
    const refused = await stack.post('/v2/crawl', { url: `${site.url}/`, prompt: 'only blog posts', scrapeOptions: { formats: ['product'] } });
    expect(refused.body.details).toEqual([
      { field: 'scrapeOptions.formats[0]', message: 'the "product" format is not offered by this server (offered: markdown, html, rawHtml, links, images, screenshot, summary, changeTracking, json, attributes)' },
    ]);
    // This stack's LLM answers something else than crawl options: the proposal fails its schema, nothing starts (test/crawl-plan.test.ts has the rest).
    const prompted = await stack.post('/v2/crawl', { url: `${site.url}/`, prompt: 'only blog posts' });
    expect([prompted.status, prompted.body.code]).toEqual([502, 'planning_failed']);
    expect(prompted.body.error).toMatch(/^The LLM could not propose crawl options: /);
    const batch = await stack.post('/v2/batch/scrape', { urls: [`${site.url}/a`], appendToId: randomUUID() });
    expect(batch.body.details).toEqual([{ field: 'appendToId', message: 'adding URLs to an existing batch is not offered by this server; start another batch scrape' }]);
  });

  it('pages a job’s documents with skip and limit; next stays on /v2 and is absent on the last page', async () => {
    const { body } = await stack.post('/v2/batch/scrape', { urls: [`${site.url}/a`, `${site.url}/b`, `${site.url}/c`], formats: ['markdown'] });
    const id = String(body.id);
    expect(body).toEqual({ success: true, id, url: `/v2/batch/scrape/${id}` });
    await pollUntil(() => stack.get(`/v2/batch/scrape/${id}`), (r) => r.body.status !== 'scraping', 'batch ended');
    const first = await stack.get(`/v2/batch/scrape/${id}?limit=2`);
    expect(first.body).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3, creditsUsed: 3, next: `/v2/batch/scrape/${id}?skip=2&limit=2` });
    expect((first.body.data as unknown[]).length).toBe(2);
    const last = await stack.get(String(first.body.next));
    expect((last.body.data as unknown[]).length).toBe(1);
    expect(last.body.next).toBeUndefined();
    const markdowns = [...(first.body.data as { markdown: string }[]), ...(last.body.data as { markdown: string }[])].map((d) => d.markdown);
    expect(markdowns.sort()).toEqual(['# A', '# B', '# C']);
    // A batch id answers on /v2/crawl too, as on v1.
    expect((await stack.get(`/v2/crawl/${id}?skip=2`)).body.data).toEqual(last.body.data);
    expect((await stack.get(`/v2/batch/scrape/${randomUUID()}`)).status).toBe(404);
    expect((await stack.call('DELETE', `/v2/batch/scrape/${id}`)).body).toMatchObject({ success: false, code: 'conflict', error: `The batch scrape ${id} has already completed: there is nothing to cancel.` });
  });
});

describe('GET /v2/crawl/active', () => {
  it('lists the key’s running crawls with the account as teamId; not batch scrapes, not ended crawls, not another key’s', async () => {
    const crawl = await stack.post('/v2/crawl', { url: `${site.url}/slow`, limit: 1 });
    const batch = await stack.post('/v2/batch/scrape', { urls: [`${site.url}/slow`] });
    expect([crawl.status, batch.status]).toEqual([200, 200]);
    const active = await stack.get('/v2/crawl/active');
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ success: true, crawls: [{ id: crawl.body.id, teamId: 'default', url: `${site.url}/slow`, options: expect.objectContaining({ url: `${site.url}/slow`, limit: 1 }) }] });
    const { key: other } = await createKey(stack.api.deps.prisma, 'v2-active-other', TEST_PEPPER);
    expect((await stack.call('GET', '/v2/crawl/active', undefined, other)).body).toEqual({ success: true, crawls: [] });
    expect((await stack.call('DELETE', `/v2/crawl/${String(crawl.body.id)}`)).status).toBe(200);
    expect((await stack.get('/v2/crawl/active')).body).toEqual({ success: true, crawls: [] });
    expect((await stack.call('GET', '/v2/crawl/active', undefined, 'pw_not_a_key')).status).toBe(401);
  });
});

describe('listing bounds', () => {
  it('refuses an offset past the largest with a 400 naming it (job status and monitor lists)', async () => {
    const status = await stack.get(`/v2/crawl/${randomUUID()}?skip=1000000000000`);
    expect([status.status, status.body.details]).toEqual([400, [{ field: 'query.skip', message: 'must be <= 1000000000' }]]);
    const monitors = await stack.get('/v2/monitor?offset=3556306491977325634125824');
    expect([monitors.status, monitors.body.details]).toEqual([400, [{ field: 'query.offset', message: 'must be <= 1000000000' }]]);
  });
});

describe('rate limits', () => {
  it('counts a v1 route and its v2 twin in one limit', async () => {
    const api = await startTestApi({ env: { RATE_LIMIT_SCRAPE_PER_MIN: '2' } });
    try {
      const account = await api.deps.prisma.account.create({ data: { id: randomUUID(), name: 'v2-limits' } });
      const { key } = await createKey(api.deps.prisma, 'v2-limits', TEST_PEPPER, account.id);
      const post = (path: string) => fetch(api.url + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
      expect((await post('/v1/scrape')).status).toBe(400);
      expect((await post('/v2/scrape')).status).toBe(400);
      const refused = await post('/v2/scrape');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toMatch(/^Rate limit exceeded for POST \/v1\|v2\/scrape and POST \/v1\|v2\/search \(a search that scrapes counts 1 \+ limit\): 2 requests per minute per account\./);
    } finally {
      await api.close();
    }
  });
});
