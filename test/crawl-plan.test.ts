/**
 * Crawl options from a prompt: POST /v2/crawl/params-preview and POST /v2/crawl with `prompt`, the
 * LLM a chat-completions stand-in; what it proposes is checked by the crawl schema before use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import type { FixtureServer } from './fixtures/server.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let llm: FakeLlm;
let stack: TestStack;
let withoutLlm: TestStack;
/** What the stand-in proposes next. */
let proposal: Record<string, unknown> = {};

beforeAll(async () => {
  site = await startCrawlSite(treeSite(15));
  llm = await startFakeLlm(() => JSON.stringify(proposal));
  [stack, withoutLlm] = await Promise.all([startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' }), startTestStack()]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), withoutLlm?.close()]);
  await Promise.all([site?.close(), llm?.close()]);
});

describe('crawl options from a prompt', () => {
  it('params-preview returns the LLM’s proposal, checked, without crawling; empty fields left out', async () => {
    proposal = { includePaths: ['^/p/[0-9]$'], excludePaths: null, limit: 4, maxDiscoveryDepth: 3, sitemap: 'skip' };
    const before = site.hits.length;
    const res = await stack.post('/v2/crawl/params-preview', { url: `${site.url}/`, prompt: 'Only the first pages, at most four' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { url: `${site.url}/`, includePaths: ['^/p/[0-9]$'], limit: 4, maxDiscoveryDepth: 3, sitemap: 'skip' } });
    expect(site.hits.length).toBe(before);
    const asked = llm.requests.at(-1)!;
    expect(asked.messages[0]!.content).toMatch(/^You turn a request about what to crawl/);
    expect(asked.messages[1]!.content).toContain(`Start page: ${site.url}/\n\nRequest: Only the first pages, at most four`);
    expect(asked.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('a crawl with a prompt runs with the proposal, the request’s own fields winning', async () => {
    proposal = { includePaths: ['^/p/[0-9]$'], limit: 9, sitemap: 'skip' };
    const started = await stack.post('/v2/crawl', { url: `${site.url}/`, prompt: 'The numbered pages', limit: 3 });
    expect(started.status).toBe(200);
    const status = await pollUntil(async () => (await stack.get(`/v2/crawl/${started.body.id as string}`)).body, (s) => s.status !== 'scraping', 'crawl ended');
    expect(status).toMatchObject({ status: 'completed', total: 3, completed: 3 });
    const active = await stack.api.deps.prisma.job.findUniqueOrThrow({ where: { id: started.body.id as string } });
    expect(active.options).toMatchObject({ includePaths: ['^/p/[0-9]$'], limit: 3, ignoreSitemap: true });
  });

  it('a proposal the crawl schema refuses is a 502 naming the field, and nothing starts', async () => {
    proposal = { includePaths: ['(unclosed'] };
    const res = await stack.post('/v2/crawl/params-preview', { url: `${site.url}/`, prompt: 'Anything' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'planning_failed', details: [{ field: 'includePaths[0]' }] });
    const crawl = await stack.post('/v2/crawl', { url: `${site.url}/`, prompt: 'Anything' });
    expect(crawl.status).toBe(502);
  });

  it('without an LLM, a clear 501 naming the settings; a bad request is a 400', async () => {
    for (const [path, body] of [['/v2/crawl/params-preview', { url: `${site.url}/`, prompt: 'x' }], ['/v2/crawl', { url: `${site.url}/`, prompt: 'x' }]] as const) {
      const res = await withoutLlm.post(path, body);
      expect(res.status).toBe(501);
      expect(res.body.error).toContain('LLM_BASE_URL and LLM_MODEL');
    }
    const bad = await stack.post('/v2/crawl/params-preview', { url: `${site.url}/` });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[])[0]!.field).toBe('prompt');
  });
});
