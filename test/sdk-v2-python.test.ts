/**
 * Contract test: the official Python SDK (firecrawl-py, pinned in test/sdk/requirements.txt),
 * unmodified, its default client `Firecrawl` (the hosted v2 API) driven method by method against
 * the real stack and loopback sites: scrape in every format offered, map, crawl (waiter, start +
 * status with paging, cancel, errors) and batch scrape (the same), plus the clear errors for what is
 * not offered; the last block drives `AsyncFirecrawl` (httpx). Each call runs in the SDK venv as a
 * child process (test/sdk/sdk_call.py) and comes back as JSON, its models by their snake_case field
 * names. The SDK sends what test/sdk-v2-js.test.ts's SDK does not: its default scrape options
 * (onlyMainContent, skipTlsVerification, maxAge, fastMode, ...) whenever any scrape option is
 * given, every crawl boolean (ignoreRobotsTxt, regexOnFullURL, ...) and `null`s inside a JsonFormat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryError, contractHtml, CRAWL_PROPOSAL, galleryImages, gallerySelectors, LLM_ANSWER, pngSize, startSdkSites, SUMMARY_ANSWER, titleSchema, TREE_PAGES, treePageMarkdown, treeUrls, type SdkSites } from './fixtures/sdk-site.js';
import { pollUntil } from './helpers/poll.js';
import { pythonSdk, raised, type PythonSdk } from './helpers/sdk-python.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { lastPageAt, NO_LIMIT, usageAccount, usageMonth } from './helpers/usage.js';
import { meterTokens } from '../prisma/usage.js';

let sites: SdkSites;
let stack: TestStack;
let py: PythonSdk;

beforeAll(async () => {
  sites = await startSdkSites();
  stack = await startTestStack({ ...sites.llmEnv, ...sites.searchEnv });
  py = await pythonSdk(stack.api.url, stack.key, 'Firecrawl');
});
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

/** The SDK's Document, dumped: snake_case fields (raw_html, change_tracking; metadata.source_url, status_code). */
type Doc = {
  markdown?: string;
  html?: string;
  raw_html?: string;
  links?: string[];
  images?: string[];
  summary?: string;
  screenshot?: string;
  json?: unknown;
  change_tracking?: Record<string, unknown>;
  metadata: Record<string, unknown>;
};
/** CrawlJob (with `id`) and BatchScrapeJob (without). */
type Job = { id?: string; status: string; completed: number; total: number; credits_used: number; expires_at?: string; next?: string; data: Doc[] };
type Started = { id: string; url: string };
type JobErrors = { errors: { id: string; timestamp: string; url: string; code: string; error: string }[]; robots_blocked: string[] };

const uuid = /^[0-9a-f-]{36}$/;
const sourceUrls = (docs: Doc[]) => docs.map((d) => String(d.metadata.source_url)).sort();
const docAt = (docs: Doc[], url: string) => docs.find((d) => d.metadata.source_url === url);
/** One page of status (no auto-paging) until the job has ended. */
const ended = (method: 'get_crawl_status' | 'get_batch_scrape_status', id: string, sdk = py) =>
  pollUntil(() => sdk.call<Job>(method, [id], { pagination_config: { auto_paginate: false } }), (s) => s.status !== 'scraping', `${method}(${id}) ended`);
const notOffered = /^[^:]+ is not offered by this server: .*This server offers scrape, crawl, batch scrape, map and search\.$/;

describe('Firecrawl.scrape (v2)', () => {
  it('returns markdown, html, raw_html and links, with the metadata; only_main_content is on by default', async () => {
    const url = `${sites.pages.url}/contract`;
    const doc = await py.call<Doc>('scrape', [url], { formats: ['markdown', 'html', 'raw_html', 'links'] });
    expect(doc).toEqual({
      markdown: `# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`,
      html: `<main><h1>SDK contract</h1><p>Hello from <a href="${sites.pages.url}/docs/b">page b</a>.</p></main>`,
      raw_html: contractHtml,
      links: [`${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`],
      metadata: expect.objectContaining({ title: 'SDK contract', description: 'The page the SDK tests scrape.', language: 'en', source_url: url, url, status_code: 200 }),
    });
    const whole = await py.call<Doc>('scrape', [url], { formats: ['markdown'], only_main_content: false });
    expect(whole.markdown).toBe(`[Docs](${sites.pages.url}/docs/a)\n\n# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`);
    // No option at all: the bare body, the server's defaults (markdown, main content).
    expect((await py.call<Doc>('scrape', [url])).markdown).toBe(doc.markdown);
  });

  it('returns a viewport screenshot and, with a ScreenshotFormat, a full-page one', async () => {
    const url = `${sites.pages.url}/tall`;
    const view = await py.call<Doc>('scrape', [url], { formats: ['screenshot'] });
    const full = await py.call<Doc>('scrape', [url], { formats: [{ $model: 'ScreenshotFormat', full_page: true }] });
    expect(Object.keys(view).sort()).toEqual(['metadata', 'screenshot']);
    expect(pngSize(view.screenshot!)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(full.screenshot!)).toEqual({ width: 1280, height: 3000 });
  });

  it('extracts with a JsonFormat (sent with checkPromptInjection null) into json, through the LLM endpoint', async () => {
    const before = sites.llm.requests.length;
    const doc = await py.call<Doc>('scrape', [`${sites.pages.url}/contract`], { formats: [{ $model: 'JsonFormat', schema: titleSchema, prompt: 'The page title.' }] });
    expect(doc.json).toEqual(LLM_ANSWER);
    expect(doc.markdown).toBeUndefined();
    expect(sites.llm.requests.length).toBe(before + 1);
    expect(JSON.stringify(sites.llm.requests.at(-1)!.response_format)).toContain(JSON.stringify(titleSchema.properties));
  });

  it('returns images and a summary through the LLM endpoint; an attributes format given as a dict is answered, which its Document model drops', async () => {
    const before = sites.llm.requests.length;
    const url = `${sites.pages.url}/gallery`;
    const doc = await py.call<Doc>('scrape', [url], { formats: ['images', 'summary', { type: 'attributes', selectors: gallerySelectors }] });
    // firecrawl-py 4.53.2's Document has no `attributes` field (pydantic drops unknown keys): images and summary come through.
    expect(doc).toEqual({ images: galleryImages(sites.pages.url), summary: SUMMARY_ANSWER, metadata: expect.objectContaining({ title: 'Gallery', source_url: url }) });
    expect(sites.llm.requests.length).toBe(before + 1);
    expect(sites.llm.requests.at(-1)!.response_format).toBeUndefined();
  });

  it('an AttributesFormat model reaches the server without its selectors (the SDK sends its bare type): a 400 saying what to send', async () => {
    const err = await raised(py.call('scrape', [`${sites.pages.url}/gallery`], { formats: [{ $model: 'AttributesFormat', selectors: [{ $model: 'AttributeSelector', ...gallerySelectors[0] }] }] }));
    const message = 'the attributes format needs its selectors: { "type": "attributes", "selectors": [{ "selector": "...", "attribute": "..." }] }';
    expect(err.outcome).toMatchObject({ type: 'BadRequestError', status: 400, code: 'invalid_request' });
    expect(err.outcome.body).toMatchObject({ details: [{ field: 'formats[0]', message }] });
  });

  it('tracks changes with a ChangeTrackingFormat: new, then same', async () => {
    const url = `${sites.pages.url}/docs/a`;
    const formats = ['markdown', { $model: 'ChangeTrackingFormat', modes: ['git-diff'], tag: `v2-py-${Date.now()}` }];
    const first = await py.call<Doc>('scrape', [url], { formats });
    const second = await py.call<Doc>('scrape', [url], { formats });
    expect(first.change_tracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null, visibility: 'visible' });
    expect(second.change_tracking).toMatchObject({ changeStatus: 'same', previousScrapeAt: expect.stringMatching(/^\d{4}-/) });
  });

  it('runs browser actions given as its action models: the page after them, and their results in actions', async () => {
    const doc = await py.call<Doc & { actions: unknown }>('scrape', [`${sites.pages.url}/load-more`], {
      formats: ['markdown'],
      actions: [
        { $model: 'ClickAction', selector: '#more' },
        { $model: 'WaitAction', selector: '#loaded' },
        { $model: 'ScreenshotAction', full_page: true },
        { $model: 'ExecuteJavascriptAction', script: 'document.querySelectorAll("li").length' },
      ],
    });
    expect(doc.markdown).toContain('- Item 6');
    expect(doc.actions).toEqual({ screenshots: [expect.any(String)], scrapes: [], javascriptReturns: [{ type: 'number', value: 6 }], pdfs: [] });
  });

  it('serves a second scrape from the page cache with max_age: cache_state and cached_at', async () => {
    const url = `${sites.pages.url}/contract?cache=py-${Date.now()}`;
    const first = await py.call<Doc>('scrape', [url], { formats: ['markdown'], max_age: 600_000 });
    const second = await py.call<Doc>('scrape', [url], { formats: ['markdown'], max_age: 600_000 });
    expect(first.metadata).toMatchObject({ cache_state: 'miss', cached_at: expect.any(String) });
    expect(second.metadata).toMatchObject({ cache_state: 'hit', cached_at: expect.any(String), source_url: url });
    expect(sites.pages.hitsFor(new URL(url).pathname + new URL(url).search)).toHaveLength(1);
  });

  it('refuses a format this server does not offer: BadRequestError, status 400, our code and details', async () => {
    const err = await raised(py.call('scrape', [`${sites.pages.url}/contract`], { formats: ['markdown', 'branding'] }));
    const message = 'the "branding" format is not offered by this server (offered: markdown, html, rawHtml, links, images, screenshot, summary, changeTracking, json, attributes)';
    expect(err.outcome).toMatchObject({ type: 'BadRequestError', status: 400, code: 'invalid_request' });
    expect(err.outcome.body).toEqual({ success: false, code: 'invalid_request', error: `Invalid request body: formats[1] ${message}`, details: [{ field: 'formats[1]', message }] });
    expect(err.outcome.error).toMatch(/^Bad Request: Failed to scrape\. Invalid request body: formats\[1\] the "branding" format is not offered by this server .* - \[\{'field': 'formats\[1\]', /);
  });
});

describe('Firecrawl.map (v2)', () => {
  it('maps a site into link results: seed, sitemap URLs, then page links', async () => {
    const base = sites.pages.url;
    expect(await py.call('map', [`${base}/`])).toEqual({
      links: [`${base}/`, `${base}/docs/b`, `${base}/contract`, `${base}/docs/a`, `${base}/private/x`, `${base}/binary`].map((url) => ({ url })),
    });
  });

  it('lists only the sitemap with sitemap "only", and follows search and limit (sitemap "include" sent with them)', async () => {
    const base = sites.pages.url;
    expect(await py.call('map', [`${base}/`], { sitemap: 'only' })).toEqual({ links: [{ url: `${base}/docs/b` }, { url: `${base}/contract` }] });
    expect(await py.call('map', [`${base}/`], { search: 'docs', limit: 2 })).toEqual({ links: [{ url: `${base}/docs/b` }, { url: `${base}/docs/a` }] });
  });
});

describe('Firecrawl crawls (v2)', () => {
  it(`crawl waits for a ${TREE_PAGES}-page crawl and returns every document, following next`, async () => {
    const job = await py.call<Job>('crawl', [`${sites.tree.url}/`], { limit: 1000, poll_interval: 1 });
    expect(job).toMatchObject({ id: expect.stringMatching(uuid), status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, credits_used: TREE_PAGES, expires_at: expect.stringMatching(/^\d{4}-/) });
    expect(job.next).toBeUndefined();
    expect(job.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(job.data)).toEqual(treeUrls(sites.tree.url));
    expect(docAt(job.data, `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));
  }, 120_000);

  it('start_crawl answers with the v2 status URL; get_crawl_status reads one page with next, everything, or what PaginationConfig allows', async () => {
    const started = await py.call<Started>('start_crawl', [`${sites.tree.url}/`], { limit: 1000 });
    const statusUrl = `${stack.api.url}/v2/crawl/${started.id}`;
    expect(started).toEqual({ id: expect.stringMatching(uuid), url: statusUrl });
    const first = await ended('get_crawl_status', started.id);
    expect(first).toMatchObject({ id: started.id, status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, credits_used: TREE_PAGES, next: `${statusUrl}?skip=100&limit=100` });
    expect(first.data).toHaveLength(100);

    const second = await py.call<Job>('get_crawl_status_page', [first.next]);
    expect(second).toMatchObject({ id: started.id, status: 'completed', next: `${statusUrl}?skip=200&limit=100` });
    const third = await py.call<Job>('get_crawl_status_page', [second.next]);
    expect(third.next).toBeUndefined();
    expect([second.data.length, third.data.length]).toEqual([100, TREE_PAGES - 200]);
    expect(sourceUrls([...first.data, ...second.data, ...third.data])).toEqual(treeUrls(sites.tree.url));

    const all = await py.call<Job>('get_crawl_status', [started.id]);
    expect(all.next).toBeUndefined();
    expect(all.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(all.data)).toEqual(treeUrls(sites.tree.url));
    expect((await py.call<Job>('get_crawl_status', [started.id], { pagination_config: { max_pages: 1 } })).data).toHaveLength(200);
    expect((await py.call<Job>('get_crawl_status', [started.id], { pagination_config: { max_results: 150 } })).data).toHaveLength(150);
  }, 120_000);

  it('cancel_crawl stops a crawl of slow pages (True); on a completed crawl the server answers 409 and the SDK returns False; get_active_crawls lists it while it runs', async () => {
    const { id } = await py.call<Started>('start_crawl', [`${sites.slow.url}/`], { max_concurrency: 1 });
    type Active = { success: boolean; crawls: Array<{ id: string; url: string }> };
    const running = await py.call<Active>('get_active_crawls', []);
    expect(running.success).toBe(true);
    expect(running.crawls.find((c) => c.id === id)).toMatchObject({ id, url: `${sites.slow.url}/` });
    expect(await py.call('cancel_crawl', [id])).toBe(true);
    expect((await py.call<Active>('get_active_crawls', [])).crawls.map((c) => c.id)).not.toContain(id);
    const status = await ended('get_crawl_status', id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(30);
    expect(await py.call('cancel_crawl', [id])).toBe(true);

    const { id: doneId } = await py.call<Started>('start_crawl', [`${sites.pages.url}/docs/b`], { limit: 1 });
    expect((await ended('get_crawl_status', doneId)).status).toBe('completed');
    expect(await py.call('cancel_crawl', [doneId])).toBe(false);
  });

  it('get_crawl_errors lists the page that failed and the URL robots.txt disallowed; sitemap "skip", crawl_entire_domain and scrape_options apply', async () => {
    const { id } = await py.call<Started>('start_crawl', [`${sites.pages.url}/docs/a`], { sitemap: 'skip', crawl_entire_domain: true, scrape_options: { formats: ['markdown', 'links'] } });
    const status = await ended('get_crawl_status', id);
    expect(status).toMatchObject({ status: 'completed', completed: 4, total: 4, credits_used: 3 });
    expect(sourceUrls(status.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`]);
    expect(docAt(status.data, `${sites.pages.url}/docs/a`)?.links).toEqual([`${sites.pages.url}/docs/b`]);
    expect(await py.call<JobErrors>('get_crawl_errors', [id])).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robots_blocked: [`${sites.pages.url}/private/x`] });
  });

  it('crawls the seed and the sitemap URLs alone with sitemap "only"', async () => {
    const job = await py.call<Job>('crawl', [`${sites.pages.url}/`], { sitemap: 'only', poll_interval: 1 });
    expect(job.status).toBe('completed');
    expect(sourceUrls(job.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/contract`, `${sites.pages.url}/docs/b`]);
  });
});

describe('Firecrawl batch scrapes (v2)', () => {
  it(`batch_scrape scrapes ${TREE_PAGES} URLs and waits for every document, following next`, async () => {
    const urls = treeUrls(sites.tree.url);
    const job = await py.call<Job>('batch_scrape', [urls], { formats: ['markdown'], poll_interval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, credits_used: TREE_PAGES });
    expect(job.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(job.data)).toEqual(urls);
    expect(docAt(job.data, `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));
  }, 120_000);

  it('start_batch_scrape, then get_batch_scrape_status one page with next, everything, or max_pages', async () => {
    const urls = treeUrls(sites.tree.url);
    const started = await py.call<Started>('start_batch_scrape', [urls]);
    const statusUrl = `${stack.api.url}/v2/batch/scrape/${started.id}`;
    expect(started).toEqual({ id: expect.stringMatching(uuid), url: statusUrl });
    const first = await ended('get_batch_scrape_status', started.id);
    expect(first).toMatchObject({ status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, credits_used: TREE_PAGES, next: `${statusUrl}?skip=100&limit=100` });
    expect(first.data).toHaveLength(100);
    const all = await py.call<Job>('get_batch_scrape_status', [started.id]);
    expect(all.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(all.data)).toEqual(urls);
    expect((await py.call<Job>('get_batch_scrape_status', [started.id], { pagination_config: { max_pages: 1 } })).data).toHaveLength(200);
  }, 120_000);

  it('get_batch_scrape_errors and cancel_batch_scrape: True on a running batch, a 409 FirecrawlError on a completed one', async () => {
    const urls = [`${sites.pages.url}/contract`, `${sites.pages.url}/binary`];
    const started = await py.call<Started>('start_batch_scrape', [urls], { formats: [{ type: 'json', prompt: 'The page title.' }] });
    expect(started).toEqual({ id: expect.stringMatching(uuid), url: `${stack.api.url}/v2/batch/scrape/${started.id}` });
    const status = await ended('get_batch_scrape_status', started.id);
    expect(status).toMatchObject({ status: 'completed', completed: 2, total: 2, credits_used: 1 });
    expect(status.data).toEqual([expect.objectContaining({ json: LLM_ANSWER })]);
    expect(await py.call<JobErrors>('get_batch_scrape_errors', [started.id])).toEqual({ errors: [binaryError(`${sites.pages.url}/binary`)], robots_blocked: [] });

    // The batch cancel has no 409 case of its own (the crawl cancel turns it into False).
    const err = await raised(py.call('cancel_batch_scrape', [started.id]));
    const conflict = `The batch scrape ${started.id} has already completed: there is nothing to cancel.`;
    expect(err.outcome).toMatchObject({ type: 'FirecrawlError', status: 409, code: 'conflict', body: { success: false, code: 'conflict', error: conflict } });
    expect(err.outcome.error).toBe(`Unexpected error during cancel batch scrape: Status code 409. ${conflict} - No additional error details provided.`);

    const slow = await py.call<Started>('start_batch_scrape', [Array.from({ length: 10 }, (_, i) => `${sites.slow.url}/p/${i + 1}`)], { max_concurrency: 1 });
    expect(await py.call('cancel_batch_scrape', [slow.id])).toBe(true);
    const cancelled = await ended('get_batch_scrape_status', slow.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.completed).toBeLessThan(10);
  });
});

describe('Firecrawl.search (v2)', () => {
  it('answers web and news results, and with scrape_options scraped documents', async () => {
    const base = sites.pages.url;
    const plain = await py.call('search', ['sdk contract'], { sources: ['web', 'news'], limit: 1 });
    expect(plain).toEqual({
      web: [{ url: `${base}/contract`, title: 'SDK contract', description: 'The page the SDK tests scrape.', position: 1 }],
      news: [{ url: `${base}/docs/b`, title: 'Docs B news', snippet: 'News about docs.', date: '2026-11-20T08:00:00', position: 1 }],
    });
    const scraped = await py.call<{ web: Doc[] }>('search', ['sdk contract'], { limit: 1, scrape_options: { formats: ['markdown'] } });
    expect(scraped.web).toEqual([
      expect.objectContaining({ markdown: `# SDK contract\n\nHello from [page b](${base}/docs/b).`, metadata: expect.objectContaining({ title: 'SDK contract', source_url: `${base}/contract`, status_code: 200 }) }),
    ]);
  });
});

describe('usage and queue (v2), for a fresh account', () => {
  it('get_credit_usage, get_token_usage, the historical variants (by_api_key too; on the client’s v2 proxy, as Firecrawl does not copy them), get_queue_status and get_concurrency: the SDK’s models parse our answers', async () => {
    const { prisma } = stack.api.deps;
    const { accountId, keys } = await usageAccount(prisma);
    const [{ id, key, prefix }] = keys as [(typeof keys)[0]];
    const mine = await pythonSdk(stack.api.url, key, 'Firecrawl');
    await mine.call<Doc>('scrape', [`${sites.pages.url}/contract`]);
    await meterTokens(prisma, { apiKeyId: id }, 512);
    const month = usageMonth();
    const period = { billing_period_start: month.startDate, billing_period_end: month.endDate };
    const workers = stack.api.deps.config.WORKER_CONCURRENCY;
    expect(await mine.call('get_credit_usage')).toEqual({ remaining_credits: NO_LIMIT, ...period });
    expect(await mine.call('get_token_usage')).toEqual({ remaining_tokens: NO_LIMIT, ...period });
    expect(await mine.call('v2.get_credit_usage_historical')).toEqual({ success: true, periods: [{ ...month, creditsUsed: 1 }] });
    expect(await mine.call('v2.get_credit_usage_historical', [], { by_api_key: true })).toEqual({ success: true, periods: [{ ...month, apiKey: prefix, creditsUsed: 1 }] });
    expect(await mine.call('v2.get_token_usage_historical', [], { by_api_key: true })).toEqual({ success: true, periods: [{ ...month, apiKey: prefix, tokensUsed: 512 }] });
    // A datetime in the SDK's model: dumped with microseconds.
    const queue = await mine.call<{ most_recent_success: string }>('get_queue_status');
    expect({ ...queue, most_recent_success: new Date(queue.most_recent_success).toISOString() }).toEqual({
      jobs_in_queue: 0,
      active_jobs_in_queue: 0,
      waiting_jobs_in_queue: 0,
      max_concurrency: workers,
      most_recent_success: await lastPageAt(prisma, accountId),
    });
    expect(await mine.call('get_concurrency')).toEqual({ concurrency: 0, max_concurrency: workers });
    const aio = await pythonSdk(stack.api.url, key, 'AsyncFirecrawl');
    expect(await aio.call('get_credit_usage')).toEqual({ remaining_credits: NO_LIMIT, ...period });
  });
});

describe('Firecrawl.crawl_params_preview (v2)', () => {
  it('returns the options the LLM proposed from a prompt, checked by the crawl schema', async () => {
    expect(await py.call('crawl_params_preview', [`${sites.pages.url}/`, 'Only the docs'])).toMatchObject({ include_paths: CRAWL_PROPOSAL.includePaths, limit: CRAWL_PROPOSAL.limit, max_discovery_depth: CRAWL_PROPOSAL.maxDiscoveryDepth });
  });
});

describe('Firecrawl.extract (v2)', () => {
  it('starts an extract job and waits for its merged answer, with sources', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = await py.call('extract', [[url]], { schema: titleSchema, prompt: 'The title', show_sources: true, poll_interval: 1 });
    expect(res).toEqual({ success: true, id: expect.any(String), status: 'completed', data: LLM_ANSWER, sources: { title: [url] }, expires_at: expect.any(String), tokens_used: 120, credits_used: 1 });
  });
});

describe('what this server does not offer, through the SDK', () => {
  it('start_agent raises FirecrawlError with status 501, not_supported and a message saying so', async () => {
    const calls = [
      ['agent', () => py.call('start_agent', [], { prompt: 'x' })],
    ] as const;
    for (const [action, call] of calls) {
      const { outcome } = await raised(call());
      expect(outcome).toMatchObject({ type: 'FirecrawlError', status: 501, code: 'not_supported', body: { success: false, code: 'not_supported', error: expect.stringMatching(notOffered) } });
      const { error } = outcome.body as { error: string };
      expect(outcome.error).toBe(`Unexpected error during ${action}: Status code 501. ${error} - No additional error details provided.`);
    }
  });
});

describe('AsyncFirecrawl (httpx)', () => {
  let aio: PythonSdk;
  beforeAll(async () => {
    aio = await pythonSdk(stack.api.url, stack.key, 'AsyncFirecrawl');
  });

  it('scrape and map', async () => {
    const base = sites.pages.url;
    const doc = await aio.call<Doc>('scrape', [`${base}/contract`], { formats: ['markdown', 'links'] });
    expect(doc).toEqual({
      markdown: `# SDK contract\n\nHello from [page b](${base}/docs/b).`,
      links: [`${base}/docs/a`, `${base}/docs/b`],
      metadata: expect.objectContaining({ title: 'SDK contract', source_url: `${base}/contract`, status_code: 200 }),
    });
    expect(await aio.call('map', [`${base}/`], { sitemap: 'only' })).toEqual({ links: [{ url: `${base}/docs/b` }, { url: `${base}/contract` }] });
  });

  it(`crawl (url by keyword: it takes only keywords) waits for the ${TREE_PAGES}-page crawl and reads every document through next; cancel_crawl then returns False`, async () => {
    const job = await aio.call<Job>('crawl', [], { url: `${sites.tree.url}/`, limit: 1000, poll_interval: 1 });
    expect(job).toMatchObject({ id: expect.stringMatching(uuid), status: 'completed', completed: TREE_PAGES, total: TREE_PAGES, credits_used: TREE_PAGES });
    expect(job.data).toHaveLength(TREE_PAGES);
    expect(sourceUrls(job.data)).toEqual(treeUrls(sites.tree.url));
    expect(await aio.call('cancel_crawl', [job.id])).toBe(false);
  }, 120_000);
});
