/**
 * Contract test: the official JS SDK (@mendable/firecrawl-js, pinned in package.json), unmodified,
 * its default client `Firecrawl` (the hosted v2 API) driven method by method against the real stack
 * and loopback sites: scrape in every format offered, map, crawl (waiter, start + status with
 * paging, cancel, errors) and batch scrape (the same), plus the clear errors for what is not offered.
 */
import Firecrawl, { SdkError, type FormatOption } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM_PROMPT } from '../activities/llm/summary.js';
import { binaryError, contractHtml, CRAWL_PROPOSAL, galleryAttributes, galleryImages, gallerySelectors, LLM_ANSWER, pngSize, startSdkSites, SUMMARY_ANSWER, titleSchema, TREE_PAGES, treePageMarkdown, treeUrls, type SdkSites } from './fixtures/sdk-site.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { lastPageAt, NO_LIMIT, usageAccount, usageMonth } from './helpers/usage.js';
import { meterTokens } from '../prisma/usage.js';

let sites: SdkSites;
let stack: TestStack;
let app: Firecrawl;

beforeAll(async () => {
  sites = await startSdkSites();
  stack = await startTestStack({ ...sites.llmEnv, ...sites.searchEnv });
  app = new Firecrawl({ apiKey: stack.key, apiUrl: stack.api.url });
});
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

const sourceUrls = (docs: { metadata?: { sourceURL?: string } }[]) => docs.map((d) => String(d.metadata?.sourceURL)).sort();
const crawlEnded = (id: string) => pollUntil(() => app.getCrawlStatus(id, { autoPaginate: false }), (s) => s.status !== 'scraping', `crawl ${id} ended`);
/** The SDK's error for a call that should fail. */
async function sdkError(call: Promise<unknown>): Promise<SdkError> {
  const err = await call.then(
    (value) => new Error(`the SDK returned ${JSON.stringify(value).slice(0, 300)}`),
    (e: unknown) => e,
  );
  if (!(err instanceof SdkError)) throw err;
  return err;
}

describe('Firecrawl.scrape (v2)', () => {
  it('returns markdown, html, rawHtml and links, with the metadata; onlyMainContent is on by default', async () => {
    const url = `${sites.pages.url}/contract`;
    const doc = await app.scrape(url, { formats: ['markdown', 'html', 'rawHtml', 'links'] });
    expect(doc).toEqual({
      markdown: `# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`,
      html: `<main><h1>SDK contract</h1><p>Hello from <a href="${sites.pages.url}/docs/b">page b</a>.</p></main>`,
      rawHtml: contractHtml,
      links: [`${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`],
      metadata: expect.objectContaining({ title: 'SDK contract', description: 'The page the SDK tests scrape.', language: 'en', sourceURL: url, url, statusCode: 200 }),
    });
    const whole = await app.scrape(url, { formats: ['markdown'], onlyMainContent: false });
    expect(whole.markdown).toBe(`[Docs](${sites.pages.url}/docs/a)\n\n# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`);
  });

  it('returns a viewport screenshot and, with the screenshot object, a full-page one', async () => {
    const url = `${sites.pages.url}/tall`;
    const view = await app.scrape(url, { formats: ['screenshot'] });
    const full = await app.scrape(url, { formats: [{ type: 'screenshot', fullPage: true }] });
    expect(Object.keys(view).sort()).toEqual(['metadata', 'screenshot']);
    expect(pngSize(view.screenshot!)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(full.screenshot!)).toEqual({ width: 1280, height: 3000 });
  });

  it('extracts with the json format object into json, through the LLM endpoint', async () => {
    const before = sites.llm.requests.length;
    const doc = await app.scrape(`${sites.pages.url}/contract`, { formats: [{ type: 'json', schema: titleSchema, prompt: 'The page title.' }] });
    expect(doc.json).toEqual(LLM_ANSWER);
    expect(doc.markdown).toBeUndefined();
    expect(sites.llm.requests.length).toBe(before + 1);
    expect(JSON.stringify(sites.llm.requests.at(-1)!.response_format)).toContain(JSON.stringify(titleSchema.properties));
  });

  it('returns images, a summary through the LLM endpoint and an AttributesFormat’s values, typed as the SDK types them', async () => {
    const before = sites.llm.requests.length;
    const url = `${sites.pages.url}/gallery`;
    const doc = await app.scrape(url, { formats: ['images', 'summary', { type: 'attributes', selectors: gallerySelectors }] });
    expect(doc).toEqual({ images: galleryImages(sites.pages.url), summary: SUMMARY_ANSWER, attributes: galleryAttributes, metadata: expect.objectContaining({ title: 'Gallery', sourceURL: url }) });
    const typed: { images?: string[]; summary?: string; attributes?: { selector: string; attribute: string; values: string[] }[] } = doc;
    expect(typed.attributes?.[0]?.values).toEqual(['a-1', 'b-2']);
    expect(sites.llm.requests.length).toBe(before + 1);
    const sent = sites.llm.requests.at(-1)!;
    expect([sent.response_format, sent.messages[0]]).toEqual([undefined, { role: 'system', content: SUMMARY_SYSTEM_PROMPT }]);
    const { markdown } = await app.scrape(url, { formats: ['markdown'] });
    expect(sent.messages[1]).toEqual({ role: 'user', content: `Page URL: ${url}\n\nPage content (markdown):\n${markdown}` });
  });

  it('tracks changes with the changeTracking format object: new, then same', async () => {
    const url = `${sites.pages.url}/docs/a`;
    const formats: FormatOption[] = ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: `v2-js-${Date.now()}` }];
    const first = await app.scrape(url, { formats });
    const second = await app.scrape(url, { formats });
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null, visibility: 'visible' });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', previousScrapeAt: expect.stringMatching(/^\d{4}-/) });
  });

  it('runs browser actions: the page after them, and their results in actions', async () => {
    const doc = await app.scrape(`${sites.pages.url}/load-more`, {
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'wait', selector: '#loaded' },
        { type: 'executeJavascript', script: 'document.querySelectorAll("li").length' },
      ],
    });
    expect(doc.markdown).toContain('- Item 6');
    expect(doc.actions).toEqual({ screenshots: [], scrapes: [], javascriptReturns: [{ type: 'number', value: 6 }], pdfs: [] });
  });

  it('serves a second scrape from the page cache with maxAge: cacheState and cachedAt', async () => {
    const url = `${sites.pages.url}/contract?cache=js-${Date.now()}`;
    const first = await app.scrape(url, { formats: ['markdown'], maxAge: 600_000 });
    const second = await app.scrape(url, { formats: ['markdown'], maxAge: 600_000 });
    expect(first.metadata).toMatchObject({ cacheState: 'miss', cachedAt: expect.any(String) });
    expect(second.metadata).toMatchObject({ cacheState: 'hit', cachedAt: expect.any(String), sourceURL: url });
    expect(second.markdown).toBe(first.markdown);
    expect(sites.pages.hitsFor(new URL(url).pathname + new URL(url).search)).toHaveLength(1);
  });

  it('refuses a format this server does not offer with a 400 naming it', async () => {
    const err = await sdkError(app.scrape(`${sites.pages.url}/contract`, { formats: ['markdown', 'branding'] }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.details).toEqual([{ field: 'formats[1]', message: 'the "branding" format is not offered by this server (offered: markdown, html, rawHtml, links, images, screenshot, summary, changeTracking, json, attributes)' }]);
  });
});

describe('Firecrawl.map (v2)', () => {
  it('maps a site into link objects: seed, sitemap URLs, then page links', async () => {
    const base = sites.pages.url;
    const res = await app.map(`${base}/`);
    expect(res.links).toEqual([`${base}/`, `${base}/docs/b`, `${base}/contract`, `${base}/docs/a`, `${base}/private/x`, `${base}/binary`].map((url) => ({ url })));
  });

  it('lists only the sitemap with sitemap "only", and follows search and limit', async () => {
    const base = sites.pages.url;
    expect((await app.map(`${base}/`, { sitemap: 'only' })).links).toEqual([{ url: `${base}/docs/b` }, { url: `${base}/contract` }]);
    expect((await app.map(`${base}/`, { search: 'docs', limit: 2 })).links).toEqual([{ url: `${base}/docs/b` }, { url: `${base}/docs/a` }]);
  });
});

describe('Firecrawl crawls (v2)', () => {
  it(`crawl waits for a ${TREE_PAGES}-page crawl and returns every document, following next`, async () => {
    const job = await app.crawl(`${sites.tree.url}/`, { limit: 1000, pollInterval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(job.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(job.data)).toEqual(treeUrls(sites.tree.url));
    expect(job.data.find((d) => d.metadata?.sourceURL === `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));
  });

  it('startCrawl answers with the v2 status URL; getCrawlStatus reads one page with next, or everything', async () => {
    const started = await app.startCrawl(`${sites.tree.url}/`, { limit: 1000 });
    expect(started).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${stack.api.url}/v2/crawl/${started.id}` });
    const ended = await crawlEnded(started.id);
    expect(ended).toMatchObject({ status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES, next: `${stack.api.url}/v2/crawl/${started.id}?skip=100&limit=100` });
    expect(ended.data).toHaveLength(100);
    const all = await app.getCrawlStatus(started.id);
    expect(all.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(all.data)).toEqual(treeUrls(sites.tree.url));
    const capped = await app.getCrawlStatus(started.id, { maxPages: 1 });
    expect(capped.data).toHaveLength(200);
  });

  it('cancelCrawl stops a crawl of slow pages; cancelling a completed crawl is a 409; getActiveCrawls lists it while it runs', async () => {
    const { id } = await app.startCrawl(`${sites.slow.url}/`, { maxConcurrency: 1 });
    const running = await app.getActiveCrawls();
    expect(running.success).toBe(true);
    expect(running.crawls.find((c) => c.id === id)).toEqual({ id, teamId: expect.any(String), url: `${sites.slow.url}/`, options: expect.objectContaining({ url: `${sites.slow.url}/`, maxConcurrency: 1 }) });
    expect(await app.cancelCrawl(id)).toBe(true);
    expect((await app.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(id);
    const status = await crawlEnded(id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(30);
    expect(await app.cancelCrawl(id)).toBe(true);

    const { id: doneId } = await app.startCrawl(`${sites.pages.url}/docs/b`, { limit: 1 });
    await crawlEnded(doneId);
    const err = await sdkError(app.cancelCrawl(doneId));
    expect(err.status).toBe(409);
    expect(err.message).toBe(`The crawl ${doneId} has already completed: there is nothing to cancel.`);
  });

  it('getCrawlErrors lists the page that failed and the URL robots.txt disallowed; sitemap "skip" and crawlEntireDomain apply', async () => {
    const { id } = await app.startCrawl(`${sites.pages.url}/docs/a`, { sitemap: 'skip', crawlEntireDomain: true, scrapeOptions: { formats: ['markdown', 'links'] } });
    const ended = await crawlEnded(id);
    expect(ended).toMatchObject({ status: 'completed', completed: 4, total: 4, creditsUsed: 3 });
    expect(sourceUrls(ended.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`]);
    expect(ended.data.find((d) => d.metadata?.sourceURL === `${sites.pages.url}/docs/a`)?.links).toEqual([`${sites.pages.url}/docs/b`]);
    expect(await app.getCrawlErrors(id)).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robotsBlocked: [`${sites.pages.url}/private/x`] });
  });

  it('crawls the seed and the sitemap URLs alone with sitemap "only"', async () => {
    const job = await app.crawl(`${sites.pages.url}/`, { sitemap: 'only', pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(sourceUrls(job.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/contract`, `${sites.pages.url}/docs/b`]);
  });
});

describe('Firecrawl batch scrapes (v2)', () => {
  it(`batchScrape scrapes ${TREE_PAGES} URLs and waits for every document, following next`, async () => {
    const urls = treeUrls(sites.tree.url);
    const job = await app.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(sourceUrls(job.data)).toEqual(urls);
    expect(job.data.find((d) => d.metadata?.sourceURL === `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));
  });

  it('startBatchScrape, getBatchScrapeStatus, getBatchScrapeErrors and cancelBatchScrape', async () => {
    const urls = [`${sites.pages.url}/contract`, `${sites.pages.url}/binary`];
    const started = await app.startBatchScrape(urls, { options: { formats: [{ type: 'json', prompt: 'The page title.' }] } });
    expect(started).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${stack.api.url}/v2/batch/scrape/${started.id}`, invalidURLs: undefined });
    const ended = await pollUntil(() => app.getBatchScrapeStatus(started.id), (s) => s.status !== 'scraping', 'batch ended');
    expect(ended).toMatchObject({ status: 'completed', completed: 2, total: 2, creditsUsed: 1 });
    expect(ended.data).toEqual([expect.objectContaining({ json: LLM_ANSWER })]);
    expect(await app.getBatchScrapeErrors(started.id)).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robotsBlocked: [] });

    const slow = await app.startBatchScrape(Array.from({ length: 10 }, (_, i) => `${sites.slow.url}/p/${i + 1}`), { maxConcurrency: 1 });
    expect(await app.cancelBatchScrape(slow.id)).toBe(true);
    const cancelled = await pollUntil(() => app.getBatchScrapeStatus(slow.id), (s) => s.status !== 'scraping', 'batch cancelled');
    expect(cancelled.status).toBe('cancelled');
  });
});

describe('Firecrawl.search (v2)', () => {
  it('answers web and news results, and with scrapeOptions scraped documents', async () => {
    const base = sites.pages.url;
    const plain = await app.search('sdk contract', { sources: ['web', 'news'], limit: 1 });
    expect({ web: plain.web, news: plain.news }).toEqual({
      web: [{ url: `${base}/contract`, title: 'SDK contract', description: 'The page the SDK tests scrape.', position: 1 }],
      news: [{ url: `${base}/docs/b`, title: 'Docs B news', snippet: 'News about docs.', date: '2026-11-20T08:00:00', position: 1 }],
    });
    const scraped = await app.search('sdk contract', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.web).toEqual([
      expect.objectContaining({ url: `${base}/contract`, title: 'SDK contract', position: 1, markdown: `# SDK contract\n\nHello from [page b](${base}/docs/b).`, metadata: expect.objectContaining({ sourceURL: `${base}/contract`, statusCode: 200 }) }),
      expect.objectContaining({ url: `${base}/docs/a`, title: 'Docs A', position: 2, markdown: expect.stringContaining('Docs A') }),
    ]);
  });
});

describe('usage and queue (v2), for a fresh account', () => {
  it('getCreditUsage, getTokenUsage, their historical variants (byApiKey too), getQueueStatus and getConcurrency parse our answers', async () => {
    const { prisma } = stack.api.deps;
    const { accountId, keys } = await usageAccount(prisma);
    const [{ id, key, prefix }] = keys as [(typeof keys)[0]];
    const mine = new Firecrawl({ apiKey: key, apiUrl: stack.api.url });
    await mine.scrape(`${sites.pages.url}/contract`);
    await meterTokens(prisma, { apiKeyId: id }, 77);
    const month = usageMonth();
    const workers = stack.api.deps.config.WORKER_CONCURRENCY;
    expect(await mine.getCreditUsage()).toEqual({ remainingCredits: NO_LIMIT, planCredits: undefined, billingPeriodStart: month.startDate, billingPeriodEnd: month.endDate });
    expect(await mine.getTokenUsage()).toEqual({ remainingTokens: NO_LIMIT, planTokens: undefined, billingPeriodStart: month.startDate, billingPeriodEnd: month.endDate });
    expect(await mine.getCreditUsageHistorical()).toEqual({ success: true, periods: [{ ...month, creditsUsed: 1 }] });
    expect(await mine.getCreditUsageHistorical(true)).toEqual({ success: true, periods: [{ ...month, apiKey: prefix, creditsUsed: 1 }] });
    expect(await mine.getTokenUsageHistorical(true)).toEqual({ success: true, periods: [{ ...month, apiKey: prefix, tokensUsed: 77 }] });
    expect(await mine.getQueueStatus()).toEqual({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: workers, mostRecentSuccess: await lastPageAt(prisma, accountId) });
    expect(await mine.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: workers });
  });
});

describe('Firecrawl.crawlParamsPreview (v2)', () => {
  it('returns the options the LLM proposed from a prompt, checked by the crawl schema', async () => {
    const url = `${sites.pages.url}/`;
    expect(await app.crawlParamsPreview(url, 'Only the docs')).toEqual({ url, ...CRAWL_PROPOSAL });
  });
});

describe('Firecrawl.extract (v2)', () => {
  it('starts an extract job and waits for its merged answer, with sources', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = await app.extract({ urls: [url], schema: titleSchema, prompt: 'The title', showSources: true, pollInterval: 1 });
    expect(res).toEqual({ success: true, id: expect.any(String), status: 'completed', data: LLM_ANSWER, sources: { title: [url] }, expiresAt: expect.any(String), tokensUsed: 120, creditsUsed: 1 });
  });
});

describe('what this server does not offer, through the SDK', () => {
  it('the agent gets 501 not_supported with a message saying so', async () => {
    for (const call of [app.startAgent({ prompt: 'x' })]) {
      const err = await sdkError(call as Promise<unknown>);
      expect(err.status).toBe(501);
      expect(err.code).toBe('not_supported');
      expect(err.message).toMatch(/ is not offered by this server: .*This server offers scrape, crawl, batch scrape, map and search\.$/);
    }
  });
});
