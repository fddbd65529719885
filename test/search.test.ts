/**
 * POST /v1/search and /v2/search end to end: a real API and worker, the SearXNG and Serper
 * stand-ins speaking their wire formats, results scraped from fixture pages on loopback.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { startFakeSearxng, startFakeSerper, type FakeSearxng, type FakeSerper, type SearxngItem } from './fixtures/search-providers.js';
import type { FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { TEST_PEPPER } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const SERPER_KEY = 'serper-test-key';
const METADATA_URL = 'http://metadata.google.internal/computeMetadata/v1/';

let site: FixtureServer;
let searxng: FakeSearxng;
let serper: FakeSerper;
let withSearxng: TestStack;
let withSerper: TestStack;
let without: TestStack;

const web = (n: number): SearxngItem[] => Array.from({ length: n }, (_, i) => ({ url: `https://result${i + 1}.example/page`, title: `Result ${i + 1}`, content: `About result ${i + 1}` }));

beforeAll(async () => {
  site = await startSite();
  searxng = await startFakeSearxng({
    general: [
      { url: `${site.url}/article`, title: 'Growing tomatoes', content: 'How to grow tomatoes on a balcony.' },
      { url: 'ftp://files.example/tomatoes.txt', title: 'Not a web page' },
      { url: METADATA_URL, title: 'Instance metadata', content: 'Untrusted result' },
      { url: `${site.url}/missing`, title: 'Gone', content: 'A page that is not there' },
      { url: `${site.url}/article`, title: 'Growing tomatoes (again)' },
      ...web(20),
    ],
    news: [{ url: `${site.url}/article`, title: 'Tomato news', content: 'Balconies are in.', publishedDate: '2026-11-20T08:00:00', thumbnail: 'https://img.example/t.jpg' }],
    images: [{ url: `${site.url}/article`, title: 'A plant', img_src: `${site.url}/img/plant.jpg`, resolution: '800 x 600' }],
    'it,science': web(3),
  });
  serper = await startFakeSerper(SERPER_KEY, {
    search: [{ title: 'Serper result', link: `${site.url}/article`, snippet: 'From Google.', date: 'Nov 20, 2026' }],
    news: [{ title: 'Serper news', link: `${site.url}/article`, snippet: 'News.', date: '2 days ago', imageUrl: 'https://img.example/n.jpg' }],
    images: [{ title: 'Serper image', link: `${site.url}/article`, imageUrl: `${site.url}/img/plant.jpg`, imageWidth: 800, imageHeight: 600 }],
  });
  [withSearxng, withSerper, without] = await Promise.all([
    startTestStack({ SEARXNG_ENDPOINT: searxng.url }),
    startTestStack({ SERPER_API_KEY: SERPER_KEY, SERPER_BASE_URL: serper.url }),
    startTestStack({ RATE_LIMIT_SCRAPE_PER_MIN: '10' }),
  ]);
});
afterAll(async () => {
  await Promise.all([withSearxng?.close(), withSerper?.close(), without?.close()]);
  await Promise.all([site?.close(), searxng?.close(), serper?.close()]);
});

type Result = Record<string, unknown> & { url: string; metadata?: Record<string, unknown>; markdown?: string };
const last = () => searxng.searches.at(-1)!;

describe('search through SearXNG', () => {
  it('v2 answers web, news and images results in the hosted shape, asking SearXNG for each category', async () => {
    const before = searxng.searches.length;
    const res = await withSearxng.post('/v2/search', { query: 'grow tomatoes', limit: 2, sources: ['web', { type: 'news' }, 'images'], country: 'de' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      creditsUsed: 1,
      data: {
        // Untrusted results: only http(s) URLs are listed; positions count what is listed.
        web: [
          { url: `${site.url}/article`, title: 'Growing tomatoes', description: 'How to grow tomatoes on a balcony.', position: 1 },
          { url: METADATA_URL, title: 'Instance metadata', description: 'Untrusted result', position: 2 },
        ],
        news: [{ url: `${site.url}/article`, title: 'Tomato news', snippet: 'Balconies are in.', date: '2026-11-20T08:00:00', imageUrl: 'https://img.example/t.jpg', position: 1 }],
        images: [{ url: `${site.url}/article`, imageUrl: `${site.url}/img/plant.jpg`, title: 'A plant', imageWidth: 800, imageHeight: 600, position: 1 }],
      },
    });
    const asked = searxng.searches.slice(before).map((p) => Object.fromEntries(p));
    // News and images had one result on page 1: page 2 is asked for, brings nothing new, and ends it.
    expect(asked.map((p) => `${p.categories} ${p.pageno}`).sort()).toEqual(['general 1', 'images 1', 'images 2', 'news 1', 'news 2']);
    for (const p of asked) expect(p).toMatchObject({ q: 'grow tomatoes', format: 'json' });
    // country alone names no language.
    expect(asked.every((p) => p.language === undefined)).toBe(true);
  });

  it('finds nothing for the hosted provider exchange (alexandria), as the MCP server asks for it beside web', async () => {
    const before = searxng.searches.length;
    expect((await withSearxng.post('/v2/search', { query: 'x', sources: ['alexandria'] })).body).toEqual({ success: true, data: {}, creditsUsed: 0 });
    expect(searxng.searches.length).toBe(before);
    const both = await withSearxng.post('/v2/search', { query: 'x', limit: 1, sources: ['web', { type: 'alexandria' }] });
    expect(both.body).toEqual({ success: true, data: { web: [{ url: `${site.url}/article`, title: 'Growing tomatoes', description: 'How to grow tomatoes on a balcony.', position: 1 }] }, creditsUsed: 1 });
  });

  it('reads further pages until the limit, and folds repeated URLs', async () => {
    const before = searxng.searches.length;
    const res = await withSearxng.post('/v1/search', { query: 'many', limit: 12, lang: 'en', country: 'us' });
    expect(res.status).toBe(200);
    const data = res.body.data as Result[];
    // 25 results: an ftp one, the article twice; page 1 gives 8 web URLs, page 2 the rest.
    expect(data.map((r) => r.url)).toEqual([`${site.url}/article`, METADATA_URL, `${site.url}/missing`, ...web(9).map((r) => r.url)]);
    expect(data.map((r) => r.position)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(searxng.searches.slice(before).map((p) => [p.get('pageno'), p.get('language')])).toEqual([
      ['1', 'en-US'],
      ['2', 'en-US'],
    ]);
  });

  it('narrows the query with categories and domains, and passes tbs as SearXNG’s time_range', async () => {
    const res = await withSearxng.post('/v2/search', { query: 'tomatoes', categories: ['github', { type: 'pdf' }], excludeDomains: ['spam.example', 'ads.example'], tbs: 'qdr:w' });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(last())).toMatchObject({ q: 'tomatoes site:github.com filetype:pdf -site:spam.example -site:ads.example', time_range: 'week' });
    await withSearxng.post('/v2/search', { query: 'tomatoes', includeDomains: ['a.example', 'b.example'] });
    expect(last().get('q')).toBe('tomatoes (site:a.example OR site:b.example)');
  });

  it('refuses what it cannot do with a 400 naming the field', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v2/search', { query: 'x', tbs: 'cdr:1,cd_min:1/1/2026' }, 'tbs'],
      ['/v2/search', { query: 'x', categories: ['research'] }, 'categories[0]'],
      ['/v2/search', { query: 'x', includeDomains: ['a.example'], excludeDomains: ['b.example'] }, 'excludeDomains'],
      ['/v2/search', { query: 'x', limit: 101 }, 'limit'],
      ['/v2/search', { query: '   ' }, 'query'],
      ['/v2/search', { query: 'x', scrapeOptions: { formats: ['images@2x'] } }, 'scrapeOptions.formats[0]'],
      ['/v1/search', { query: 'x', sources: ['news'] }, 'sources'],
      ['/v1/search', { query: 'x', scrapeOptions: { formats: ['markdown'], waitFor: 20_000, timeout: 30_000 } }, 'scrapeOptions.waitFor'],
    ];
    for (const [path, body, field] of cases) {
      const res = await withSearxng.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body.details as { field: string }[]).map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
  });

  it('scrapes each result with scrapeOptions through the page pipeline; a URL it may not fetch is listed unscraped', async () => {
    const prisma = withSearxng.api.deps.prisma;
    const account = await prisma.account.create({ data: { id: randomUUID(), name: 'search-usage' } });
    const { key } = await createKey(prisma, 'search-usage', TEST_PEPPER, account.id);
    const pages = async () => (await prisma.usageDay.findMany({ where: { accountId: account.id } })).reduce((n, d) => n + d.pages, 0);
    const metadataHits = site.hits.length;

    const res = await withSearxng.call('POST', '/v1/search', { query: 'tomatoes', limit: 3, scrapeOptions: { formats: ['markdown'], onlyMainContent: true } }, key);
    expect(res.status).toBe(200);
    const [article, metadata, missing] = res.body.data as Result[];
    expect(article).toMatchObject({ url: `${site.url}/article`, title: 'Growing tomatoes', description: 'How to grow tomatoes on a balcony.', position: 1 });
    expect(article!.markdown).toContain('# Growing tomatoes');
    expect(article!.markdown).not.toContain('Contact');
    expect(article!.metadata).toMatchObject({ sourceURL: `${site.url}/article`, statusCode: 200, title: 'Gardening Notes' });
    expect(metadata).toEqual({ url: METADATA_URL, title: 'Instance metadata', description: 'Untrusted result', position: 2, metadata: { sourceURL: METADATA_URL, error: expect.stringContaining('cloud metadata'), errorCode: 'url_not_allowed' } });
    expect(missing).toMatchObject({ url: `${site.url}/missing`, position: 3, metadata: { statusCode: 404 } });
    expect(missing!.markdown).toContain('No such page.');
    expect(res.body.warning).toBe('1 of 3 results could not be scraped; each says why in metadata.error.');
    expect(site.hits.length - metadataHits).toBe(2);
    // The search is 1 credit, each scraped page 1.
    expect(await pages()).toBe(3);

    const dropped = await withSearxng.call('POST', '/v1/search', { query: 'tomatoes', limit: 3, ignoreInvalidURLs: true }, key);
    // Left out, not replaced: the provider's first three, less the one this server may not fetch.
    expect((dropped.body.data as Result[]).map((r) => [r.url, r.position])).toEqual([
      [`${site.url}/article`, 1],
      [`${site.url}/missing`, 2],
    ]);
    expect(await pages()).toBe(4);
  });

  it('v2 scrapes web and news results, served from the page cache when young enough (v2 default maxAge)', async () => {
    const body = { query: 'tomatoes', limit: 1, sources: ['web', 'news'], scrapeOptions: { formats: ['markdown', 'links'] } };
    const first = await withSearxng.post('/v2/search', body);
    expect(first.status).toBe(200);
    const data = first.body.data as { web: Result[]; news: Result[] };
    expect(data.web[0]).toMatchObject({ url: `${site.url}/article`, title: 'Growing tomatoes', position: 1 });
    expect(data.web[0]!.markdown).toContain('# Growing tomatoes');
    expect(data.news[0]).toMatchObject({ url: `${site.url}/article`, title: 'Tomato news', snippet: 'Balconies are in.', position: 1 });
    expect(data.news[0]!.links).toContain(`${site.url}/guide/water`);
    expect(first.body.creditsUsed).toBe(3);
    const second = await withSearxng.post('/v2/search', body);
    expect(((second.body.data as { web: Result[] }).web[0]!.metadata!).cacheState).toBe('hit');
  });
});

describe('search through Serper', () => {
  it('asks Serper with Google’s parameters and answers the hosted shape', async () => {
    const res = await withSerper.post('/v2/search', { query: 'tomatoes', limit: 3, sources: ['web', 'news', 'images'], country: 'DE', location: 'Berlin, Germany', tbs: 'qdr:d' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      web: [{ url: `${site.url}/article`, title: 'Serper result', description: 'From Google.', position: 1 }],
      news: [{ url: `${site.url}/article`, title: 'Serper news', snippet: 'News.', date: '2 days ago', imageUrl: 'https://img.example/n.jpg', position: 1 }],
      images: [{ url: `${site.url}/article`, imageUrl: `${site.url}/img/plant.jpg`, title: 'Serper image', imageWidth: 800, imageHeight: 600, position: 1 }],
    });
    expect(serper.searches.map((s) => s.path).sort()).toEqual(['images', 'news', 'search']);
    for (const s of serper.searches) expect(s.body).toEqual({ q: 'tomatoes', num: 3, gl: 'de', tbs: 'qdr:d', location: 'Berlin, Germany' });
  });

  it('a provider refusing the request is a 502 saying so, without the key', async () => {
    const stack = await startTestStack({ SERPER_API_KEY: 'wrong-key', SERPER_BASE_URL: serper.url });
    try {
      const res = await stack.post('/v1/search', { query: 'tomatoes' });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, code: 'search_failed', error: 'The search provider (serper) answered HTTP 403: {"message":"Unauthorized.","statusCode":403}' });
      expect(JSON.stringify(res.body)).not.toContain('wrong-key');
    } finally {
      await stack.close();
    }
  });
});

describe('without a provider', () => {
  it('answers 501 naming the setting to set', async () => {
    for (const path of ['/v1/search', '/v2/search']) {
      const res = await without.post(path, { query: 'tomatoes' });
      expect(res.status).toBe(501);
      expect(res.body).toMatchObject({ success: false, code: 'not_supported' });
      expect(res.body.error).toContain('set SEARXNG_ENDPOINT');
    }
  });

  it('a search that scrapes counts against the scrape rate limit as 1 + limit', async () => {
    // RATE_LIMIT_SCRAPE_PER_MIN=10 here; the two searches above counted 1 each.
    const res = await without.post('/v2/search', { query: 'tomatoes', limit: 7, scrapeOptions: {} });
    expect(res.status).toBe(501);
    expect((await without.post('/v1/scrape', { url: `${site.url}/article` })).status).toBe(429);
  });
});
