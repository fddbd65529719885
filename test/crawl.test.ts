/** Crawl rules end to end: real API, worker, Temporal and PostgreSQL against a loopback site whose hit log is the witness. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from './fixtures/crawl-site.js';
import { freePort } from '../scripts/infra/ready.js';
import { allDocuments, crawlToEnd, pathsOf, startCrawl, waitForCrawl } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let stack: TestStack;

const pages: Record<string, string[]> = {
  '/': ['/a', '/a/', '/a#section', '{base}/a', '/blog/post-1', '/blog/post-2', '/blogroll', '/about', '/private/secret', '/deep/1/2/3', '/chain/1', 'http://external.example/x', 'mailto:x@y.z'],
  '/a': ['/'],
  '/blog/post-1': ['/blog/post-2'],
  '/blog/post-2': [],
  '/blogroll': [],
  '/about': [],
  '/private/secret': [],
  '/deep/1/2/3': [],
  '/chain/1': ['/chain/2'],
  '/chain/2': ['/chain/3'],
  '/chain/3': [],
  '/from-sitemap': [],
  '/docs/start': ['/docs/guide', '/about'],
  '/docs/guide': [],
};

beforeAll(async () => {
  [site, stack] = await Promise.all([
    startCrawlSite({ pages, robots: 'User-agent: *\nDisallow: /private\n\nSitemap: {base}/sitemap.xml\n', sitemap: ['{base}/from-sitemap', '{base}/about'] }),
    startTestStack(),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const everyPage = ['/', '/a', '/about', '/blog/post-1', '/blog/post-2', '/blogroll', '/chain/1', '/chain/2', '/chain/3', '/deep/1/2/3'];

describe('POST /v1/crawl', () => {
  it('crawls the site once per page, folding URL variants, obeying robots.txt, counting skips', async () => {
    const before = site.hits.length;
    const { id, status, docs } = await crawlToEnd(stack, { url: site.url });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(status.status).toBe('completed');
    expect(pathsOf(docs)).toEqual(everyPage);
    expect(status).toMatchObject({ completed: 10, total: 10, creditsUsed: 10, failed: 0 });
    expect(status.skipped).toEqual({ robots_blocked: 1, external_domain: 1 });
    const hits = site.hits.slice(before);
    for (const path of everyPage) expect(hits.filter((h) => h.path === path)).toHaveLength(1);
    expect(hits.filter((h) => h.path === '/private/secret')).toHaveLength(0);
    expect(hits.filter((h) => h.path === '/sitemap.xml')).toHaveLength(0); // ignoreSitemap defaults to true
    expect(docs[0]!.markdown).toContain('# Page ');
  });

  it('fetches robots-disallowed pages when ignoreRobotsTxt is set', async () => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, ignoreRobotsTxt: true });
    expect(pathsOf(docs)).toEqual([...everyPage, '/private/secret'].sort());
    expect(status.skipped).toEqual({ external_domain: 1 });
  });

  it('seeds from the sitemap when ignoreSitemap is false', async () => {
    const { docs } = await crawlToEnd(stack, { url: site.url, ignoreSitemap: false });
    expect(pathsOf(docs)).toEqual([...everyPage, '/from-sitemap'].sort());
  });

  it('stops at limit exactly, counting the rest as limit_reached', async () => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, limit: 4 });
    expect(docs).toHaveLength(4);
    expect(status).toMatchObject({ status: 'completed', completed: 4, total: 4 });
    expect(status.skipped.limit_reached).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['a hosted-API regex', '^/blog/.*'],
    ['a glob', '/blog/*'],
    ['a relative globstar', 'blog/**'],
  ])('includePaths as %s keeps the blog posts only (and the seed)', async (_label, pattern) => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, includePaths: [pattern] });
    expect(pathsOf(docs)).toEqual(['/', '/blog/post-1', '/blog/post-2']);
    expect(status.skipped.include_mismatch).toBeGreaterThanOrEqual(6);
  });

  it('excludePaths rejects matching pages', async () => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, excludePaths: ['/blog/*', '^/chain/'] });
    expect(pathsOf(docs)).toEqual(['/', '/a', '/about', '/blogroll', '/deep/1/2/3']);
    expect(status.skipped.exclude_match).toBe(3);
  });

  it('rejects an invalid pattern with 400 naming it', async () => {
    const res = await stack.post('/v1/crawl', { url: site.url, includePaths: ['/ok/*', '^/blog/(unclosed'] });
    expect(res.status).toBe(400);
    expect((res.body.details as { field: string }[]).map((d) => d.field)).toEqual(['includePaths[1]']);
  });

  it('refuses costly patterns with 400 naming the first one, on crawl and map, and the API stays responsive', async () => {
    const heavy = Array.from({ length: 40 }, (_, i) => `${'[a-z]{1000}'.repeat(45)}${i}`);
    const [crawl, map, health] = await Promise.all([
      stack.post('/v1/crawl', { url: site.url, excludePaths: heavy }),
      stack.post('/v1/map', { url: site.url, includePaths: heavy }),
      stack.get('/health'),
    ]);
    expect(crawl.status).toBe(400);
    expect(crawl.body.details).toEqual([{ field: 'excludePaths[0]', message: expect.stringContaining('repeats too much') }]);
    expect(map.status).toBe(400);
    expect(map.body.details).toEqual([{ field: 'includePaths[0]', message: expect.stringContaining('repeats too much') }]);
    expect(health.status).toBe(200);
  });

  it('maxDepth bounds the path depth below the seed', async () => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, maxDepth: 1 });
    expect(pathsOf(docs)).toEqual(['/', '/a', '/about', '/blogroll']);
    expect(status.skipped.depth_limit).toBeGreaterThanOrEqual(4);
  });

  it('maxDiscoveryDepth bounds the link hops from the seed', async () => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, maxDiscoveryDepth: 2 });
    expect(pathsOf(docs)).toEqual(everyPage.filter((p) => p !== '/chain/3'));
    expect(status.skipped.discovery_depth_limit).toBe(1);
  });

  it('stays under the seed path unless allowBackwardLinks', async () => {
    const narrow = await crawlToEnd(stack, { url: `${site.url}/docs/start` });
    expect(pathsOf(narrow.docs)).toEqual(['/docs/guide', '/docs/start']);
    expect(narrow.status.skipped.backward_link).toBe(1);
    const wide = await crawlToEnd(stack, { url: `${site.url}/docs/start`, allowBackwardLinks: true });
    expect(pathsOf(wide.docs)).toEqual(['/about', '/docs/guide', '/docs/start']);
  });

  it('pages through every document exactly once with next', async () => {
    const id = await startCrawl(stack, { url: site.url });
    await waitForCrawl(stack, id);
    const first = await stack.get(`/v1/crawl/${id}?limit=3`);
    expect(first.body.next).toBe(`/v1/crawl/${id}?offset=3&limit=3`);
    expect((first.body.data as unknown[]).length).toBe(3);
    const docs = await allDocuments(stack, id, 3);
    expect(docs).toHaveLength(10);
    expect(new Set(pathsOf(docs)).size).toBe(10);
    const last = await stack.get(`/v1/crawl/${id}?offset=9&limit=3`);
    expect(last.body.next).toBeUndefined();
    expect((last.body.data as unknown[]).length).toBe(1);
  });

  it('answers 404 for an unknown crawl id, and for another caller', async () => {
    const res = await stack.get('/v1/crawl/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const malformed = await stack.get('/v1/crawl/not-an-id');
    expect(malformed.status).toBe(400);
  });

  it('fails a crawl whose seed robots.txt forbids', async () => {
    const blocked = await startCrawlSite({ pages: { '/': [] }, robots: 'User-agent: *\nDisallow: /\n' });
    try {
      const { status, docs } = await crawlToEnd(stack, { url: blocked.url });
      expect(status.status).toBe('failed');
      expect(status.error).toMatch(/robots\.txt of 127\.0\.0\.1:\d+ disallows the seed URL/);
      expect(docs).toEqual([]);
      expect(blocked.pageHits('/')).toBe(0);
    } finally {
      await blocked.close();
    }
  });

  it('fails a crawl whose seed cannot be fetched', async () => {
    const { status } = await crawlToEnd(stack, { url: `${site.url}/no-such-page-returns-404-but-still-a-page` });
    // A 404 page is still a page: the crawl completes with it.
    expect(status.status).toBe('completed');
    const dead = await crawlToEnd(stack, { url: `http://127.0.0.1:${await freePort()}/` });
    expect(dead.status.status).toBe('failed');
    expect(dead.status.error).toMatch(/^The site 127\.0\.0\.1:\d+ could not be reached to read robots\.txt \(.+\)\. Retry later, or set ignoreRobotsTxt: true\.$/);
    const deadNoRobots = await crawlToEnd(stack, { url: `http://127.0.0.1:${await freePort()}/`, ignoreRobotsTxt: true });
    expect(deadNoRobots.status.status).toBe('failed');
    expect(deadNoRobots.status.error).toMatch(/^The seed page could not be crawled: Every way of fetching /);
  });
});
