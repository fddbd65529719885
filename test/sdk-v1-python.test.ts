/**
 * Contract test: the official Python SDK (firecrawl-py, pinned in test/sdk/requirements.txt),
 * unmodified, its v1 client V1FirecrawlApp driven method by method against the real stack (API,
 * worker, Temporal, PostgreSQL) and loopback sites. Each call runs in the SDK venv as a child
 * process (test/sdk/sdk_call.py) and comes back as JSON. The SDK sends its own fields (origin, a
 * timeout on every scrape and map) and follows `next` as a URL moved onto its API host. The last
 * block drives AsyncV1FirecrawlApp (aiohttp, another user agent) through the same paging and map.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryError, contractHtml, LLM_ANSWER, PAGE_DESCRIPTION, pngSize, startSdkSites, titleSchema, TREE_PAGES, treePageMarkdown, treeUrls, type SdkSites } from './fixtures/sdk-site.js';
import { pollUntil } from './helpers/poll.js';
import { pythonSdk, type PythonSdk } from './helpers/sdk-python.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { NO_LIMIT, usageAccount, usageMonth } from './helpers/usage.js';
import { meterTokens } from '../prisma/usage.js';

let sites: SdkSites;
let stack: TestStack;
let py: PythonSdk;

beforeAll(async () => {
  sites = await startSdkSites();
  stack = await startTestStack({ ...sites.llmEnv, ...sites.searchEnv });
  py = await pythonSdk(stack.api.url, stack.key, 'V1FirecrawlApp');
});
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

type Doc = { markdown?: string; html?: string; rawHtml?: string; links?: string[]; screenshot?: string; json?: unknown; extract?: unknown; metadata: Record<string, unknown> };
type JobStatus = { success: boolean; status: string; completed: number; total: number; creditsUsed: number; expiresAt: string; next?: string; data: Doc[] };
type JobErrors = { errors: { id: string; timestamp: string; url: string; code: string; error: string }[]; robotsBlocked: string[] };

const sourceUrls = (docs: Doc[]) => docs.map((d) => String(d.metadata.sourceURL)).sort();
/** Poll the SDK's status method until the job has ended; once completed, the SDK itself reads every page of documents. */
const ended = (method: 'check_crawl_status' | 'check_batch_scrape_status', id: string) =>
  pollUntil(() => py.call<JobStatus>(method, [id]), (s) => s.status !== 'scraping', `${method}(${id}) ended`);

describe('V1FirecrawlApp.scrape_url', () => {
  it('returns markdown, html, rawHtml and links, with the metadata (and accepts the integration field)', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = await py.call('scrape_url', [url], { formats: ['markdown', 'html', 'rawHtml', 'links'], integration: 'pagewright-contract-test' });
    expect(res).toEqual({
      success: true,
      markdown: `[Docs](${sites.pages.url}/docs/a)\n\n# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`,
      html: `<nav><a href="${sites.pages.url}/docs/a">Docs</a></nav><main><h1>SDK contract</h1><p>Hello from <a href="${sites.pages.url}/docs/b">page b</a>.</p></main>`,
      rawHtml: contractHtml,
      links: [`${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`],
      metadata: expect.objectContaining({ title: 'SDK contract', description: 'The page the SDK tests scrape.', language: 'en', sourceURL: url, url, statusCode: 200 }),
    });
  });

  it('returns a viewport screenshot and a full-page one as base64 PNGs', async () => {
    const url = `${sites.pages.url}/tall`;
    const view = await py.call<Doc>('scrape_url', [url], { formats: ['screenshot'] });
    const full = await py.call<Doc>('scrape_url', [url], { formats: ['screenshot@fullPage'] });
    expect(Object.keys(view).sort()).toEqual(['metadata', 'screenshot', 'success']);
    expect(pngSize(view.screenshot!)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(full.screenshot!)).toEqual({ width: 1280, height: 3000 });
  });

  it('extracts with json_options into json, through the LLM endpoint', async () => {
    const before = sites.llm.requests.length;
    const res = await py.call<Doc>('scrape_url', [`${sites.pages.url}/contract`], { formats: ['json'], json_options: { schema: titleSchema, prompt: 'The page title.' } });
    expect(res.json).toEqual(LLM_ANSWER);
    expect(res.markdown).toBeUndefined();
    expect(sites.llm.requests.length).toBe(before + 1);
    expect(JSON.stringify(sites.llm.requests.at(-1)!.response_format)).toContain(JSON.stringify(titleSchema.properties));
  });

  it('extracts with extract and the extract format into extract', async () => {
    const res = await py.call<Doc>('scrape_url', [`${sites.pages.url}/contract`], { formats: ['extract'], extract: { schema: titleSchema, prompt: 'The page title.' } });
    expect(res.extract).toEqual(LLM_ANSWER);
    expect(res.json).toBeUndefined();
  });
});

describe('V1FirecrawlApp crawls', () => {
  it(`crawl_url waits for a ${TREE_PAGES}-page crawl and returns every document, following next`, async () => {
    const res = await py.call<JobStatus>('crawl_url', [`${sites.tree.url}/`], { limit: 1000, poll_interval: 2 });
    expect(res).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(res.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(res.data)).toEqual(treeUrls(sites.tree.url));
  });

  it('async_crawl_url starts a crawl; check_crawl_status reads all of it through next', async () => {
    const started = await py.call<{ id: string }>('async_crawl_url', [`${sites.tree.url}/`], { limit: 1000 });
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${sites.tree.url}/` });
    const status = await ended('check_crawl_status', started.id);
    expect(status).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(status.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(status.data)).toEqual(treeUrls(sites.tree.url));
  });

  it('cancel_crawl stops a crawl of slow pages, which then reads as cancelled', async () => {
    const { id } = await py.call<{ id: string }>('async_crawl_url', [`${sites.slow.url}/`], { max_concurrency: 1 });
    expect(await py.call('cancel_crawl', [id])).toEqual({ success: true, message: `Crawl ${id} cancelled.` });
    const status = await ended('check_crawl_status', id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(30);
    expect(await py.call('cancel_crawl', [id])).toEqual({ success: true, message: `Crawl ${id} had already ended (cancelled).` });
  });

  it('check_crawl_errors lists the page that failed and the URL robots.txt disallowed', async () => {
    // scrape_options goes out with the SDK's own timeout (30000) for every page.
    const { id } = await py.call<{ id: string }>('async_crawl_url', [`${sites.pages.url}/`], { scrape_options: { formats: ['markdown', 'links'] } });
    const status = await ended('check_crawl_status', id);
    expect(status).toMatchObject({ status: 'completed', completed: 4, total: 4, creditsUsed: 3 });
    expect(sourceUrls(status.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`]);
    expect(status.data.find((d) => d.metadata.sourceURL === `${sites.pages.url}/docs/a`)?.links).toEqual([`${sites.pages.url}/docs/b`]);
    expect(await py.call<JobErrors>('check_crawl_errors', [id])).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robotsBlocked: [`${sites.pages.url}/private/x`] });
  });
});

describe('V1FirecrawlApp.map_url', () => {
  it('maps a site with its default arguments (timeout 30000): seed, sitemap URLs, then page links', async () => {
    const base = sites.pages.url;
    expect(await py.call('map_url', [`${base}/`])).toEqual({
      success: true,
      links: [`${base}/`, `${base}/docs/b`, `${base}/contract`, `${base}/docs/a`, `${base}/private/x`, `${base}/binary`],
    });
  });
});

describe('V1FirecrawlApp batch scrapes', () => {
  it(`batch_scrape_urls scrapes ${TREE_PAGES} URLs and waits for every document, following next`, async () => {
    const urls = treeUrls(sites.tree.url);
    const res = await py.call<JobStatus>('batch_scrape_urls', [urls], { formats: ['markdown'], poll_interval: 2 });
    expect(res).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(res.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(res.data)).toEqual(urls);
    expect(res.data.find((d) => d.metadata.sourceURL === `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));
  });

  it('async_batch_scrape_urls starts a batch; check_batch_scrape_status reads it in full and check_batch_scrape_errors names the failed URL', async () => {
    const urls = [...treeUrls(sites.tree.url), `${sites.pages.url}/binary`];
    const started = await py.call<{ id: string }>('async_batch_scrape_urls', [urls], { formats: ['markdown'] });
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${stack.api.url}/v1/batch/scrape/${started.id}` });
    const status = await ended('check_batch_scrape_status', started.id);
    expect(status).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES + 1, total: TREE_PAGES + 1, creditsUsed: TREE_PAGES });
    expect(status.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(status.data)).toEqual(treeUrls(sites.tree.url));
    expect(await py.call<JobErrors>('check_batch_scrape_errors', [started.id])).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robotsBlocked: [] });
  });
});

describe('usage (v1), for a fresh account', () => {
  it('get_credit_usage, get_token_usage (snake_case data) and the historical variants (by_api_key too): the SDK’s models parse our answers', async () => {
    const { prisma } = stack.api.deps;
    const { keys } = await usageAccount(prisma);
    const [{ id, key, prefix }] = keys as [(typeof keys)[0]];
    const mine = await pythonSdk(stack.api.url, key, 'V1FirecrawlApp');
    await mine.call('scrape_url', [`${sites.pages.url}/contract`]);
    await meterTokens(prisma, { apiKeyId: id }, 99);
    const month = usageMonth();
    const period = { billing_period_start: month.startDate, billing_period_end: month.endDate };
    // The models keep their own fields: credits_used / tokens_used (ours) are left out.
    expect(await mine.call('get_credit_usage')).toEqual({ success: true, data: { remaining_credits: NO_LIMIT, ...period } });
    expect(await mine.call('get_token_usage')).toEqual({ success: true, data: { remaining_tokens: NO_LIMIT, ...period } });
    expect(await mine.call('get_credit_usage_historical', [], { by_api_key: true })).toEqual({ success: true, periods: [{ ...month, apiKey: prefix, creditsUsed: 1 }] });
    expect(await mine.call('get_token_usage_historical')).toEqual({ success: true, periods: [{ ...month, tokensUsed: 99 }] });
    const aio = await pythonSdk(stack.api.url, key, 'AsyncV1FirecrawlApp');
    expect(await aio.call('get_token_usage')).toEqual({ success: true, data: { remaining_tokens: NO_LIMIT, ...period } });
  });
});

describe('AsyncV1FirecrawlApp (aiohttp)', () => {
  it('async_crawl_url, then check_crawl_status reads all the documents through next', async () => {
    const aio = await pythonSdk(stack.api.url, stack.key, 'AsyncV1FirecrawlApp');
    const started = await aio.call<{ id: string }>('async_crawl_url', [`${sites.tree.url}/`], { limit: 1000 });
    const status = await pollUntil(() => aio.call<JobStatus>('check_crawl_status', [started.id]), (s) => s.status !== 'scraping', `crawl ${started.id} ended`);
    expect(status).toMatchObject({ success: true, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, creditsUsed: TREE_PAGES });
    expect(status.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(status.data)).toEqual(treeUrls(sites.tree.url));
  });

  it('map_url with its default arguments', async () => {
    const aio = await pythonSdk(stack.api.url, stack.key, 'AsyncV1FirecrawlApp');
    const base = sites.pages.url;
    expect(await aio.call('map_url', [`${base}/`])).toEqual({
      success: true,
      links: [`${base}/`, `${base}/docs/b`, `${base}/contract`, `${base}/docs/a`, `${base}/private/x`, `${base}/binary`],
    });
  });
});

describe('V1FirecrawlApp.search', () => {
  it('lists the web results, and scrapes them with scrape_options formats', async () => {
    const base = sites.pages.url;
    const plain = await py.call<{ success: boolean; data: Doc[] }>('search', ['sdk contract'], { limit: 2 });
    expect(plain).toEqual({
      success: true,
      data: [
        { url: `${base}/contract`, title: 'SDK contract', description: 'The page the SDK tests scrape.', position: 1 },
        { url: `${base}/docs/a`, title: 'Docs A', description: 'The first docs page.', position: 2 },
      ],
    });
    const scraped = await py.call<{ success: boolean; data: Doc[] }>('search', ['sdk contract'], { limit: 1, scrape_options: { formats: ['markdown'], onlyMainContent: true } });
    expect(scraped.data).toEqual([
      expect.objectContaining({ url: `${base}/contract`, title: 'SDK contract', markdown: `# SDK contract\n\nHello from [page b](${base}/docs/b).`, metadata: expect.objectContaining({ sourceURL: `${base}/contract`, statusCode: 200 }) }),
    ]);
  });
});

describe('V1FirecrawlApp.extract', () => {
  it('starts an extract job and polls it to its merged answer', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = await py.call<Record<string, unknown>>('extract', [[url]], { prompt: 'The title', schema: titleSchema, show_sources: true });
    expect(res).toMatchObject({ success: true, status: 'completed', data: LLM_ANSWER, sources: { title: [url] }, creditsUsed: 1 });
  });
});

describe('V1FirecrawlApp.generate_llms_text', () => {
  it('starts an llms.txt job and polls it until the text is built', async () => {
    const base = sites.pages.url;
    const res = await py.call<{ success: boolean; status: string; data: { llmstxt: string; llmsfulltxt?: string } }>('generate_llms_text', [`${base}/`], { max_urls: 2, show_full_text: true });
    expect(res).toMatchObject({ success: true, status: 'completed' });
    expect(res.data.llmstxt).toBe(`# 127.0.0.1\n\n> ${PAGE_DESCRIPTION.description}\n\n- [${PAGE_DESCRIPTION.title}](${base}/): ${PAGE_DESCRIPTION.description}\n- [${PAGE_DESCRIPTION.title}](${base}/docs/b): ${PAGE_DESCRIPTION.description}\n`);
    expect(res.data.llmsfulltxt).toContain(`Source: ${base}/docs/b`);
  });
});
