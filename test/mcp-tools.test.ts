/**
 * Contract test with the official Firecrawl MCP server (firecrawl-mcp, pinned in package.json),
 * unmodified, over stdio with the MCP SDK's own client, pointed at the test stack with
 * FIRECRAWL_API_URL: its scrape, map, crawl and crawl-status tools (which call /v2/scrape, /v2/map
 * and /v2/crawl) work, and the client accepts every answer against the tools' output schemas.
 * The monitor tools have their own file (test/mcp-monitor.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLM_ANSWER, pngSize, startSdkSites, titleSchema, treePageMarkdown, type SdkSites } from './fixtures/sdk-site.js';
import { startMcpServer, type McpServer } from './helpers/mcp.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let sites: SdkSites;
let stack: TestStack;
let mcp: McpServer;

beforeAll(async () => {
  sites = await startSdkSites();
  stack = await startTestStack({ ...sites.llmEnv, ...sites.searchEnv });
  mcp = await startMcpServer(stack);
});
afterAll(async () => {
  await mcp?.close();
  await stack?.close();
  await sites?.close();
});

type Doc = { markdown?: string; json?: unknown; screenshot?: string; metadata: Record<string, unknown> };
type CrawlResult = { id: string; status: string; completed: number; total: number; creditsUsed: number; next: string | null; data: Doc[] };

const tool: McpServer['tool'] = (name, args) => mcp.tool(name, args);

const sourceUrls = (docs: Doc[]) => docs.map((d) => String(d.metadata.sourceURL)).sort();

describe('the official MCP server’s scrape, map and crawl tools', () => {
  it('firecrawl_scrape returns the main content as markdown, with the metadata', async () => {
    const url = `${sites.pages.url}/contract`;
    const res = await tool<Doc>('firecrawl_scrape', { url, formats: ['markdown'] });
    expect(res.isError, res.text).toBe(false);
    expect(res.data.markdown).toBe(`# SDK contract\n\nHello from [page b](${sites.pages.url}/docs/b).`);
    expect(res.data.metadata).toMatchObject({ title: 'SDK contract', sourceURL: url, url, statusCode: 200 });
  });

  it('firecrawl_scrape extracts JSON through the LLM endpoint and takes a full-page screenshot', async () => {
    const json = await tool<Doc>('firecrawl_scrape', { url: `${sites.pages.url}/contract`, formats: ['json'], jsonOptions: { prompt: 'The page title.', schema: titleSchema } });
    expect(json.isError, json.text).toBe(false);
    expect(json.data.json).toEqual(LLM_ANSWER);
    const shot = await tool<Doc>('firecrawl_scrape', { url: `${sites.pages.url}/tall`, formats: ['screenshot'], screenshotOptions: { fullPage: true } });
    expect(shot.isError, shot.text).toBe(false);
    expect(pngSize(shot.data.screenshot!)).toEqual({ width: 1280, height: 3000 });
  });

  it('firecrawl_scrape runs browser actions (its flat action objects) and reads the page after them', async () => {
    const res = await tool<Doc & { actions: { javascriptReturns: unknown[] } }>('firecrawl_scrape', {
      url: `${sites.pages.url}/load-more`,
      formats: ['markdown'],
      onlyMainContent: false,
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'wait', milliseconds: 500 },
        { type: 'executeJavascript', script: 'document.querySelectorAll("li").length' },
      ],
    });
    expect(res.isError, res.text).toBe(false);
    expect(res.data.markdown).toContain('- Item 6');
    expect(res.data.actions.javascriptReturns).toEqual([{ type: 'number', value: 6 }]);
  });

  it('firecrawl_scrape with maxAge answers the second time from the page cache', async () => {
    const url = `${sites.pages.url}/contract?cache=mcp-${Date.now()}`;
    const first = await tool<Doc>('firecrawl_scrape', { url, formats: ['markdown'], maxAge: 600_000 });
    const second = await tool<Doc>('firecrawl_scrape', { url, formats: ['markdown'], maxAge: 600_000 });
    expect([first.isError, second.isError], second.text).toEqual([false, false]);
    expect([first.data.metadata.cacheState, second.data.metadata.cacheState]).toEqual(['miss', 'hit']);
    expect(sites.pages.hitsFor(new URL(url).pathname + new URL(url).search)).toHaveLength(1);
  });

  it('firecrawl_scrape reports a format this server does not offer, with the server’s reason', async () => {
    const res = await tool('firecrawl_scrape', { url: `${sites.pages.url}/contract`, formats: ['branding'] });
    expect(res.isError).toBe(true);
    expect(res.text).toContain('the "branding" format is not offered by this server');
  });

  it('firecrawl_search answers web results, and scraped ones with scrapeOptions', async () => {
    const base = sites.pages.url;
    // The tool passes the server's answer on whole.
    const plain = await tool<{ success: boolean; data: { web: Record<string, unknown>[] }; creditsUsed: number }>('firecrawl_search', { query: 'sdk contract', limit: 2 });
    expect(plain.isError, plain.text).toBe(false);
    expect(plain.data.creditsUsed).toBe(1);
    expect(plain.data.data.web).toEqual([
      { url: `${base}/contract`, title: 'SDK contract', description: 'The page the SDK tests scrape.', position: 1 },
      { url: `${base}/docs/a`, title: 'Docs A', description: 'The first docs page.', position: 2 },
    ]);
    const scraped = await tool<{ data: { web: Doc[] } }>('firecrawl_search', { query: 'sdk contract', limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.isError, scraped.text).toBe(false);
    expect(scraped.data.data.web[0]!.markdown).toBe(`# SDK contract\n\nHello from [page b](${base}/docs/b).`);
  });

  it('firecrawl_map lists a site’s URLs as link objects; sitemap "only" lists the sitemap', async () => {
    const base = sites.pages.url;
    const all = await tool<{ links: { url: string }[] }>('firecrawl_map', { url: `${base}/` });
    expect(all.isError, all.text).toBe(false);
    expect(all.data.links).toEqual([`${base}/`, `${base}/docs/b`, `${base}/contract`, `${base}/docs/a`, `${base}/private/x`, `${base}/binary`].map((url) => ({ url })));
    const sitemap = await tool<{ links: { url: string }[] }>('firecrawl_map', { url: `${base}/`, sitemap: 'only' });
    expect(sitemap.data.links).toEqual([{ url: `${base}/docs/b` }, { url: `${base}/contract` }]);
  });

  it('firecrawl_crawl waits for a 150-page crawl and returns every document (two pages of status); firecrawl_check_crawl_status reads it again', async () => {
    const res = await tool<CrawlResult>('firecrawl_crawl', { url: `${sites.tree.url}/`, limit: 150, scrapeOptions: { formats: ['markdown'], onlyMainContent: false } });
    expect(res.isError, res.text).toBe(false);
    expect(res.data).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'completed', completed: 150, total: 150, creditsUsed: 150, next: null });
    expect(res.data.data).toHaveLength(150);
    expect(new Set(sourceUrls(res.data.data)).size).toBe(150);
    expect(res.data.data.find((d) => d.metadata.sourceURL === `${sites.tree.url}/p/1`)?.markdown).toBe(treePageMarkdown(sites.tree.url, 1));

    const again = await tool<CrawlResult>('firecrawl_check_crawl_status', { id: res.data.id });
    expect(again.isError, again.text).toBe(false);
    expect(again.data).toMatchObject({ status: 'completed', completed: 150, total: 150, creditsUsed: 150 });
    expect(sourceUrls(again.data.data)).toEqual(sourceUrls(res.data.data));
  });

  it('firecrawl_crawl follows sitemap "skip" and the path filters', async () => {
    const res = await tool<CrawlResult>('firecrawl_crawl', { url: `${sites.pages.url}/`, sitemap: 'skip', includePaths: ['^/docs/'] });
    expect(res.isError, res.text).toBe(false);
    expect(res.data).toMatchObject({ status: 'completed', completed: 3, total: 3, creditsUsed: 3 });
    expect(sourceUrls(res.data.data)).toEqual([`${sites.pages.url}/`, `${sites.pages.url}/docs/a`, `${sites.pages.url}/docs/b`]);
  });

  it('firecrawl_check_crawl_status of an unknown crawl is an error, not a hang', async () => {
    const res = await tool('firecrawl_check_crawl_status', { id: '00000000-0000-4000-8000-000000000000' });
    expect(res.isError).toBe(true);
    expect(res.text).toContain('404');
  });
});
