/**
 * Crawl pages run through the same page pipeline as scrapes (extraction, warnings, failure classes),
 * and crawls are polite the way crawlers expect (maxConcurrency, delay, 429 / Retry-After).
 * Real API, worker, Temporal and PostgreSQL against loopback sites whose hit logs are the witness.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { startFixtureServer, type FixtureServer, type Handler } from './fixtures/server.js';
import { crawlToEnd, pathsOf } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const page = (title: string, links: string[] = [], extra = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Text of ${title}.</p>${extra}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
const send = (res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
};
const drop = (res: ServerResponse): void => {
  res.socket?.destroy();
};

/** A site of `n` pages (/, /p/1 … /p/{n-1}) all linked from the seed, each answering after `delayMs`, counting requests in flight. */
async function wideSite(n: number, delayMs: number) {
  let inFlight = 0;
  let maxInFlight = 0;
  const starts: number[] = [];
  const handler: Handler = (_req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    starts.push(Date.now());
    setTimeout(() => {
      inFlight--;
      send(res, page('page', _req.url === '/' ? [...Array(n - 1).keys()].map((i) => `/p/${i + 1}`) : []));
    }, delayMs);
  };
  const server = await startFixtureServer({}, handler);
  return Object.assign(server, { maxInFlight: () => maxInFlight, starts });
}

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false };

let llm: FakeLlm;
let stack: TestStack;
let noLlm: TestStack;

beforeAll(async () => {
  llm = await startFakeLlm(['{"title": "extracted"}']);
  [stack, noLlm] = await Promise.all([
    // Wide workers, so a crawl's own limits (not the worker's) are what bound it.
    startTestStack({ WORKER_CONCURRENCY: '16', LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' }),
    startTestStack(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), noLlm?.close()]);
  await llm?.close();
});

describe('crawl pages use the one page pipeline', () => {
  let site: FixtureServer;
  beforeAll(async () => {
    site = await startFixtureServer({
      '/': (_q, res) => send(res, page('home', ['/article', '/missing'])),
      '/article': (_q, res) => send(res, page('article', [], '<div class="body">Body text</div>')),
    });
  });
  afterAll(() => site.close());

  it('extracts with scrapeOptions.extract on every page, through the configured LLM', async () => {
    const { status, docs } = await crawlToEnd(stack, { url: site.url, scrapeOptions: { formats: ['markdown'], extract: { schema, prompt: 'The title.' } } });
    expect(status).toMatchObject({ status: 'completed', completed: 3, failed: 0 });
    expect(docs).toHaveLength(3);
    for (const doc of docs) expect((doc as { extract?: unknown }).extract).toEqual({ title: 'extracted' });
    expect(llm.requests.filter((r) => r.messages.some((m) => m.content.includes('The title.')))).toHaveLength(3);
  });

  it('marks extraction skipped on every page when no LLM is configured', async () => {
    const { docs } = await crawlToEnd(noLlm, { url: site.url, scrapeOptions: { extract: { schema } } });
    expect(docs.map((d) => d.metadata.extractSkipped)).toEqual([true, true, true]);
    expect(docs.every((d) => !('extract' in d))).toBe(true);
  });

  it('stores a screenshot of every page when asked, rendered in a browser', async () => {
    const { docs } = await crawlToEnd(noLlm, { url: site.url, limit: 2, scrapeOptions: { formats: ['markdown', 'screenshot'] } });
    expect(docs).toHaveLength(2);
    for (const doc of docs) {
      expect((doc as { screenshot?: string }).screenshot).toMatch(/^iVBORw0KGgo/); // PNG signature, base64
      expect(doc.metadata.engine).toBe('local_browser');
    }
  });

  it('applies the scrape warning rules: a non-2xx page is stored with its status, includeTags that match nothing say so', async () => {
    const { id } = await crawlToEnd(noLlm, { url: site.url, scrapeOptions: { includeTags: ['.body'] } });
    const rows = await noLlm.api.deps.prisma.document.findMany({ where: { jobId: id }, select: { url: true, statusCode: true, warning: true } });
    const byPath = Object.fromEntries(rows.map((r) => [new URL(r.url).pathname, r]));
    expect(byPath['/article']).toMatchObject({ statusCode: 200, warning: null });
    expect(byPath['/']).toMatchObject({ statusCode: 200, warning: 'includeTags matched nothing on the page.' });
    expect(byPath['/missing']).toMatchObject({ statusCode: 404, warning: 'The target answered HTTP 404. includeTags matched nothing on the page.' });
  });
});

describe('crawl page failures are sorted by class', () => {
  let site: FixtureServer;
  let flakyHits = 0;
  beforeAll(async () => {
    site = await startFixtureServer({
      '/': (_q, res) => send(res, page('home', ['/binary', '/flaky', '/down'])),
      '/binary': (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3]));
      },
      // The connection drops twice, then the page is served.
      '/flaky': (_q, res) => (++flakyHits <= 2 ? drop(res) : send(res, page('flaky'))),
      '/down': (_q, res) => drop(res),
    });
  });
  afterAll(() => site.close());

  it('fails content that cannot be converted at once, retries a flaky page until it works, gives up on a dead one after 3 tries', async () => {
    const { id, status, docs } = await crawlToEnd(noLlm, { url: site.url, ignoreRobotsTxt: true });
    expect(status).toMatchObject({ status: 'completed', completed: 4, total: 4, failed: 2, creditsUsed: 2 });
    expect(pathsOf(docs)).toEqual(['/', '/flaky']);
    expect(site.hitsFor('/binary')).toHaveLength(1);
    // Each try is the fetch engine, then the browser when the fetch could not connect: the flaky
    // page's first try loses both, its second try's fetch gets it; the dead page loses three tries.
    expect(site.hitsFor('/flaky')).toHaveLength(3);
    expect(site.hitsFor('/down')).toHaveLength(6);
    const failed = await noLlm.api.deps.prisma.jobUrl.findMany({ where: { jobId: id, status: 'failed' }, select: { url: true, error: true } });
    const errors = Object.fromEntries(failed.map((f) => [new URL(f.url).pathname, f.error]));
    expect(Object.keys(errors).sort()).toEqual(['/binary', '/down']);
    expect(errors['/binary']).toBe('Cannot convert content of type application/octet-stream to markdown');
    expect(errors['/down']).toMatch(/^Every way of fetching .*\/down failed: fetch: /);
  });
});

describe('politeness', () => {
  it('keeps at most maxConcurrency requests in flight at the site', async () => {
    const wide = await wideSite(40, 150);
    try {
      const bounded = await crawlToEnd(stack, { url: wide.url, maxConcurrency: 3, ignoreRobotsTxt: true });
      expect(bounded.status).toMatchObject({ status: 'completed', completed: 40 });
      expect(wide.maxInFlight()).toBe(3);
    } finally {
      await wide.close();
    }
    // The bound is the crawl's: without it the same worker goes wider.
    const free = await wideSite(40, 150);
    try {
      await crawlToEnd(stack, { url: free.url, ignoreRobotsTxt: true });
      expect(free.maxInFlight()).toBeGreaterThan(3);
    } finally {
      await free.close();
    }
  });

  it('waits `delay` seconds between requests, one at a time', async () => {
    const site = await wideSite(5, 10);
    try {
      const { status } = await crawlToEnd(stack, { url: site.url, delay: 0.4, ignoreRobotsTxt: true });
      expect(status).toMatchObject({ status: 'completed', completed: 5 });
      expect(site.maxInFlight()).toBe(1);
      const gaps = site.starts.slice(1).map((t, i) => t - site.starts[i]!);
      expect(gaps).toHaveLength(4);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(400);
    } finally {
      await site.close();
    }
  });

  it('slows the whole crawl down when the site answers 429 with Retry-After, and stores the page once it is let in', async () => {
    let limited = false;
    let limitedAt = 0;
    const site = await startFixtureServer({
      '/': (_q, res) => send(res, page('home', [...Array(12).keys()].map((i) => `/p/${i}`))),
      '/p/0': (_q, res) => {
        if (!limited) {
          limited = true;
          limitedAt = Date.now();
          return send(res, 'slow down', 429, { 'retry-after': '2' });
        }
        send(res, page('p0'));
      },
    }, (req, res) => {
      setTimeout(() => send(res, page(req.url ?? '')), 50);
    });
    try {
      const { status, docs } = await crawlToEnd(stack, { url: site.url, ignoreRobotsTxt: true });
      expect(status).toMatchObject({ status: 'completed', completed: 13, failed: 0 });
      expect(docs).toHaveLength(13);
      expect(site.hitsFor('/p/0')).toHaveLength(2);
      // Requests already on their way when the 429 came back (within 50 ms) aside, nothing reached
      // the site until its Retry-After (2 s) had passed, whichever lane held the URLs.
      const during = site.hits.filter((h) => h.at >= limitedAt + 50 && h.at < limitedAt + 2000);
      expect(during).toEqual([]);
      expect(site.hits.filter((h) => h.at >= limitedAt + 2000).length).toBeGreaterThan(0);
    } finally {
      await site.close();
    }
  });

  it('fails a page the site keeps refusing with 429, without failing the crawl', async () => {
    const site = await startFixtureServer({
      '/': (_q, res) => send(res, page('home', ['/never'])),
      '/never': (_q, res) => send(res, 'no', 429, { 'retry-after': '0' }),
    });
    try {
      const { id, status, docs } = await crawlToEnd(stack, { url: site.url, ignoreRobotsTxt: true });
      expect(status).toMatchObject({ status: 'completed', completed: 2, failed: 1 });
      expect(pathsOf(docs)).toEqual(['/']);
      expect(site.hitsFor('/never')).toHaveLength(10);
      const row = await stack.api.deps.prisma.jobUrl.findFirstOrThrow({ where: { jobId: id, status: 'failed' }, select: { error: true } });
      expect(row.error).toBe('The site answered HTTP 429 (Retry-After 0 s); the site kept asking to slow down (10 times), so this page was given up');
    } finally {
      await site.close();
    }
  }, 90_000);
});
