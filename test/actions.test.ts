/** Browser actions (`actions`) end to end: real API, worker and Chromium against loopback pages behind a button, a search box and infinite scroll. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCRIPT_RETURN_BYTES } from '../core/schemas/actions.js';
import type { FixtureServer } from './fixtures/server.js';
import { startActionsSite } from './fixtures/actions-site.js';
import { crawlToEnd } from './helpers/crawl.js';
import { imageSize } from './helpers/images.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let stack: TestStack;

beforeAll(async () => {
  [site, stack] = await Promise.all([startActionsSite(), startTestStack()]);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

interface ActionResults {
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  pdfs: string[];
}
type Doc = { markdown: string; actions?: ActionResults; metadata: Record<string, unknown> };
const scrape = (url: string, actions: unknown[], more: Record<string, unknown> = {}) => stack.post('/v1/scrape', { url: `${site.url}${url}`, actions, ...more });
const doc = (r: { body: Record<string, unknown> }) => r.body.data as Doc;
const none: ActionResults = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };

describe('pages only actions can read', () => {
  it('behind a button: click "Load more", wait for the new items; the document is the page after the last action', async () => {
    const plain = await scrape('/load-more', []);
    expect(plain.status).toBe(200);
    expect(doc(plain).markdown).not.toContain('Item 4');
    expect(doc(plain).actions).toBeUndefined();

    const res = await scrape('/load-more', [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#loaded' }]);
    expect(res.status).toBe(200);
    const d = doc(res);
    expect(d.markdown).toContain('- Item 6');
    expect(d.markdown).toContain('All items loaded.');
    expect(d.actions).toEqual(none);
    expect(d.metadata.engine).toBe('local_browser');
    expect(site.hitsFor('/more.json').length).toBeGreaterThanOrEqual(1);
  });

  it('behind a search box: click it, write, press Enter; the results page is the document', async () => {
    const res = await scrape('/search', [
      { type: 'click', selector: '#q' },
      { type: 'write', text: 'tomatoes' },
      { type: 'press', key: 'Enter' },
      { type: 'wait', selector: 'ol' },
    ]);
    expect(res.status).toBe(200);
    const d = doc(res);
    expect(d.markdown).toContain('# Results for tomatoes');
    expect(d.markdown).toContain('Second hit about tomatoes');
    expect(d.metadata.url).toBe(`${site.url}/results?q=tomatoes`);
    expect(d.metadata.sourceURL).toBe(`${site.url}/search`);
  });

  it('behind infinite scroll: scroll down and wait, until every batch has arrived', async () => {
    const before = await scrape('/infinite', [{ type: 'wait', milliseconds: 300 }]);
    expect(doc(before).markdown).not.toContain('Post 6');
    // Each batch is five 400 px posts; a scroll moves one 800 px screen.
    const steps = Array.from({ length: 8 }, () => [{ type: 'scroll', direction: 'down' }, { type: 'wait', milliseconds: 200 }]).flat();
    const res = await scrape('/infinite', steps, { formats: ['markdown'] });
    expect(res.status).toBe(200);
    const posts = doc(res).markdown.match(/Post \d+/g);
    expect(posts).toEqual(Array.from({ length: 15 }, (_, i) => `Post ${i + 1}`));
  });
});

describe('each action', () => {
  it('scrape and screenshot record the page at that moment; click with all clicks every match', async () => {
    const res = await scrape('/widgets', [
      { type: 'scrape' },
      { type: 'click', selector: '.mark', all: true },
      { type: 'scrape' },
      { type: 'screenshot' },
      { type: 'screenshot', quality: 50, viewport: { width: 600, height: 400 } },
      { type: 'screenshot', fullPage: true },
    ]);
    expect(res.status).toBe(200);
    const a = doc(res).actions!;
    expect(a.scrapes.map((s) => s.url)).toEqual([`${site.url}/widgets`, `${site.url}/widgets`]);
    expect(a.scrapes[0]!.html).toContain('<button class="mark">A</button><button class="mark">B</button>');
    expect(a.scrapes[1]!.html).toContain('A clicked</button><button class="mark">B clicked</button><button class="mark">C clicked</button>');
    expect(a.screenshots.map(imageSize)).toEqual([
      { kind: 'png', width: 1280, height: 800 },
      { kind: 'jpeg', width: 600, height: 400 },
      { kind: 'png', width: 1280, height: expect.any(Number) },
    ]);
    expect(imageSize(a.screenshots[2]!).height).toBeGreaterThan(2000);
    expect(doc(res).markdown).toContain('A clicked');
    expect(a.pdfs).toEqual([]);
  });

  it('wait for a selector that appears later, scroll a box by its height and the page up again', async () => {
    const res = await scrape('/widgets', [
      { type: 'wait', selector: '#late' },
      { type: 'scroll', selector: '#box' },
      { type: 'executeJavascript', script: 'document.getElementById("box").scrollTop' },
      { type: 'scroll' },
      { type: 'executeJavascript', script: 'window.scrollY' },
      { type: 'scroll', direction: 'up' },
      { type: 'executeJavascript', script: 'window.scrollY' },
    ]);
    expect(res.status).toBe(200);
    expect(doc(res).actions!.javascriptReturns).toEqual([
      { type: 'number', value: 100 },
      { type: 'number', value: 800 },
      { type: 'number', value: 0 },
    ]);
    expect(doc(res).markdown).toContain('Arrived late');
  });

  it('executeJavascript returns JSON values with their types: expressions, function bodies, promises', async () => {
    const res = await scrape('/widgets', [
      { type: 'executeJavascript', script: '({ a: 1, b: [true, null], c: "x" })' },
      { type: 'executeJavascript', script: 'const t = document.title;\nreturn t.toUpperCase();' },
      { type: 'executeJavascript', script: '[...document.querySelectorAll(".mark")].map((b) => b.textContent)' },
      { type: 'executeJavascript', script: 'new Promise((resolve) => setTimeout(() => resolve(42), 20))' },
      { type: 'executeJavascript', script: 'null' },
      { type: 'executeJavascript', script: 'document.body.dataset.touched = "yes"' },
      { type: 'executeJavascript', script: 'void 0' },
    ]);
    expect(res.status).toBe(200);
    expect(doc(res).actions!.javascriptReturns).toEqual([
      { type: 'object', value: { a: 1, b: [true, null], c: 'x' } },
      { type: 'string', value: 'WIDGETS' },
      { type: 'array', value: ['A', 'B', 'C'] },
      { type: 'number', value: 42 },
      { type: 'null', value: null },
      { type: 'string', value: 'yes' },
      { type: 'undefined', value: null },
    ]);
  });

  it('pdf prints the page', async () => {
    const res = await scrape('/widgets', [{ type: 'pdf' }, { type: 'pdf', format: 'A4', landscape: true, scale: 0.5 }]);
    expect(res.status).toBe(200);
    const pdfs = doc(res).actions!.pdfs.map((p) => Buffer.from(p, 'base64'));
    expect(pdfs.map((p) => p.subarray(0, 5).toString())).toEqual(['%PDF-', '%PDF-']);
    // Letter portrait is 612×792 points; A4 landscape 842×595.
    expect(pdfs[0]!.toString('latin1')).toMatch(/MediaBox \[0 0 612 792\]/);
    expect(pdfs[1]!.toString('latin1')).toMatch(/MediaBox \[0 0 842\.\d+ 595\.\d+\]/);
  });
});

describe('failed actions: 400 action_failed naming the action and its index', () => {
  const failure = (index: number, type: string, message: string) => {
    const error = `actions[${index}] (${type}): ${message}`;
    return { success: false, code: 'action_failed', error, details: [{ field: `actions[${index}]`, message: error }] };
  };

  it('a click on a selector that matches nothing', async () => {
    const res = await scrape('/widgets', [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#no-such-button' }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failure(1, 'click', 'no element matches "#no-such-button" (waited 2000 ms)'));
  });

  it('a script that throws, and one whose value is too large', async () => {
    const threw = await scrape('/widgets', [{ type: 'executeJavascript', script: 'throw new Error("no widgets here")' }]);
    expect(threw.status).toBe(400);
    expect(threw.body).toEqual(failure(0, 'executeJavascript', 'the script threw: no widgets here'));

    const huge = await scrape('/widgets', [{ type: 'scrape' }, { type: 'executeJavascript', script: `"x".repeat(${MAX_SCRIPT_RETURN_BYTES})` }]);
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual(failure(1, 'executeJavascript', `the script returned ${MAX_SCRIPT_RETURN_BYTES + 2} characters of JSON; at most ${MAX_SCRIPT_RETURN_BYTES}`));
  });

  it('a wait for a selector that never appears, within the budget', async () => {
    const res = await scrape('/widgets', [{ type: 'wait', selector: '#never' }], { timeout: 4000 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('action_failed');
    expect(res.body.error).toMatch(/^actions\[0\] \(wait\): no element matching "#never" became visible within \d+ ms$/);
  });
});

describe('checked before any browser starts: 400 invalid_request', () => {
  it('names the action that lacks what its type needs', async () => {
    const res = await scrape('/widgets', [{ type: 'click' }, { type: 'write' }, { type: 'wait' }, { type: 'wait', milliseconds: 5, selector: 'p' }, { type: 'press' }, { type: 'executeJavascript' }]);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'actions[0]', message: 'click needs `selector`' },
      { field: 'actions[1]', message: 'write needs `text`' },
      { field: 'actions[2]', message: 'wait needs one of `milliseconds` and `selector`' },
      { field: 'actions[3]', message: 'wait needs one of `milliseconds` and `selector`' },
      { field: 'actions[4]', message: 'press needs `key`' },
      { field: 'actions[5]', message: 'executeJavascript needs `script`' },
    ]);
  });

  it('refuses an unknown type, more than 50 actions, and waits above 60 s in all', async () => {
    const unknown = await scrape('/widgets', [{ type: 'hover', selector: 'a' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ field: 'actions[0].type', message: 'must be one of "wait", "click", "write", "press", "scroll", "screenshot", "scrape", "executeJavascript", "pdf"' }]);

    const many = await scrape('/widgets', Array.from({ length: 51 }, () => ({ type: 'scrape' })));
    expect(many.status).toBe(400);
    expect(many.body.details).toEqual([{ field: 'actions', message: 'must NOT have more than 50 items' }]);

    const long = await scrape('/widgets', [{ type: 'wait', milliseconds: 30000 }, { type: 'wait', selector: '#late' }, { type: 'wait', milliseconds: 20000 }], { waitFor: 9500, timeout: 90000 });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([{ field: 'actions', message: 'waitFor plus every wait action comes to 60500 ms (a selector wait counts 1000 ms); at most 60000 ms' }]);
  });
});

describe('crawls and batches: scrapeOptions.actions run on every page', () => {
  it('batch scrape: each page runs the actions and carries its own results', async () => {
    const start = await stack.post('/v1/batch/scrape', {
      urls: [`${site.url}/load-more`, `${site.url}/widgets`],
      actions: [{ type: 'executeJavascript', script: 'document.title' }],
    });
    expect(start.status).toBe(200);
    const id = start.body.id as string;
    const done = await pollUntil(() => stack.get(`/v1/batch/scrape/${id}`), (r) => r.body.status === 'completed', 'the batch completed', 60_000);
    const docs = (done.body.data as Doc[]).map((d) => [d.metadata.sourceURL, d.actions!.javascriptReturns]);
    expect(docs.sort()).toEqual([
      [`${site.url}/load-more`, [{ type: 'string', value: 'Load more' }]],
      [`${site.url}/widgets`, [{ type: 'string', value: 'Widgets' }]],
    ]);
  });

  it('crawl: the page is read after its actions', async () => {
    const { status, docs } = await crawlToEnd(stack, {
      url: `${site.url}/load-more`,
      limit: 1,
      scrapeOptions: { actions: [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#loaded' }, { type: 'screenshot' }] },
    });
    expect(status.status).toBe('completed');
    expect(docs).toHaveLength(1);
    const d = docs[0] as unknown as Doc;
    expect(d.markdown).toContain('- Item 6');
    expect(d.actions!.screenshots.map(imageSize)).toEqual([{ kind: 'png', width: 1280, height: 800 }]);
  });

  it('crawl: a failed action fails the page with action_failed, listed by the errors endpoint', async () => {
    const { id, status, docs } = await crawlToEnd(stack, { url: `${site.url}/widgets`, limit: 1, scrapeOptions: { actions: [{ type: 'click', selector: '#absent' }] } });
    expect(docs).toHaveLength(0);
    // Its only page failed, so the crawl did.
    expect(status.status).toBe('failed');
    const errors = await stack.get(`/v1/crawl/${id}/errors`);
    expect(errors.body.errors).toEqual([expect.objectContaining({ url: `${site.url}/widgets`, code: 'action_failed', error: 'actions[0] (click): no element matches "#absent" (waited 2000 ms)' })]);
  });
});
