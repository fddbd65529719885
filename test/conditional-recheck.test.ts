/**
 * Rechecks of tracked pages are conditional (README "Change tracking"): the last version's ETag and
 * Last-Modified go out as If-None-Match and If-Modified-Since, and a 304 is `same`, answered from
 * the last version with no body to convert. Real API, worker and PostgreSQL against a loopback site
 * that honours validators and records what it was sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { crawlToEnd } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

/** Each page's body and version; the ETag is `"v<version>"`, Last-Modified a day per version. */
const pages: Record<string, { body: string; version: number }> = {};
const lastModified = (version: number) => new Date(Date.UTC(2026, 0, version)).toUTCString();

function serve(req: IncomingMessage, res: ServerResponse, validator: 'etag' | 'last-modified'): void {
  const page = pages[(req.url ?? '/').split('?')[0]!];
  if (!page) return void res.writeHead(404).end();
  const current = validator === 'etag' ? `"v${page.version}"` : lastModified(page.version);
  const asked = validator === 'etag' ? req.headers['if-none-match'] : req.headers['if-modified-since'];
  if (asked === current) return void res.writeHead(304, { [validator]: current }).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', [validator]: current }).end(`<!doctype html><html><head><title>Page</title></head><body>${page.body}</body></html>`);
}

let withEtag: FixtureServer;
let withDate: FixtureServer;
let stack: TestStack;

beforeAll(async () => {
  [withEtag, withDate, stack] = await Promise.all([
    startFixtureServer({}, (req, res) => serve(req, res, 'etag')),
    startFixtureServer({}, (req, res) => serve(req, res, 'last-modified')),
    startTestStack(),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([withEtag?.close(), withDate?.close()]);
});

type Doc = { markdown: string; html?: string; changeTracking: { changeStatus: string }; metadata: Record<string, unknown> };
const track = async (url: string, tag: string, more: Record<string, unknown> = {}) => {
  const res = await stack.post('/v1/scrape', { url, formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag }, ...more });
  expect(res.status).toBe(200);
  return res.body.data as Doc;
};
const sent = (site: FixtureServer, path: string, header: string) => site.hitsFor(path).map((h) => h.headers[header] ?? null);

describe('conditional rechecks', () => {
  it.each([
    ['ETag → If-None-Match', () => withEtag, 'if-none-match', '"v1"'],
    ['Last-Modified → If-Modified-Since', () => withDate, 'if-modified-since', lastModified(1)],
  ] as const)('%s: a 304 is same, from the last version; a changed page is read and compared', async (_label, site, header, validator) => {
    const path = `/p-${randomUUID()}`;
    const url = `${site().url}${path}`;
    const tag = randomUUID();
    pages[path] = { body: '<h1>Prices</h1><p>Pro plan: $10 a month.</p>', version: 1 };
    const first = await track(url, tag);
    const second = await track(url, tag);
    expect([first.changeTracking.changeStatus, second.changeTracking.changeStatus]).toEqual(['new', 'same']);
    expect(sent(site(), path, header)).toEqual([null, validator]);
    // The 304 had no body: the markdown is the last version's.
    expect(second.markdown).toBe(first.markdown);
    expect(second.markdown).toContain('Pro plan: $10 a month.');
    expect(second.metadata.statusCode).toBe(304);

    pages[path] = { body: '<h1>Prices</h1><p>Pro plan: $12 a month.</p>', version: 2 };
    const third = await track(url, tag);
    expect(third.changeTracking.changeStatus).toBe('changed');
    expect(third.markdown).toContain('$12');
    expect(sent(site(), path, header)).toEqual([null, validator, validator]);
    // The new version's validator is the one sent next.
    await track(url, tag);
    expect(sent(site(), path, header).at(-1)).toBe(header === 'if-none-match' ? '"v2"' : lastModified(2));
  });

  it('asks unconditionally when the answer needs more than the last version keeps (html here)', async () => {
    const path = `/p-${randomUUID()}`;
    const tag = randomUUID();
    pages[path] = { body: '<p>Same every time.</p>', version: 1 };
    await track(`${withEtag.url}${path}`, tag, { formats: ['markdown', 'html', 'changeTracking'] });
    const again = await track(`${withEtag.url}${path}`, tag, { formats: ['markdown', 'html', 'changeTracking'] });
    expect(again.changeTracking.changeStatus).toBe('same');
    expect(again.html).toContain('Same every time.');
    expect(sent(withEtag, path, 'if-none-match')).toEqual([null, null]);
  });

  it('a crawl rechecked: every page answered 304 is same, and the links kept with the last version still lead to the rest', async () => {
    const root = `/site-${randomUUID()}`;
    const children = [`${root}/a`, `${root}/b`];
    pages[root] = { body: `<h1>Home</h1>${children.map((c) => `<p><a href="${c}">${c}</a></p>`).join('')}`, version: 1 };
    for (const c of children) pages[c] = { body: `<h1>${c}</h1><p>Text of ${c}.</p>`, version: 1 };
    const options = { url: `${withEtag.url}${root}`, limit: 10, ignoreSitemap: true, scrapeOptions: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: randomUUID() } } };
    const first = await crawlToEnd(stack, options);
    const second = await crawlToEnd(stack, options);
    const statuses = (docs: typeof first.docs) => docs.map((d) => [String(d.metadata?.sourceURL), (d as unknown as Doc).changeTracking.changeStatus]).sort();
    const urls = [root, ...children].map((p) => `${withEtag.url}${p}`).sort();
    expect(statuses(first.docs)).toEqual(urls.map((u) => [u, 'new']));
    expect(statuses(second.docs)).toEqual(urls.map((u) => [u, 'same']));
    for (const p of [root, ...children]) expect(sent(withEtag, p, 'if-none-match')).toEqual([null, '"v1"']);
  });
});
