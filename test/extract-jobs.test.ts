/**
 * Extract jobs (POST /v1|v2/extract) end to end: a real API and worker, fixture pages on loopback,
 * the SearXNG stand-in for web search, and chat-completions stand-ins with and without structured
 * output (response_format), answering per page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type LlmRequest } from './fixtures/llm.js';
import { startFakeSearxng, type FakeSearxng } from './fixtures/search-providers.js';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { pollUntil } from './helpers/poll.js';
import { startReceiver, waitFor } from './fixtures/receiver.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { uniqueTaskQueue } from './helpers/worker.js';
import { spawnWorker, type WorkerProcess } from './helpers/worker-process.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';

const schema = {
  type: 'object',
  properties: { company: { type: ['string', 'null'] }, people: { type: 'array', items: { type: 'string' } } },
  required: ['company', 'people'],
};
const paragraph = (word: string) => `<p>${`${word} `.repeat(300).trim()}</p>`;

let site: FixtureServer;
let searxng: FakeSearxng;
let llm: FakeLlm;
let plainLlm: FakeLlm;
let stack: TestStack;
let plainStack: TestStack;

/** What the model "finds" on each page: by the page URL in the prompt. */
function answerFor(request: LlmRequest): string {
  const prompt = request.messages.at(-1)!.content;
  if (prompt.includes('/team/a')) return JSON.stringify({ company: 'Acme', people: ['Ada', 'Bob'] });
  if (prompt.includes('/team/b')) return JSON.stringify({ company: null, people: ['Bob', 'Cy'] });
  if (prompt.includes('/long')) return JSON.stringify({ company: null, people: [/part (\d) of/.exec(prompt)?.[1] ?? '?'] });
  return JSON.stringify({ company: null, people: [] });
}

beforeAll(async () => {
  let base = '';
  site = await startFixtureServer({
    '/robots.txt': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'),
    '/sitemap.xml': (_q, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/team/a</loc></url><url><loc>${base}/team/b</loc></url><url><loc>${base}/blog/x</loc></url></urlset>`),
    '/': html('<html><head><title>Home</title></head><body><a href="/team/a">Team</a></body></html>'),
    '/team/a': html('<html><head><title>Team A</title></head><body><main><h1>Acme team</h1><p>Ada and Bob work at Acme.</p></main></body></html>'),
    '/team/b': html('<html><head><title>Team B</title></head><body><main><h1>More people</h1><p>Bob and Cy.</p></main></body></html>'),
    '/blog/x': html('<html><head><title>Blog</title></head><body><main><p>Nothing about people.</p></main></body></html>'),
    '/long': html(`<html><head><title>Long</title></head><body><main>${paragraph('alpha')}${paragraph('beta')}${paragraph('gamma')}</main></body></html>`),
    '/binary': (_q, res) => void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2])),
  });
  base = site.url;
  searxng = await startFakeSearxng({ general: [{ url: `${site.url}/team/a`, title: 'Acme team', content: 'Who works at Acme' }] });
  [llm, plainLlm] = await Promise.all([startFakeLlm(answerFor), startFakeLlm(answerFor, 'sk-test-llm-key', { refuseResponseFormat: true })]);
  const llmEnv = (fake: FakeLlm) => ({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' });
  [stack, plainStack] = await Promise.all([startTestStack({ ...llmEnv(llm), SEARXNG_ENDPOINT: searxng.url }), startTestStack({ ...llmEnv(plainLlm), EXTRACT_CHUNK_CHARS: '2500' })]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), plainStack?.close()]);
  await Promise.all([site?.close(), searxng?.close(), llm?.close(), plainLlm?.close()]);
});

type Status = { success: boolean; id: string; status: string; data?: unknown; sources?: Record<string, string[]>; error?: string; warning?: string; expiresAt: string; tokensUsed: number; creditsUsed: number };

async function run(on: TestStack, body: Record<string, unknown>, version = 'v1'): Promise<Status> {
  const started = await on.post(`/${version}/extract`, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.id as string;
  return pollUntil(async () => (await on.get(`/${version}/extract/${id}`)).body as unknown as Status, (s) => s.status !== 'processing', `extract ${id} ended`);
}

describe('extract jobs', () => {
  it('reads each page, extracts it with the LLM (JSON Schema response_format) and merges the answers, with sources', async () => {
    const before = llm.requests.length;
    const status = await run(stack, { urls: [`${site.url}/team/a`, `${site.url}/team/b`], schema, prompt: 'Who works here?', showSources: true });
    expect(status).toEqual({
      success: true,
      id: expect.any(String),
      status: 'completed',
      data: { company: 'Acme', people: ['Ada', 'Bob', 'Cy'] },
      sources: { company: [`${site.url}/team/a`], people: [`${site.url}/team/a`, `${site.url}/team/b`] },
      expiresAt: expect.any(String),
      tokensUsed: 240,
      creditsUsed: 2,
    });
    const calls = llm.requests.slice(before);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extraction', schema, strict: false } });
      expect(call.messages[1]!.content).toContain('Instruction: Who works here?');
    }
    // The main content is what the model reads.
    expect(calls.map((c) => c.messages[1]!.content).join()).toContain('Ada and Bob work at Acme.');
  });

  it('expands a pattern through a map of the site, and adds web results with enableWebSearch (v2)', async () => {
    const pattern = await run(stack, { urls: [`${site.url}/team/*`], schema }, 'v2');
    expect(pattern).toMatchObject({ status: 'completed', data: { company: 'Acme', people: ['Ada', 'Bob', 'Cy'] }, creditsUsed: 2 });
    expect(pattern.sources).toBeUndefined();
    const searched = await run(stack, { prompt: 'Who works at Acme?', enableWebSearch: true, schema, showSources: true }, 'v2');
    expect(searched).toMatchObject({ status: 'completed', data: { company: 'Acme', people: ['Ada', 'Bob'] }, sources: { company: [`${site.url}/team/a`] }, creditsUsed: 1 });
    expect(searxng.searches.at(-1)!.get('q')).toBe('Who works at Acme?');
  });

  it('a page that cannot be read is a warning; when none can, the job fails saying why', async () => {
    const some = await run(stack, { urls: [`${site.url}/team/a`, `${site.url}/binary`], schema });
    expect(some).toMatchObject({ status: 'completed', data: { company: 'Acme', people: ['Ada', 'Bob'] }, creditsUsed: 1 });
    expect(some.warning).toMatch(new RegExp(`^1 of 2 pages could not be used: ${site.url}/binary: `));
    const none = await run(stack, { urls: [`${site.url}/binary`], schema });
    expect(none).toMatchObject({ status: 'failed', creditsUsed: 0, tokensUsed: 0 });
    expect(none.error).toMatch(/^The extraction failed: no page could be read and extracted \(/);
    expect(none.data).toBeUndefined();
  });

  it('works with an endpoint without structured output (validated JSON), and cuts long pages into chunks that fit EXTRACT_CHUNK_CHARS', async () => {
    const before = plainLlm.requests.length;
    const status = await run(plainStack, { urls: [`${site.url}/long`], schema });
    expect(status).toMatchObject({ status: 'completed', data: { company: null, people: ['1', '2', '3'] }, creditsUsed: 1 });
    const calls = plainLlm.requests.slice(before);
    // Three chunks; the first call was refused with response_format and asked again without, then remembered.
    expect(calls.map((c) => c.response_format !== undefined)).toEqual(before === 0 ? [true, false, false, false] : [false, false, false]);
    for (const call of calls.filter((c) => c.response_format === undefined)) expect(call.messages[1]!.content).toContain('Return JSON matching this JSON Schema');
    expect(status.tokensUsed).toBe(360);
  });

  it('tells its webhook: extract.started, then extract.completed with the answer, signed, with the metadata and headers', async () => {
    const receiver = await startReceiver();
    try {
      const status = await run(stack, { urls: [`${site.url}/team/a`], schema, webhook: { url: `${receiver.url}/hook`, metadata: { job: 7 }, headers: { 'x-team': 'blue' } } }, 'v2');
      const deliveries = await waitFor(() => receiver.accepted().length === 2 && receiver.accepted());
      const bodies = deliveries.map((d) => JSON.parse(d.body) as Record<string, unknown>).sort((a, b) => String(a.type).localeCompare(String(b.type)));
      expect(bodies).toEqual([
        { type: 'extract.completed', extractId: status.id, deliveryId: `${status.id}-completed`, createdAt: expect.any(String), metadata: { job: 7 }, status: 'completed', data: { company: 'Acme', people: ['Ada', 'Bob'] } },
        { type: 'extract.started', extractId: status.id, deliveryId: `${status.id}-started`, createdAt: expect.any(String), metadata: { job: 7 }, status: 'processing' },
      ]);
      for (const d of deliveries) {
        expect(d.headers['x-team']).toBe('blue');
        expect(d.headers['x-pagewright-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      }
    } finally {
      await receiver.close();
    }
  });

  it('refuses what cannot run with a 400 naming the field, and hides other callers’ jobs', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ urls: [`${site.url}/team/a`] }, 'prompt'],
      [{ prompt: 'x' }, 'urls'],
      [{ prompt: 'x', urls: ['http://metadata.google.internal/x'] }, 'urls[0]'],
      [{ prompt: 'x', urls: [`${site.url}/a`], schema: { type: 'object', properties: { a: { type: 'nonsense' } } } }, 'schema'],
    ];
    for (const [body, field] of cases) {
      const res = await stack.post('/v1/extract', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body.details as { field: string }[]).map((d) => d.field)).toContain(field);
    }
    const v2 = await stack.post('/v2/extract', { prompt: 'x', urls: [`${site.url}/a`], webhook: 'http://metadata.google.internal/hook' });
    expect(v2.status).toBe(400);
    expect((v2.body.details as { field: string }[])[0]!.field).toBe('webhook');
    const noSearch = await plainStack.post('/v1/extract', { prompt: 'x', enableWebSearch: true });
    expect((noSearch.body.details as { field: string; message: string }[])[0]).toEqual({ field: 'enableWebSearch', message: expect.stringContaining('SEARXNG_ENDPOINT') });
    const ignored = await stack.post('/v1/extract', { prompt: 'x', urls: ['http://metadata.google.internal/x', `${site.url}/team/a`], ignoreInvalidURLs: true });
    expect(ignored.body).toEqual({ success: true, id: expect.any(String), invalidURLs: ['http://metadata.google.internal/x'] });
    expect((await plainStack.get(`/v1/extract/${ignored.body.id as string}`)).status).toBe(404);
  });
});

describe('extract job durability', () => {
  it('a worker killed with SIGKILL mid-job: another finishes it, no page lost, none extracted twice once stored', async () => {
    const slow = await startCrawlSite(treeSite(9, 1500));
    const calls = new Map<string, number>();
    const counting = await startFakeLlm((request) => {
      const path = /Page URL: \S+(\/p\/\d+)/.exec(request.messages[1]!.content)?.[1] ?? '?';
      calls.set(path, (calls.get(path) ?? 0) + 1);
      return JSON.stringify({ company: null, people: [path] });
    });
    const env = { LLM_BASE_URL: counting.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' };
    const api = await startTestStack({ ...env, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('extract-durable') });
    await api.worker.stop(); // the workers are child processes here
    const spawn = () => spawnWorker({ ...env, ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: api.worker.taskQueue, WORKER_CONCURRENCY: '2' });
    const first = spawn();
    let second: WorkerProcess | undefined;
    try {
      await first.ready;
      const urls = Array.from({ length: 8 }, (_, i) => `${slow.url}/p/${i + 1}`);
      const started = await api.post('/v1/extract', { urls, schema });
      const id = started.body.id as string;
      const { prisma } = api.api.deps;
      await pollUntil(() => prisma.extractPage.count({ where: { extractId: id } }), (n) => n >= 2, 'two pages stored', 60_000);
      await first.kill('SIGKILL');
      const storedBefore = (await prisma.extractPage.findMany({ where: { extractId: id }, select: { url: true } })).map((r) => new URL(r.url).pathname);
      expect(storedBefore.length).toBeLessThan(8);
      second = spawn();
      await second.ready;
      const status = await pollUntil(async () => (await api.get(`/v1/extract/${id}`)).body as unknown as Status, (s) => s.status !== 'processing', `extract ${id} ended`, 120_000);
      const errors = (await prisma.extractPage.findMany({ where: { extractId: id, NOT: { error: null } } })).map((r) => `${r.url}: ${r.error}`);
      expect(errors).toEqual([]);
      expect(status).toMatchObject({ status: 'completed', creditsUsed: 8 });
      expect(((status.data as { people: string[] }).people).sort()).toEqual(urls.map((u) => new URL(u).pathname).sort());
      expect(await prisma.extractPage.count({ where: { extractId: id } })).toBe(8);
      // A page stored before the kill was not extracted again.
      for (const path of storedBefore) expect(calls.get(path), path).toBe(1);
    } finally {
      await Promise.all([first.kill(), second?.kill()]);
      await api.api.close();
      await Promise.all([slow.close(), counting.close()]);
    }
  });
});
