/**
 * Batch scrape (the hosted v1 API's, which the official SDKs call), the errors endpoints and how
 * `next` is written: real API, worker, Temporal and PostgreSQL against loopback sites.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, waitFor, type Receiver } from './fixtures/receiver.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { allDocuments, pathsOf, startCrawl, waitForCrawl, type CrawlStatusBody } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const page = (title: string, links: string[] = []) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Text of ${title}.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
const send = (res: ServerResponse, body: string): void => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
};

let site: FixtureServer;
let stack: TestStack;
let hooks: Receiver;

beforeAll(async () => {
  [site, stack, hooks] = await Promise.all([
    startFixtureServer({
      '/robots.txt': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n'),
      '/': (_q, res) => send(res, page('home', ['/a', '/private/x'])),
      '/a': (_q, res) => send(res, page('a', ['/b'])),
      '/b': (_q, res) => send(res, page('b')),
      '/c': (_q, res) => send(res, page('c')),
      '/binary': (_q, res) => void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3])),
      '/slow': (_q, res) => void setTimeout(() => send(res, page('slow')), 3000),
    }),
    startTestStack(),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), hooks?.close()]);
});

async function waitForBatch(id: string): Promise<CrawlStatusBody> {
  for (;;) {
    const res = await stack.get(`/v1/batch/scrape/${id}?limit=1`);
    const body = res.body as unknown as CrawlStatusBody;
    if (body.status !== 'scraping') return body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function batchDocuments(id: string, limit = 100): Promise<CrawlStatusBody['data']> {
  const docs: CrawlStatusBody['data'] = [];
  let path: string | undefined = `/v1/batch/scrape/${id}?limit=${limit}`;
  while (path) {
    const body = (await stack.get(path)).body as unknown as CrawlStatusBody;
    docs.push(...body.data);
    path = body.next;
  }
  return docs;
}

describe('POST /v1/batch/scrape', () => {
  it('scrapes exactly the URLs given, each once, following no links, and reads like a crawl', async () => {
    const before = site.hits.length;
    const res = await stack.post('/v1/batch/scrape', { urls: [`${site.url}/a`, `${site.url}/b/`, `${site.url}/c`, `${site.url}/a#again`], formats: ['markdown', 'links'] });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    expect(res.body).toEqual({ success: true, id, url: `/v1/batch/scrape/${id}` });
    const status = await waitForBatch(id);
    expect(status).toMatchObject({ status: 'completed', completed: 3, total: 3, creditsUsed: 3, failed: 0 });
    const docs = await batchDocuments(id, 2);
    expect(pathsOf(docs)).toEqual(['/a', '/b/', '/c']);
    expect(docs.every((d) => typeof d.markdown === 'string' && Array.isArray(d.links))).toBe(true);
    const hits = site.hits.slice(before).map((h) => h.path).sort();
    // No robots.txt for a batch, and no link followed (/a links to /b, which was asked for anyway).
    expect(hits).toEqual(['/a', '/b/', '/c']);
    // The JS SDK polls a batch at /v1/crawl/{id}: it answers there too.
    const viaCrawl = await stack.get(`/v1/crawl/${id}?limit=1`);
    expect(viaCrawl.body).toMatchObject({ status: 'completed', total: 3 });
    expect(viaCrawl.body.next).toBe(`/v1/crawl/${id}?offset=1&limit=1`);
  });

  it('answers 400 naming each invalid URL, or scrapes the rest and lists them with ignoreInvalidURLs', async () => {
    const bad = await stack.post('/v1/batch/scrape', { urls: [`${site.url}/a`, 'ftp://example.com/x', 'http://user:pw@example.com/'] });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[]).map((d) => d.field)).toEqual(['urls[1]', 'urls[2]']);
    const lenient = await stack.post('/v1/batch/scrape', { urls: [`${site.url}/a`, 'ftp://example.com/x'], ignoreInvalidURLs: true });
    expect(lenient.status).toBe(200);
    expect(lenient.body.invalidURLs).toEqual(['ftp://example.com/x']);
    expect(await waitForBatch(lenient.body.id as string)).toMatchObject({ status: 'completed', total: 1, completed: 1 });
    const none = await stack.post('/v1/batch/scrape', { urls: ['ftp://example.com/x'], ignoreInvalidURLs: true });
    expect(none.status).toBe(400);
    expect(none.body.details).toEqual([{ field: 'urls', message: 'has no valid URL to scrape' }]);
    const unknown = await stack.post('/v1/batch/scrape', { urls: [`${site.url}/a`], colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ field: 'colour', message: 'is not a recognised field' }]);
  });

  it('records why pages failed, readable by GET and by DELETE (which cancels nothing)', async () => {
    const res = await stack.post('/v1/batch/scrape', { urls: [`${site.url}/binary`, `${site.url}/c`] });
    const id = res.body.id as string;
    expect(await waitForBatch(id)).toMatchObject({ status: 'completed', completed: 2, failed: 1, creditsUsed: 1 });
    const errors = await stack.get(`/v1/batch/scrape/${id}/errors`);
    expect(errors.status).toBe(200);
    expect(errors.body).toEqual({
      errors: [{ id: expect.stringMatching(/^\d+$/), timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), url: `${site.url}/binary`, code: 'unconvertible_content', error: 'Cannot convert content of type application/octet-stream to markdown' }],
      robotsBlocked: [],
    });
    const byDelete = await fetch(`${stack.api.url}/v1/batch/scrape/${id}/errors`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.key}` } });
    expect(await byDelete.json()).toEqual(errors.body);
    expect((await stack.get(`/v1/batch/scrape/${id}?limit=1`)).body.status).toBe('completed');
  });

  it('is cancelled at once, and only batch endpoints find batches', async () => {
    const res = await stack.post('/v1/batch/scrape', { urls: [`${site.url}/slow`, `${site.url}/slow?2`, `${site.url}/slow?3`], maxConcurrency: 1 });
    const id = res.body.id as string;
    const cancel = await fetch(`${stack.api.url}/v1/batch/scrape/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.key}` } });
    expect(await cancel.json()).toEqual({ success: true, message: `Batch scrape ${id} cancelled.` });
    expect((await waitForBatch(id)).status).toBe('cancelled');
    const crawlId = await startCrawl(stack, { url: site.url, limit: 1 });
    expect((await stack.get(`/v1/batch/scrape/${crawlId}`)).status).toBe(404);
  });

  it('sends batch_scrape.* events to a hosted-style webhook, filtered by its events and with its headers', async () => {
    const res = await stack.post('/v1/batch/scrape', {
      urls: [`${site.url}/a`, `${site.url}/c`],
      webhook: { url: `${hooks.url}/hook`, headers: { 'x-team': 'blue' }, metadata: { run: 7 }, events: ['completed'] },
    });
    const id = res.body.id as string;
    await waitForBatch(id);
    const delivered = await waitFor(() => hooks.accepted().filter((h) => JSON.parse(h.body).batchId === id).length >= 1 && hooks.accepted().filter((h) => JSON.parse(h.body).batchId === id));
    await new Promise((r) => setTimeout(r, 1500)); // anything else would have arrived by now
    const mine = hooks.accepted().filter((h) => JSON.parse(h.body).batchId === id);
    expect(mine.map((h) => h.headers['x-pagewright-event'])).toEqual(['batch_scrape.completed']);
    expect(delivered[0]!.headers['x-team']).toBe('blue');
    expect(JSON.parse(delivered[0]!.body)).toMatchObject({ type: 'batch_scrape.completed', batchId: id, metadata: { run: 7 }, status: 'completed', completed: 2 });
  });
});

describe('GET /v1/crawl/{id}/errors', () => {
  it('lists the URLs robots.txt kept the crawl from', async () => {
    const id = await startCrawl(stack, { url: site.url });
    await waitForCrawl(stack, id);
    const errors = await stack.get(`/v1/crawl/${id}/errors`);
    expect(errors.body).toEqual({ errors: [], robotsBlocked: [`${site.url}/private/x`] });
  });
});

describe('next links', () => {
  it('are paths for most callers and URLs on AUTH_URL for the official SDKs, which fetch them as URLs', async () => {
    const id = await startCrawl(stack, { url: site.url });
    await waitForCrawl(stack, id);
    const get = async (ua: string, query = '?limit=1') => (await (await fetch(`${stack.api.url}/v1/crawl/${id}${query}`, { headers: { authorization: `Bearer ${stack.key}`, 'user-agent': ua } })).json()) as CrawlStatusBody;
    expect((await get('curl/8.5.0')).next).toBe(`/v1/crawl/${id}?offset=1&limit=1`);
    expect((await get('axios/1.18.0')).next).toBe(`${stack.api.url}/v1/crawl/${id}?offset=1&limit=1`);
    expect((await get('python-requests/2.34.2')).next).toBe(`${stack.api.url}/v1/crawl/${id}?offset=1&limit=1`);
    expect((await get('Python/3.11 aiohttp/3.14.5')).next).toBe(`${stack.api.url}/v1/crawl/${id}?offset=1&limit=1`);
    // The JS SDK pages with `skip`.
    const skipped = await get('axios/1.18.0', '?skip=1&limit=1');
    expect(skipped.next).toBe(`${stack.api.url}/v1/crawl/${id}?offset=2&limit=1`);
    // The last page has no `next` key at all (the JS SDK follows it while the key exists).
    const last = await get('axios/1.18.0', '?offset=2&limit=100');
    expect('next' in last).toBe(false);
    expect(await allDocuments(stack, id, 1)).toHaveLength(3);
  });
});
