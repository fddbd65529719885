/**
 * Contract test: the official JS SDK (@mendable/firecrawl-js, pinned in package.json), unmodified,
 * its v1 client FirecrawlAppV1 driven method by method against the real stack (API, worker,
 * Temporal, PostgreSQL) and loopback sites. The SDK sends its own fields (origin, skip) and follows
 * `next` as a URL; these tests check that every v1 method this server offers works through it.
 */
import { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryError, contractHtml, LLM_ANSWER, pngSize, startSdkSites, titleSchema, TREE_PAGES, treePageMarkdown, treeUrls, type SdkSites } from './fixtures/sdk-site.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { lastPageAt, NO_LIMIT, usageAccount, usageMonth } from './helpers/usage.js';
import { meterTokens } from '../prisma/usage.js';

let sites: SdkSites;
let stack: TestStack;
let app: FirecrawlAppV1;

beforeAll(async () => {
  sites = await startSdkSites();
  stack = await startTestStack({ ...sites.llmEnv, ...sites.searchEnv });
  app = new FirecrawlAppV1({ apiKey: stack.key, apiUrl: stack.api.url });
});
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

type Failure = { success: false; error: string };
/** The SDK's answer when it is not its `{ success: false }` shape; that one fails the test with the SDK's error. */
function succeeded<T>(res: T | Failure): T {
  if ((res as { success?: unknown }).success === false) throw new Error(`the SDK answered ${JSON.stringify(res)}`);
  return res as T;
}
/** The SDK types `schema` as a zod schema; at run time it sends a JSON Schema as it is (its zodSchemaToJsonSchema passes non-zod values through). */
type ScrapeParams = NonNullable<Parameters<FirecrawlAppV1['scrapeUrl']>[1]>;
const schema = titleSchema as unknown as NonNullable<ScrapeParams['jsonOptions']>['schema'];
const sourceUrls = (docs: { metadata?: { sourceURL?: string } }[]) => docs.map((d) => String(d.metadata?.sourceURL)).sort();

/** Poll checkCrawlStatus (one page of documents) until the job has ended. */
const crawlEnded = (id: string) => pollUntil(async () => succeeded(await app.checkCrawlStatus(id)), (s) => s.status !== 'scraping', `crawl ${id} ended`);
const batchEnded = (id: string) => pollUntil(async () => succeeded(await app.checkBatchScrapeStatus(id)), (s) => s.status !== 'scraping', `batch ${id} ended`);

describe('FirecrawlAppV1.scrapeUrl', () => {
  it('returns markdown, html, rawHtml and links, with the metadata', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = succeeded(await app.scrapeUrl(url, { formats: ['markdown', 'html', 'rawHtml', 'links'] }));
    expect(res).toEqual({
      success: true,
      warning: undefined,
      error: undefined,
      markdown: `[Docs](${sites.pages.url}/docs/a)\n\n# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`,
      html: `<nav><a href="${sites.pages.url}/docs/a">Docs</a></nav><main><h1>SDK contract</h1><p>Hello from <a href="${sites.pages.url}/docs/b">page b</a>.</p></main>`,
      rawHtml: contractHtml,
      links: [`${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`],
      metadata: expect.objectContaining({ title: 'SDK contract', description: 'The page the SDK tests scrape.', language: 'en', sourceURL: url, url, statusCode: 200 }),
    });
  });

  it('returns a viewport screenshot and a full-page one as base64 PNGs', async () => {
    const url = `${sites.pages.url}/tall`;
    const view = succeeded(await app.scrapeUrl(url, { formats: ['screenshot'] }));
    const full = succeeded(await app.scrapeUrl(url, { formats: ['screenshot@fullPage'] }));
    expect(Object.keys(view).sort()).toEqual(['error', 'metadata', 'screenshot', 'success', 'warning']);
    expect(pngSize(view.screenshot!)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(full.screenshot!)).toEqual({ width: 1280, height: 3000 });
  });

  it('runs browser actions and returns their results in actions', async () => {
    const res = succeeded(
      await app.scrapeUrl(`${sites.pages.url}/load-more`, {
        formats: ['markdown'],
        actions: [
          { type: 'click', selector: '#more' },
          { type: 'wait', selector: '#loaded' },
          { type: 'scrape' },
        ],
      }),
    );
    expect(res.markdown).toContain('- Item 6');
    expect(res.actions.scrapes).toEqual([{ url: `${sites.pages.url}/load-more`, html: expect.stringContaining('<li>Item 6</li>') }]);
    expect(res.actions.javascriptReturns).toEqual([]);
  });

  it('extracts with jsonOptions into json, through the LLM endpoint', async () => {
    const before = sites.llm.requests.length;
    const res = succeeded(await app.scrapeUrl(`${sites.pages.url}/contract`, { formats: ['json'], jsonOptions: { schema, prompt: 'The page title.' } }));
    expect(res.json).toEqual(LLM_ANSWER);
    expect(res.markdown).toBeUndefined();
    expect(sites.llm.requests.length).toBe(before + 1);
    expect(JSON.stringify(sites.llm.requests.at(-1)!.response_format)).toContain(JSON.stringify(titleSchema.properties));
  });

  it('extracts with extract and the extract format into extract', async () => {
    const res = succeeded(await app.scrapeUrl(`${sites.pages.url}/contract`, { formats: ['extract'], extract: { schema, prompt: 'The page title.' } }));
    expect(res.extract).toEqual(LLM_ANSWER);
    expect(res.json).toBeUndefined();
  });
});

describe('FirecrawlAppV1 crawls', () => {
  it(`crawlUrl waits for a ${TREE_PAGES}-page crawl and returns every document, following next`, async () => {
    const res = succeeded(await app.crawlUrl(`${sites.tree.url}/`, { limit: 1000 }, 2));
    expect(res).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(res.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(res.data)).toEqual(treeUrls(sites.tree.url));
  });

  it('asyncCrawlUrl starts a crawl; checkCrawlStatus reads it in full, by getAllData and by nextURL', async () => {
    const started = succeeded(await app.asyncCrawlUrl(`${sites.tree.url}/`, { limit: 1000 }));
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${sites.tree.url}/` });
    const id = started.id!;
    const ended = await crawlEnded(id);
    expect(ended).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(ended.data).toHaveLength(100);
    expect(ended.next).toBe(`${stack.api.url}/v1/crawl/${id}?offset=100&limit=100`);

    const all = succeeded(await app.checkCrawlStatus(id, true));
    expect(all.status).toBe('completed');
    expect(all.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(all.data)).toEqual(treeUrls(sites.tree.url));

    // Page by hand with the SDK's nextURL argument, 120 at a time (limit is the SDK's argument too).
    const pages = [succeeded(await app.checkCrawlStatus(id, false, undefined, 0, 120))];
    while (pages.at(-1)!.next) pages.push(succeeded(await app.checkCrawlStatus(id, false, pages.at(-1)!.next)));
    expect(pages.map((p) => p.data.length)).toEqual([120, 120, 20]);
    expect(sourceUrls(pages.flatMap((p) => p.data))).toEqual(treeUrls(sites.tree.url));
  });

  it('cancelCrawl stops a crawl of slow pages, which then reads as cancelled', async () => {
    const { id } = succeeded(await app.asyncCrawlUrl(`${sites.slow.url}/`, { maxConcurrency: 1 }));
    expect(await app.cancelCrawl(id!)).toEqual({ success: true, message: `Crawl ${id} cancelled.` });
    const status = await crawlEnded(id!);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(30);
    expect(await app.cancelCrawl(id!)).toEqual({ success: true, message: `Crawl ${id} had already ended (cancelled).` });
  });

  it('checkCrawlErrors lists the page that failed and the URL robots.txt disallowed', async () => {
    const { id } = succeeded(await app.asyncCrawlUrl(`${sites.pages.url}/`, { scrapeOptions: { formats: ['markdown', 'links'] } }));
    const ended = await crawlEnded(id!);
    expect(ended).toMatchObject({ status: 'completed', completed: 4, total: 4, creditsUsed: 3 });
    expect(sourceUrls(ended.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`]);
    expect(ended.data.find((d) => d.metadata?.sourceURL === `${sites.pages.url}/docs/a`)?.links).toEqual([`${sites.pages.url}/docs/b`]);
    expect(await app.checkCrawlErrors(id!)).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robotsBlocked: [`${sites.pages.url}/private/x`] });
  });
});

describe('FirecrawlAppV1.mapUrl', () => {
  it('maps a site with its default arguments: seed, sitemap URLs, then page links', async () => {
    const res = await app.mapUrl(`${sites.pages.url}/`, {});
    const base = sites.pages.url;
    expect(res).toEqual({
      success: true,
      links: [`${base}/`, `${base}/docs/b`, `${base}/contract`, `${base}/docs/a`, `${base}/private/x`, `${base}/binary`],
      scrape_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });
});

describe('FirecrawlAppV1 batch scrapes', () => {
  it(`batchScrapeUrls scrapes ${TREE_PAGES} URLs and waits for every document, following next`, async () => {
    const urls = treeUrls(sites.tree.url);
    const res = succeeded(await app.batchScrapeUrls(urls, { formats: ['markdown'] }, 2));
    expect(res).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(res.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(res.data)).toEqual(urls);
    expect(res.data.find((d) => d.metadata?.sourceURL === `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));
  });

  it('asyncBatchScrapeUrls starts a batch; checkBatchScrapeStatus reads it in full and checkBatchScrapeErrors names the failed URL', async () => {
    const urls = [...treeUrls(sites.tree.url), `${sites.pages.url}/binary`];
    const started = succeeded(await app.asyncBatchScrapeUrls(urls, { formats: ['markdown'] }));
    const id = started.id!;
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${stack.api.url}/v1/batch/scrape/${id}` });
    expect(await batchEnded(id)).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES + 1, total: TREE_PAGES + 1, creditsUsed: TREE_PAGES });
    const all = succeeded(await app.checkBatchScrapeStatus(id, true));
    expect(all.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(all.data)).toEqual(treeUrls(sites.tree.url));
    expect(await app.checkBatchScrapeErrors(id)).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robotsBlocked: [] });
  });
});

describe('FirecrawlAppV1.search', () => {
  it('lists the web results with its default arguments, and scrapes them with scrapeOptions formats', async () => {
    const base = sites.pages.url;
    // The SDK reads params.origin, so it needs a params object.
    const plain = succeeded(await app.search('sdk contract', {}));
    expect(plain).toEqual({
      success: true,
      data: [
        { url: `${base}/contract`, title: 'SDK contract', description: 'The page the SDK tests scrape.', position: 1 },
        { url: `${base}/docs/a`, title: 'Docs A', description: 'The first docs page.', position: 2 },
      ],
      warning: undefined,
    });
    // The SDK sends lang "en" and country "us" by default.
    expect(Object.fromEntries(sites.searxng.searches.at(-1)!)).toMatchObject({ q: 'sdk contract', language: 'en-US', format: 'json' });
    // v1: onlyMainContent is off unless asked for.
    const scraped = succeeded(await app.search('sdk contract', { limit: 1, scrapeOptions: { formats: ['markdown'], onlyMainContent: true } }));
    expect(scraped.data).toEqual([
      expect.objectContaining({ url: `${base}/contract`, title: 'SDK contract', markdown: `# SDK contract\n\nHello from [page b](${base}/docs/b).`, metadata: expect.objectContaining({ sourceURL: `${base}/contract`, statusCode: 200 }) }),
    ]);
  });
});

describe('usage and queue (v1), for a fresh account', () => {
  it('getCreditUsage, getTokenUsage (snake_case data), their historical variants (byApiKey too) and getQueueStatus', async () => {
    const { prisma } = stack.api.deps;
    const { accountId, keys } = await usageAccount(prisma);
    const [{ id, key, prefix }] = keys as [(typeof keys)[0]];
    const mine = new FirecrawlAppV1({ apiKey: key, apiUrl: stack.api.url });
    succeeded(await mine.scrapeUrl(`${sites.pages.url}/contract`, { formats: ['markdown'] }));
    await meterTokens(prisma, { apiKeyId: id }, 1234);
    const month = usageMonth();
    const period = { billing_period_start: month.startDate, billing_period_end: month.endDate };
    expect(await mine.getCreditUsage()).toEqual({ success: true, data: { remaining_credits: NO_LIMIT, credits_used: 1, ...period } });
    expect(await mine.getTokenUsage()).toEqual({ success: true, data: { remaining_tokens: NO_LIMIT, tokens_used: 1234, ...period } });
    expect(await mine.getCreditUsageHistorical(true)).toEqual({ success: true, periods: [{ ...month, apiKey: prefix, creditsUsed: 1 }] });
    expect(await mine.getTokenUsageHistorical()).toEqual({ success: true, periods: [{ ...month, tokensUsed: 1234 }] });
    expect(await mine.getQueueStatus()).toEqual({
      success: true,
      jobsInQueue: 0,
      activeJobsInQueue: 0,
      waitingJobsInQueue: 0,
      maxConcurrency: stack.api.deps.config.WORKER_CONCURRENCY,
      mostRecentSuccess: await lastPageAt(prisma, accountId),
    });
  });
});

describe('FirecrawlAppV1.extract', () => {
  it('starts an extract job and polls it to its merged answer', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = succeeded(await app.extract([url], { prompt: 'The title', schema, showSources: true }));
    expect(res).toMatchObject({ success: true, data: LLM_ANSWER, sources: { title: [url] } });
  });
});
