/** llms.txt jobs (POST /v1/llmstxt) end to end: a real API and worker, a fixture site on loopback, a chat-completions stand-in describing each page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let llm: FakeLlm;
let stack: TestStack;
let withoutLlm: TestStack;

beforeAll(async () => {
  let base = '';
  site = await startFixtureServer({
    '/sitemap.xml': (_q, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/guide</loc></url><url><loc>${base}/gone</loc></url><url><loc>${base}/api</loc></url></urlset>`),
    '/': html('<html><head><title>Home</title></head><body><main><h1>Widgets</h1><p>We make widgets.</p></main></body></html>'),
    '/guide': html('<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>How to use widgets.</p></main></body></html>'),
    '/api': html('<html><head><title>API</title></head><body><main><h1>API</h1><p>The widget API.</p></main></body></html>'),
  });
  base = site.url;
  llm = await startFakeLlm((request) => {
    const name = /Page URL: \S+\/(\w*)\n/.exec(request.messages[1]!.content)?.[1] || 'home';
    return JSON.stringify({ title: `The ${name} page`, description: `All about ${name}.` });
  });
  [stack, withoutLlm] = await Promise.all([startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' }), startTestStack()]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), withoutLlm?.close()]);
  await Promise.all([site?.close(), llm?.close()]);
});

type Status = { success: boolean; status: string; data?: { llmstxt: string; llmsfulltxt?: string }; error?: string; expiresAt: string };
const finished = (id: string) => pollUntil(async () => (await stack.get(`/v1/llmstxt/${id}`)).body as unknown as Status, (s) => s.status !== 'processing', `llms.txt ${id} ended`);

describe('llms.txt', () => {
  it('maps the site, describes each page with the LLM and builds llms.txt and llms-full.txt; a page that cannot be read is left out', async () => {
    const started = await stack.post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 4, showFullText: true });
    expect(started.body).toEqual({ success: true, id: expect.any(String) });
    const status = await finished(started.body.id as string);
    expect(status.status).toBe('completed');
    expect(status.data!.llmstxt).toBe(
      ['# 127.0.0.1', '', '> All about home.', '', `- [The home page](${site.url}/): All about home.`, `- [The guide page](${site.url}/guide): All about guide.`, `- [The api page](${site.url}/api): All about api.`, ''].join('\n'),
    );
    expect(status.data!.llmsfulltxt).toContain(`## The guide page\n\nSource: ${site.url}/guide\n\n# Guide\n\nHow to use widgets.`);
    // Three pages described, the 404 not (no LLM call for it).
    expect(llm.requests).toHaveLength(3);
  });

  it('maxUrls bounds the pages read; without showFullText there is no llms-full.txt', async () => {
    const started = await stack.post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 1 });
    const status = await finished(started.body.id as string);
    expect(status).toMatchObject({ status: 'completed', data: { llmstxt: `# 127.0.0.1\n\n> All about home.\n\n- [The home page](${site.url}/): All about home.\n` } });
    expect(status.data!.llmsfulltxt).toBeUndefined();
  });

  it('needs an LLM (501 naming the settings), refuses bad input with a 400, and hides other callers’ jobs', async () => {
    const none = await withoutLlm.post('/v1/llmstxt', { url: `${site.url}/` });
    expect(none.status).toBe(501);
    expect(none.body.error).toContain('LLM_BASE_URL and LLM_MODEL');
    const bad = await stack.post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 101 });
    expect((bad.body.details as { field: string }[])[0]!.field).toBe('maxUrls');
    expect((await stack.post('/v1/llmstxt', { url: 'http://metadata.google.internal/' })).status).toBe(400);
    const started = await stack.post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 1 });
    expect((await withoutLlm.get(`/v1/llmstxt/${started.body.id as string}`)).status).toBe(404);
  });
});
