/**
 * The images, attributes and summary formats end to end (README "Images, attributes and summary"):
 * v1 and v2 scrape, a batch scrape's status pages, a browser-rendered page, the summary through a
 * local chat-completions stand-in (and without one), the 400s naming an invalid selector, and the
 * page cache keeping copies with and without these formats apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM_PROMPT } from '../activities/llm/summary.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const galleryHtml = `<!doctype html><html lang="en"><head><title>Gallery</title><base href="/assets/">
<meta property="og:image" content="https://cdn.example/og.png"><meta name="twitter:image" content="tw.png"></head><body>
<nav><img src="/logo.svg" alt="Logo"></nav>
<main><h1>Gallery</h1><p>Three products.</p>
<picture><source srcset="hero.avif 1x, hero@2x.avif 2x" type="image/avif"><img src="hero.jpg" srcset="hero-800.jpg 800w, hero.jpg 1600w" alt="Hero"></picture>
<ul><li class="item" data-sku="a-1"><a href="/items/1">One</a></li><li class="item" data-sku="b-2"><a href="/items/2">Two</a></li><li class="item"><a>Three</a></li></ul>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Pixel"><img src="/logo.svg" alt="Logo again"></main></body></html>`;

const galleryImages = (base: string) => ['https://cdn.example/og.png', `${base}/assets/tw.png`, `${base}/logo.svg`, `${base}/assets/hero.avif`, `${base}/assets/hero@2x.avif`, `${base}/assets/hero.jpg`, `${base}/assets/hero-800.jpg`];
const selectors = [{ selector: 'li.item', attribute: 'data-sku' }, { selector: 'li.item a', attribute: 'href' }];
const attributes = [
  { selector: 'li.item', attribute: 'data-sku', values: ['a-1', 'b-2'] },
  { selector: 'li.item a', attribute: 'href', values: ['/items/1', '/items/2'] },
];

/** Images and an attribute only a browser sees: the page builds them with a script. */
const scriptedHtml = `<!doctype html><html><head><title>Scripted</title></head><body><div id="root"></div>
<script>document.getElementById('root').innerHTML = '<h1>Rendered</h1><img src="/drawn.png" data-kind="drawn" alt="Drawn">';</script></body></html>`;

const SUMMARY = 'A gallery of three products.';

let site: FixtureServer;
let llm: FakeLlm;
let withLlm: TestStack;
let withoutLlm: TestStack;

beforeAll(async () => {
  [site, llm] = await Promise.all([
    startFixtureServer({
      '/gallery': html(galleryHtml),
      '/scripted': html(scriptedHtml),
      '/plain': html('<html><head><title>Plain</title></head><body><p>No images here.</p></body></html>'),
      '/refused-summary': html('<html><head><title>No</title></head><body><p>The model fails on this page.</p></body></html>'),
    }),
    // A page saying "fails" gets an HTTP 500: the summary's failure path.
    startFakeLlm((request) => (request.messages.some((m) => m.content.includes('The model fails')) ? { status: 500, body: '{"error":{"message":"model overloaded"}}' } : SUMMARY)),
  ]);
  [withLlm, withoutLlm] = await Promise.all([startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'summary-model' }), startTestStack()]);
});
afterAll(async () => {
  await Promise.all([withLlm?.close(), withoutLlm?.close()]);
  await Promise.all([site?.close(), llm?.close()]);
});

type Doc = { markdown?: string; images?: string[]; attributes?: unknown; summary?: string; warning?: string; metadata: Record<string, unknown> };
const data = (r: { body: Record<string, unknown> }) => r.body.data as Doc;

describe('v1 scrape', () => {
  it('returns images of the whole page and attribute values, as asked and nothing else', async () => {
    const res = await withLlm.post('/v1/scrape', { url: `${site.url}/gallery`, formats: ['images', 'attributes'], attributesOptions: { selectors }, onlyMainContent: true });
    expect(res.status).toBe(200);
    expect(Object.keys(data(res)).sort()).toEqual(['attributes', 'images', 'metadata']);
    expect(data(res).images).toEqual(galleryImages(site.url));
    expect(data(res).attributes).toEqual(attributes);
    expect(data(res).metadata).toMatchObject({ title: 'Gallery', statusCode: 200, engine: 'fetch' });
  });

  it('summarises the page’s markdown with the LLM, sending the page and no response_format', async () => {
    const before = llm.requests.length;
    const res = await withLlm.post('/v1/scrape', { url: `${site.url}/gallery`, formats: ['markdown', 'summary'] });
    expect(res.status).toBe(200);
    expect(res.body.warning).toBeUndefined();
    expect(Object.keys(data(res)).sort()).toEqual(['markdown', 'metadata', 'summary']);
    expect(data(res).summary).toBe(SUMMARY);
    expect(llm.requests).toHaveLength(before + 1);
    const sent = llm.requests.at(-1)!;
    expect(sent.model).toBe('summary-model');
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages).toEqual([
      { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
      { role: 'user', content: `Page URL: ${site.url}/gallery\n\nPage content (markdown):\n${data(res).markdown}` },
    ]);
    expect(data(res).markdown).toContain('# Gallery');
  });

  it('answers a failing LLM with a warning and summaryError; the scrape succeeds', async () => {
    const res = await withLlm.post('/v1/scrape', { url: `${site.url}/refused-summary`, formats: ['summary'] });
    expect(res.status).toBe(200);
    const message = 'LLM endpoint answered HTTP 500: {"error":{"message":"model overloaded"}}';
    expect(res.body.warning).toBe(`Summary failed: ${message}`);
    expect(data(res).summary).toBeUndefined();
    expect(data(res).metadata.summaryError).toBe(message);
  });

  it('skips the summary without LLM settings: metadata.extractSkipped, no summary, the rest as asked', async () => {
    const res = await withoutLlm.post('/v1/scrape', { url: `${site.url}/gallery`, formats: ['summary', 'images'] });
    expect(res.status).toBe(200);
    expect(Object.keys(data(res)).sort()).toEqual(['images', 'metadata']);
    expect(data(res).metadata.extractSkipped).toBe(true);
    expect(data(res).images).toEqual(galleryImages(site.url));
  });

  it('refuses attributes without its options, and an invalid selector, naming the field before fetching', async () => {
    const fetched = site.hitsFor('/gallery').length;
    const missing = await withLlm.post('/v1/scrape', { url: `${site.url}/gallery`, formats: ['attributes'] });
    expect([missing.status, missing.body.details]).toEqual([400, [{ field: 'attributesOptions', message: 'is required with the attributes format: give { "selectors": [{ "selector", "attribute" }] }' }]]);
    const invalid = await withLlm.post('/v1/scrape', { url: `${site.url}/gallery`, formats: ['attributes'], attributesOptions: { selectors: [{ selector: 'a', attribute: 'href' }, { selector: 'a:hover', attribute: 'href' }] } });
    expect([invalid.status, invalid.body.code, invalid.body.details]).toEqual([400, 'invalid_request', [{ field: 'attributesOptions.selectors[1].selector', message: 'is not a CSS selector this server can match: unsupported pseudo-class :hover' }]]);
    expect(site.hitsFor('/gallery')).toHaveLength(fetched);
  });
});

describe('v2 scrape', () => {
  it('takes images, summary and the attributes object, into images, summary and attributes', async () => {
    const res = await withLlm.post('/v2/scrape', { url: `${site.url}/gallery`, formats: ['images', 'summary', { type: 'attributes', selectors }] });
    expect(res.status).toBe(200);
    expect(data(res)).toEqual({ images: galleryImages(site.url), summary: SUMMARY, attributes, metadata: expect.objectContaining({ title: 'Gallery', sourceURL: `${site.url}/gallery` }) });
  });

  it('answers an invalid selector with 400 naming formats[i].selectors[j].selector, and bounds the selectors', async () => {
    const fetched = site.hitsFor('/gallery').length;
    const res = await withLlm.post('/v2/scrape', { url: `${site.url}/gallery`, formats: ['markdown', { type: 'attributes', selectors: [{ selector: 'li', attribute: 'id' }, { selector: 'p::before', attribute: 'id' }] }] });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'formats[1].selectors[1].selector', message: 'is not a CSS selector this server can match: pseudo-elements select nothing in a document' }]);
    const bare = await withLlm.post('/v2/scrape', { url: `${site.url}/gallery`, formats: ['attributes'] });
    expect(bare.body.details).toEqual([{ field: 'formats[0]', message: 'the attributes format needs its selectors: { "type": "attributes", "selectors": [{ "selector": "...", "attribute": "..." }] }' }]);
    const tooMany = await withLlm.post('/v2/scrape', { url: `${site.url}/gallery`, formats: [{ type: 'attributes', selectors: Array.from({ length: 21 }, () => ({ selector: 'a', attribute: 'href' })) }] });
    expect(tooMany.body.details).toEqual([{ field: 'formats[0].selectors', message: 'must NOT have more than 20 items' }]);
    const noAttribute = await withLlm.post('/v2/scrape', { url: `${site.url}/gallery`, formats: [{ type: 'attributes', selectors: [{ selector: 'a' }] }] });
    expect(noAttribute.body.details).toEqual([{ field: 'formats[0].selectors[0].attribute', message: 'is required' }]);
    expect(site.hitsFor('/gallery')).toHaveLength(fetched);
  });

  it('reads images and attributes from a browser-rendered page, through the same conversion', async () => {
    const res = await withLlm.post('/v2/scrape', { url: `${site.url}/scripted`, waitFor: 200, formats: ['images', { type: 'attributes', selectors: [{ selector: 'img', attribute: 'data-kind' }] }] });
    expect(res.status).toBe(200);
    expect(data(res).metadata.engine).toBe('local_browser');
    expect(data(res).images).toEqual([`${site.url}/drawn.png`]);
    expect(data(res).attributes).toEqual([{ selector: 'img', attribute: 'data-kind', values: ['drawn'] }]);
  });
});

describe('batch scrape pages', () => {
  it('carry images, attributes and summary on the status pages (v2 and v1)', async () => {
    const urls = [`${site.url}/gallery`, `${site.url}/plain`];
    const started = await withLlm.post('/v2/batch/scrape', { urls, formats: ['images', 'summary', { type: 'attributes', selectors }] });
    expect(started.status).toBe(200);
    const id = String(started.body.id);
    const done = await pollUntil(() => withLlm.get(`/v2/batch/scrape/${id}`), (r) => r.body.status !== 'scraping', 'batch ended');
    expect(done.body).toMatchObject({ status: 'completed', completed: 2 });
    const docs = done.body.data as Doc[];
    const gallery = docs.find((d) => d.metadata.sourceURL === urls[0]);
    expect(gallery).toEqual({ images: galleryImages(site.url), attributes, summary: SUMMARY, metadata: expect.objectContaining({ title: 'Gallery' }) });
    const plain = docs.find((d) => d.metadata.sourceURL === urls[1]);
    expect(plain).toEqual({ images: [], attributes: selectors.map((s) => ({ ...s, values: [] })), summary: SUMMARY, metadata: expect.objectContaining({ title: 'Plain' }) });
    const v1 = await withLlm.get(`/v1/batch/scrape/${id}`);
    expect((v1.body.data as Doc[]).find((d) => d.metadata.sourceURL === urls[0])).toEqual(gallery);
  });
});

describe('page cache', () => {
  it('keeps copies with and without images, attributes or summary apart', async () => {
    const url = `${site.url}/gallery?cache=${Date.now()}`;
    const path = new URL(url).pathname + new URL(url).search;
    const scrape = (formats: unknown[]) => withLlm.post('/v2/scrape', { url, formats, maxAge: 600_000 });
    const plain = await scrape(['markdown']);
    expect(data(plain).metadata.cacheState).toBe('miss');
    const withImages = await scrape(['markdown', 'images']);
    expect([data(withImages).metadata.cacheState, data(withImages).images]).toEqual(['miss', galleryImages(site.url)]);
    const again = await scrape(['markdown', 'images']);
    expect([data(again).metadata.cacheState, data(again).images, data(again).markdown]).toEqual(['hit', galleryImages(site.url), data(withImages).markdown]);
    const otherSelector = await scrape(['markdown', { type: 'attributes', selectors: [selectors[0]] }]);
    expect([data(otherSelector).metadata.cacheState, data(otherSelector).attributes]).toEqual(['miss', [attributes[0]]]);
    const summary = await scrape(['markdown', 'summary']);
    const summaryAgain = await scrape(['markdown', 'summary']);
    expect([data(summary).metadata.cacheState, data(summaryAgain).metadata.cacheState, data(summaryAgain).summary]).toEqual(['miss', 'hit', SUMMARY]);
    expect(site.hitsFor(path)).toHaveLength(4);
  });
});
