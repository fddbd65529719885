/** POST /v1/scrape end to end: real API, Temporal, worker, PostgreSQL and Chromium against loopback fixtures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKey } from '../api/keys-store.js';
import { startTestApi } from './helpers/api.js';
import { TEST_PEPPER } from './helpers/env.js';
import { pollUntil } from './helpers/poll.js';
import { scrapeWorkersKey } from '../core/contracts.js';
import { announcement } from '../core/scrape-announcement.js';
import { freePort } from '../scripts/infra/ready.js';
import type { FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let stack: TestStack;

beforeAll(async () => {
  [site, stack] = await Promise.all([startSite(), startTestStack()]);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const scrape = (body: Record<string, unknown>) => stack.post('/v1/scrape', body);
type Doc = { markdown?: string; html?: string; rawHtml?: string; links?: string[]; screenshot?: string; metadata: Record<string, unknown> };
const data = (r: { body: Record<string, unknown> }) => r.body.data as Doc;

describe('POST /v1/scrape: formats and metadata', () => {
  it('returns markdown by default, with the page metadata', async () => {
    const res = await scrape({ url: `${site.url}/article` });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.scrape_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.warning).toBeUndefined();
    const doc = data(res);
    expect(Object.keys(doc).sort()).toEqual(['markdown', 'metadata']);
    expect(doc.markdown).toContain('# Growing tomatoes');
    expect(doc.markdown).toContain('| Name | Days |');
    expect(doc.markdown).toContain('```python\nprint("water")\n```');
    expect(doc.markdown).toContain(`[steady water supply](${site.url}/guide/water)`);
    expect(doc.markdown).toContain(`![A plant](${site.url}/img/plant.jpg)`);
    expect(doc.markdown).not.toContain('Gardening Notes');
    expect(doc.metadata).toMatchObject({
      title: 'Gardening Notes',
      description: 'How to grow tomatoes on a balcony.',
      language: 'en-GB',
      ogImage: `${site.url}/img/cover.png`,
      keywords: 'tomatoes, balcony',
      'og:title': 'Gardening Notes (OG)',
      'twitter:card': 'summary',
      'article:tag': ['gardening', 'tomatoes'],
      sourceURL: `${site.url}/article`,
      url: `${site.url}/article`,
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      engine: 'fetch',
      scrapeId: res.body.scrape_id,
    });
  });

  it('returns exactly the requested formats: html, rawHtml and links', async () => {
    const res = await scrape({ url: `${site.url}/article`, formats: ['html', 'rawHtml', 'links'] });
    expect(res.status).toBe(200);
    const doc = data(res);
    expect(Object.keys(doc).sort()).toEqual(['html', 'links', 'metadata', 'rawHtml']);
    expect(doc.rawHtml).toContain('<meta name="description" content="How to grow tomatoes on a balcony.">');
    expect(doc.html).toContain(`<a href="${site.url}/guide/water">steady water supply</a>`);
    expect(doc.html).not.toContain('<script');
    expect(doc.links).toEqual([`${site.url}/`, `${site.url}/about`, `${site.url}/contact`, `${site.url}/guide/water`, 'https://other.example/page']);
  });

  it('keeps only includeTags and drops excludeTags', async () => {
    const res = await scrape({ url: `${site.url}/article`, includeTags: ['article'], excludeTags: ['.promo-box', 'table'] });
    expect(res.status).toBe(200);
    const md = data(res).markdown!;
    expect(md).toContain('# Growing tomatoes');
    expect(md).not.toContain('Buy our seeds');
    expect(md).not.toContain('Cherry');
    expect(md).not.toContain('About');
    expect(md).not.toContain('Copyright');
  });

  it('answers an invalid selector with 400 naming it', async () => {
    const res = await scrape({ url: `${site.url}/article`, includeTags: ['div[['] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(String(res.body.error)).toContain('div[[');
  });

  it('prunes navigation, header, footer and sidebar with onlyMainContent', async () => {
    const full = data(await scrape({ url: `${site.url}/article` })).markdown!;
    const main = data(await scrape({ url: `${site.url}/article`, onlyMainContent: true })).markdown!;
    for (const chrome of ['About', 'Contact', 'Related posts', 'Copyright 2026']) {
      expect(full).toContain(chrome);
      expect(main).not.toContain(chrome);
    }
    expect(main).toContain('# Growing tomatoes');
  });

  it('follows a redirect chain, reporting the URL asked and the final URL', async () => {
    const res = await scrape({ url: `${site.url}/redirect/1` });
    expect(res.status).toBe(200);
    expect(data(res).metadata.sourceURL).toBe(`${site.url}/redirect/1`);
    expect(data(res).metadata.url).toBe(`${site.url}/article`);
    expect(data(res).metadata.statusCode).toBe(200);
  });

  it('returns a non-2xx target with a warning and its status code', async () => {
    const res = await scrape({ url: `${site.url}/missing` });
    expect(res.status).toBe(200);
    expect(res.body.warning).toBe('The target answered HTTP 404.');
    expect(data(res).metadata.statusCode).toBe(404);
    expect(data(res).markdown).toContain('No such page.');
  });

  it.each([
    ['/sjis', '日本語のページ', 'こんにちは世界'],
    ['/sjis-meta', 'メタ', '文字コード'],
  ])('decodes a Shift_JIS page (%s)', async (path, title, text) => {
    const res = await scrape({ url: site.url + path });
    expect(res.status).toBe(200);
    expect(data(res).metadata.title).toBe(title);
    expect(data(res).markdown).toContain(text);
  });

  it('extracts the text of a PDF', async () => {
    const res = await scrape({ url: `${site.url}/doc.pdf` });
    expect(res.status).toBe(200);
    const doc = data(res);
    expect(doc.markdown).toContain('First page text');
    expect(doc.markdown).toContain('Second page text');
    expect(doc.metadata.contentType).toBe('application/pdf');
    expect(doc.metadata.title).toBe('Fixture PDF');
  });

  it('puts a JSON document in a code block', async () => {
    const res = await scrape({ url: `${site.url}/data.json` });
    expect(res.status).toBe(200);
    expect(data(res).markdown).toBe('```json\n{\n  "name": "fixture",\n  "items": [\n    1,\n    2\n  ]\n}\n```');
  });

  it('returns plain text as it is', async () => {
    const res = await scrape({ url: `${site.url}/plain.txt` });
    expect(data(res).markdown).toBe('line one\nline two');
  });
});

describe('POST /v1/scrape: engines', () => {
  it('reads a UTF-8 page declared ISO-8859-1 as UTF-8 in both engines, keeping what a script wrote', async () => {
    const fetched = await scrape({ url: `${site.url}/mislabelled` });
    const rendered = await scrape({ url: `${site.url}/mislabelled`, formats: ['markdown', 'screenshot'] });
    expect(data(fetched).metadata).toMatchObject({ engine: 'fetch', title: 'Grüße' });
    expect(data(rendered).metadata).toMatchObject({ engine: 'local_browser', title: 'Grüße' });
    const text = '# Grüße – “quoted”\n\nPrice: €5 for 日本語 😀.\n\nIts server says ISO-8859-1, as an old default does; a reader still sees every character right.';
    expect(data(fetched).markdown).toBe(text);
    expect(data(rendered).markdown).toBe(`${text}\n\nCafé by script`);
  });

  it('renders a script-built page in a browser', async () => {
    const res = await scrape({ url: `${site.url}/spa` });
    expect(res.status).toBe(200);
    expect(data(res).metadata.engine).toBe('local_browser');
    expect(data(res).markdown).toContain('# Rendered by script');
    expect(data(res).markdown).toContain('Only a browser sees this.');
  });

  it('sends the caller headers, and our User-Agent unless the caller sets one', async () => {
    const own = await scrape({ url: `${site.url}/echo-headers`, formats: ['html'], headers: { 'X-Custom': 'yes', Cookie: 'session=abc' } });
    expect(data(own).html).toContain('<li id="user-agent">PagewrightBot/0.1</li>');
    expect(data(own).html).toContain('<li id="x-custom">yes</li>');
    expect(data(own).html).toContain('<li id="cookie">session=abc</li>');
    const theirs = await scrape({ url: `${site.url}/echo-headers`, formats: ['html'], headers: { 'User-Agent': 'CallerBot/2' } });
    expect(data(theirs).html).toContain('<li id="user-agent">CallerBot/2</li>');
  });

  it('takes a viewport screenshot and a taller full-page one, as PNGs', async () => {
    const view = await scrape({ url: `${site.url}/tall`, formats: ['screenshot'] });
    const full = await scrape({ url: `${site.url}/tall`, formats: ['screenshot@fullPage'] });
    expect(view.status).toBe(200);
    expect(full.status).toBe(200);
    const size = (b64: string) => {
      const png = Buffer.from(b64, 'base64');
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
    };
    expect(size(data(view).screenshot!)).toEqual({ width: 1280, height: 800 });
    expect(size(data(full).screenshot!)).toEqual({ width: 1280, height: 3000 });
    expect(data(view).metadata.engine).toBe('local_browser');
  });

  it('answers 408 when the page is slower than the timeout, and stops the work', async () => {
    const started = Date.now();
    const res = await scrape({ url: `${site.url}/slow`, timeout: 2000 });
    expect(res.status).toBe(408);
    expect(res.body.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('answers 502 saying what failed when the host is unreachable', async () => {
    const closed = await freePort();
    const res = await scrape({ url: `http://127.0.0.1:${closed}/nothing`, timeout: 10000 });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('scrape_failed');
    expect(String(res.body.error)).toMatch(new RegExp(`^Every way of fetching http://127\\.0\\.0\\.1:${closed}/nothing failed: fetch: .+; local_browser: .+`));
    // Operators find it in the Temporal UI: a failed `failedScrape` workflow naming the URL and why.
    const client = stack.api.deps.temporal;
    const record = await pollUntil(
      async () => {
        for await (const wf of client.workflow.list({ query: `WorkflowType = 'failedScrape'` })) {
          const result = await client.workflow.getHandle(wf.workflowId).result().then(() => undefined, (err: Error & { cause?: Error }) => err.cause?.message);
          if (result?.includes(`http://127.0.0.1:${closed}/nothing`)) return { id: wf.workflowId, status: (await client.workflow.getHandle(wf.workflowId).describe()).status.name, message: result };
        }
        return undefined;
      },
      (found) => found !== undefined,
      'failed scrape recorded in Temporal',
      30_000,
    );
    expect(record!.id).toMatch(/^scrape-[0-9a-f-]{36}$/);
    expect(record!.status).toBe('FAILED');
    expect(record!.message).toMatch(new RegExp(`^Scrape of http://127\\.0\\.0\\.1:${closed}/nothing failed \\(502 scrape_failed\\): Every way of fetching`));
  });
});

describe('POST /v1/scrape: workers come and go', () => {
  it('goes to the new worker right after its worker was replaced (the stopped one is skipped), and answers 503 with none', async () => {
    expect((await scrape({ url: `${site.url}/article` })).status).toBe(200);
    await stack.restartWorker();
    const after = await scrape({ url: `${site.url}/article` });
    expect(after.status).toBe(200);
    expect((after.body.data as { markdown: string }).markdown).toContain('# Growing tomatoes');
    // An API whose task queue no worker serves: no worker has announced itself there.
    const lonely = await startTestApi({ env: { TEMPORAL_TASK_QUEUE: `nobody-${randomUUID()}`, ALLOW_PRIVATE_ADDRESSES: 'true' } });
    try {
      const { key } = await createKey(lonely.deps.prisma, 'lonely', TEST_PEPPER);
      // The API's Redis client queues nothing while it connects (enableOfflineQueue off): wait for it.
      if (lonely.deps.redis.status !== 'ready') await once(lonely.deps.redis, 'ready');
      const key2 = scrapeWorkersKey(lonely.deps.config.TEMPORAL_TASK_QUEUE);
      expect(await lonely.deps.redis.zcard(key2)).toBe(0);
      // Entries written by someone without SCRAPE_SERVICE_TOKEN: a bare URL (the old format) and a
      // forged signature. The API must never call them (it would send the token and the input).
      const calls: string[] = [];
      const trap = createServer((req, res) => {
        calls.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        res.end('{}');
      });
      await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
      const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
      const until = Date.now() + 60_000;
      await lonely.deps.redis.zadd(key2, until, trapUrl, until, `${trapUrl} ${until} ${'0'.repeat(64)}`, until, announcement('not-the-token', trapUrl, until));
      const res = await fetch(`${lonely.url}/v1/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/article` }) });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'service_unavailable', error: 'No worker is serving scrapes right now (none has announced itself in Redis). Try again shortly.' });
      expect(calls).toEqual([]);
      trap.close();
    } finally {
      await lonely.close();
    }
  });
});

describe('POST /v1/scrape: request rules', () => {
  it('rejects unknown fields and accepts origin', async () => {
    const bad = await scrape({ url: `${site.url}/article`, pageOptions: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'pageOptions', message: 'is not a recognised field' }]);
    const ok = await scrape({ url: `${site.url}/plain.txt`, origin: 'js-sdk@1.0' });
    expect(ok.status).toBe(200);
  });

  it('bounds free-form fields and compiles extraction schemas before accepting them, naming the field', async () => {
    const big = await scrape({ url: `${site.url}/article`, metadata: { note: 'x'.repeat(17_000) } });
    expect([big.status, big.body.details]).toEqual([400, [{ field: 'metadata', message: 'is over 16384 characters of JSON' }]]);
    const deep = await scrape({ url: `${site.url}/article`, metadata: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) });
    expect([deep.status, (deep.body.details as { field: string }[])[0]!.field]).toEqual([400, 'metadata.a.a…']);
    const schema = await scrape({ url: `${site.url}/article`, formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { a: { type: 'nope' } } } } });
    expect(schema.status).toBe(400);
    expect(schema.body.details).toEqual([{ field: 'jsonOptions.schema', message: expect.stringMatching(/^is not a JSON Schema this server can use: schema is invalid/) }]);
  });

  it('rejects a waitFor that leaves no room in the timeout', async () => {
    const res = await scrape({ url: `${site.url}/article`, timeout: 4000, waitFor: 3000 });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'waitFor', message: 'must be at most half of timeout (4000 ms), so the page has time to load: at most 2000' }]);
  });

  it('rejects both screenshot formats at once, and out-of-range numbers', async () => {
    const res = await scrape({ url: `${site.url}/article`, formats: ['screenshot', 'screenshot@fullPage'], timeout: 999 });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'timeout', message: 'must be >= 1000' }]);
    const both = await scrape({ url: `${site.url}/article`, formats: ['screenshot', 'screenshot@fullPage'] });
    expect(both.body.details).toEqual([{ field: 'formats', message: 'choose one of screenshot, screenshot@fullPage' }]);
  });

  it('adds https:// to a URL without a scheme', async () => {
    // A loopback host without scheme becomes https://, where nothing listens: the request is taken, and fails to fetch.
    const res = await scrape({ url: `127.0.0.1:${site.port}/article`, timeout: 5000 });
    expect(res.status).toBe(502);
    expect(String(res.body.error)).toContain(`https://127.0.0.1:${site.port}/article`);
  });

  it('refuses a non-http scheme with 400 url_not_allowed', async () => {
    const res = await scrape({ url: 'file:///etc/passwd' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('url_not_allowed');
    expect((res.body.details as { field: string }[])[0]!.field).toBe('url');
  });
});
