/** The page cache (`maxAge`, `minAge`, `storeInCache`) end to end: real API, worker and PostgreSQL against a page that counts its visits. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { startReceiver, waitFor } from './fixtures/receiver.js';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { TEST_PEPPER } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const RETENTION_SECONDS = 200_000;
let site: FixtureServer;
let stack: TestStack;
let visits = 0;

beforeAll(async () => {
  site = await startFixtureServer({
    '/counter': (req, res, body) => {
      visits += 1;
      void html(`<html><head><title>Counter</title></head><body><p>Visit ${visits}</p></body></html>`)(req, res, body);
    },
  });
  stack = await startTestStack({ CACHE_RETENTION_SECONDS: String(RETENTION_SECONDS) });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

type Doc = { markdown?: string; html?: string; metadata: Record<string, unknown> };
type Answer = { status: number; body: Record<string, unknown> };
/** A URL of its own per test, so each starts with an empty cache. */
const page = () => `${site.url}/counter?t=${randomUUID()}`;
const scrape = (url: string, more: Record<string, unknown> = {}, as?: string): Promise<Answer> => stack.call('POST', '/v1/scrape', { url, ...more }, as);
const doc = (r: Answer) => r.body.data as Doc;
const visit = (r: Answer) => /Visit (\d+)/.exec(doc(r).markdown ?? doc(r).html ?? '')?.[1];
const hitsOf = (url: string) => site.hitsFor(new URL(url).pathname + new URL(url).search).length;

describe('maxAge: a copy young enough is served from the cache, by the API alone', () => {
  it('v1 reads the site by default (no cacheState), stores the result, and serves it to a request with maxAge', async () => {
    const url = page();
    const first = await scrape(url);
    const second = await scrape(url);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(visit(second)).toBe(String(Number(visit(first)) + 1));
    expect(doc(second).metadata.cacheState).toBeUndefined();
    expect(hitsOf(url)).toBe(2);

    const cached = await scrape(url, { maxAge: 600_000 });
    expect(cached.status).toBe(200);
    expect(visit(cached)).toBe(visit(second));
    expect(hitsOf(url)).toBe(2);
    expect(doc(cached).metadata).toMatchObject({ cacheState: 'hit', cachedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), sourceURL: url, statusCode: 200, title: 'Counter' });
    // Each request has its own scrape id, the hit too.
    expect(cached.body.scrape_id).not.toBe(second.body.scrape_id);
    expect(doc(cached).metadata.scrapeId).toBe(cached.body.scrape_id);
    expect(Date.parse(doc(cached).metadata.cachedAt as string)).toBeLessThanOrEqual(Date.now());
  });

  it('a miss reads the site and says so; the next request hits; other result-affecting options are another entry', async () => {
    const url = page();
    const miss = await scrape(url, { maxAge: 600_000 });
    expect(doc(miss).metadata).toMatchObject({ cacheState: 'miss', cachedAt: expect.any(String) });
    const hit = await scrape(url, { maxAge: 600_000 });
    expect(doc(hit).metadata.cacheState).toBe('hit');
    // cachedAt is when the document was stored: just before the miss was answered.
    expect(Date.parse(doc(hit).metadata.cachedAt as string)).toBeLessThanOrEqual(Date.parse(doc(miss).metadata.cachedAt as string));
    expect(visit(hit)).toBe(visit(miss));
    // html instead of markdown, or main content only: a different result, so a different entry.
    const asHtml = await scrape(url, { maxAge: 600_000, formats: ['html'] });
    const main = await scrape(url, { maxAge: 600_000, onlyMainContent: true });
    expect([doc(asHtml).metadata.cacheState, doc(main).metadata.cacheState]).toEqual(['miss', 'miss']);
    expect(hitsOf(url)).toBe(3);
    // A URL variant (a trailing slash) is the same page.
    const variant = await scrape(url.replace('/counter?', '/counter/?'), { maxAge: 600_000 });
    expect(doc(variant).metadata.cacheState).toBe('hit');
  });

  it('a copy older than maxAge is not served', async () => {
    const url = page();
    await scrape(url);
    await new Promise((r) => setTimeout(r, 1200));
    const stale = await scrape(url, { maxAge: 1000 });
    expect(doc(stale).metadata.cacheState).toBe('miss');
    expect(hitsOf(url)).toBe(2);
  });

  it('storeInCache: false keeps a result out of the cache', async () => {
    const url = page();
    const kept = await scrape(url, { maxAge: 600_000, storeInCache: false });
    expect(doc(kept).metadata.cacheState).toBe('miss');
    expect(doc(kept).metadata.cachedAt).toBeUndefined();
    const again = await scrape(url, { maxAge: 600_000 });
    expect(doc(again).metadata.cacheState).toBe('miss');
    expect(hitsOf(url)).toBe(2);
  });

  it('never with changeTracking, actions or custom headers: those always read the site and store nothing in the cache', async () => {
    const url = page();
    await scrape(url, { headers: { Cookie: 'session=abc' } });
    await scrape(url, { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: randomUUID() } });
    const withHeaders = await scrape(url, { maxAge: 600_000, headers: { Cookie: 'session=abc' } });
    const tracked = await scrape(url, { maxAge: 600_000, formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: randomUUID() } });
    const acted = await scrape(url, { maxAge: 600_000, actions: [{ type: 'wait', milliseconds: 1 }] });
    expect([withHeaders, tracked, acted].map((r) => [r.status, doc(r).metadata.cacheState])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
    expect(hitsOf(url)).toBe(5);
    const plain = await scrape(url, { maxAge: 600_000 });
    expect(doc(plain).metadata.cacheState).toBe('miss');
  });
});

describe('webhooks on a hit', () => {
  it('each hit delivers the cached document under its own scrape id', async () => {
    const receiver = await startReceiver();
    try {
      const url = page();
      await scrape(url);
      const hooks = { maxAge: 600_000, webhookUrls: [`${receiver.url}/hook`] };
      const [one, two] = [await scrape(url, hooks), await scrape(url, hooks)];
      expect([one.status, two.status, doc(one).metadata.cacheState, doc(two).metadata.cacheState]).toEqual([200, 200, 'hit', 'hit']);
      const deliveries = await waitFor(() => receiver.accepted().length === 2 && receiver.accepted());
      expect(deliveries.map((d) => d.headers['x-pagewright-delivery']).sort()).toEqual([one.body.scrape_id, two.body.scrape_id].sort());
      expect(deliveries.map((d) => (JSON.parse(d.body) as { data: { markdown: string } }).data.markdown)).toEqual([doc(one).markdown, doc(one).markdown]);
      expect(hitsOf(url)).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('minAge: the cache only', () => {
  it('answers from a copy at least that old; none is 404 no_cached_data, and the site is not read', async () => {
    const url = page();
    const none = await scrape(url, { minAge: 1 });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({
      success: false,
      code: 'no_cached_data',
      error: 'The page cache has no copy of this page with these options at least 1 ms old (minAge answers from the cache only). Leave out minAge to read the site.',
    });
    expect(hitsOf(url)).toBe(0);
    const stored = await scrape(url);
    await new Promise((r) => setTimeout(r, 50));
    const old = await scrape(url, { minAge: 10 });
    expect(old.status).toBe(200);
    expect([visit(old), doc(old).metadata.cacheState]).toEqual([visit(stored), 'hit']);
    const tooYoung = await scrape(url, { minAge: 3_600_000 });
    expect([tooYoung.status, tooYoung.body.code]).toEqual([404, 'no_cached_data']);
    expect(hitsOf(url)).toBe(1);
  });
});

describe('scoping, metering and lifetime', () => {
  it('a copy is its account’s: another key of the account hits, another account misses', async () => {
    const url = page();
    await scrape(url);
    const sameAccount = await createKey(stack.api.deps.prisma, 'cache-same-account', TEST_PEPPER);
    const account = await stack.api.deps.prisma.account.create({ data: { id: randomUUID(), name: 'cache-other-account' } });
    const otherAccount = await createKey(stack.api.deps.prisma, 'cache-other-account', TEST_PEPPER, account.id);
    const same = await scrape(url, { maxAge: 600_000 }, sameAccount.key);
    const other = await scrape(url, { maxAge: 600_000 }, otherAccount.key);
    expect([doc(same).metadata.cacheState, doc(other).metadata.cacheState]).toEqual(['hit', 'miss']);
    expect(hitsOf(url)).toBe(2);
  });

  it('a hit counts as a page in the account’s usage', async () => {
    const prisma = stack.api.deps.prisma;
    const account = await prisma.account.create({ data: { id: randomUUID(), name: 'cache-usage' } });
    const { key } = await createKey(prisma, 'cache-usage', TEST_PEPPER, account.id);
    const pages = async () => (await prisma.usageDay.findMany({ where: { accountId: account.id } })).reduce((n, d) => n + d.pages, 0);
    const url = page();
    await scrape(url, { maxAge: 600_000 }, key);
    expect(await pages()).toBe(1);
    const hit = await scrape(url, { maxAge: 600_000 }, key);
    expect(doc(hit).metadata.cacheState).toBe('hit');
    expect(await pages()).toBe(2);
  });

  it('a cached document lives CACHE_RETENTION_SECONDS (here longer than CRAWL_TTL_SECONDS); one kept out lives CRAWL_TTL_SECONDS', async () => {
    const cached = await scrape(page());
    const kept = await scrape(page(), { storeInCache: false });
    const lifetime = async (id: unknown) => {
      const row = await stack.api.deps.prisma.document.findUniqueOrThrow({ where: { id: String(id) }, select: { createdAt: true, expiresAt: true, cacheKey: true } });
      return { seconds: Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 1000), cached: row.cacheKey !== null };
    };
    expect(await lifetime(cached.body.scrape_id)).toEqual({ seconds: RETENTION_SECONDS, cached: true });
    expect(await lifetime(kept.body.scrape_id)).toEqual({ seconds: 86_400, cached: false });
  });
});

describe('v2: the hosted default maxAge (CACHE_DEFAULT_MAX_AGE_MS, 2 days)', () => {
  it('a second /v2/scrape of the same page is a hit; maxAge 0 reads the site', async () => {
    const url = page();
    const first = await stack.post('/v2/scrape', { url });
    const second = await stack.post('/v2/scrape', { url });
    const live = await stack.post('/v2/scrape', { url, maxAge: 0 });
    expect([first, second, live].map((r) => [r.status, (r.body.data as Doc).metadata.cacheState])).toEqual([
      [200, 'miss'],
      [200, 'hit'],
      [200, undefined],
    ]);
    expect(hitsOf(url)).toBe(2);
  });
});
