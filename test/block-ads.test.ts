/** blockAds end to end: advert and tracker requests refused in the browser by the bundled EasyList and EasyPrivacy, counted in metadata. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let site: FixtureServer;
let stack: TestStack;

beforeAll(async () => {
  const image = (_q: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  site = await startFixtureServer({
    // Two requests EasyList refuses by their paths (banner sizes), one it does not.
    '/page': html(`<html><head><title>Ads</title><script src="/js/ad-300x250_.js"></script></head><body><h1>News</h1><p>${"Text of the article, long enough to be read without a browser. ".repeat(20)}</p>
<img src="/img/banner-468x60.gif" alt=""><img src="/img/plant.png" alt="A plant"></body></html>`),
    '/img/banner-468x60.gif': image,
    '/img/plant.png': image,
    '/js/ad-300x250_.js': (_q, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end('document.title = "ad ran";'),
  });
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

type Doc = { markdown: string; metadata: Record<string, unknown> };
const hits = (path: string) => site.hitsFor(path).length;

describe('blockAds', () => {
  it('is on by default: the browser refuses the advert requests, counts them, and loads the rest', async () => {
    const before = { banner: hits('/img/banner-468x60.gif'), script: hits('/js/ad-300x250_.js'), plant: hits('/img/plant.png') };
    const res = await stack.post('/v1/scrape', { url: `${site.url}/page`, waitFor: 10 });
    expect(res.status).toBe(200);
    const doc = res.body.data as Doc;
    expect(doc.metadata).toMatchObject({ engine: 'local_browser', adsBlocked: 2, title: 'Ads' });
    expect({ banner: hits('/img/banner-468x60.gif'), script: hits('/js/ad-300x250_.js'), plant: hits('/img/plant.png') }).toEqual({ ...before, plant: before.plant + 1 });
  });

  it('blockAds: false lets them through and counts nothing', async () => {
    const before = hits('/img/banner-468x60.gif');
    const res = await stack.post('/v1/scrape', { url: `${site.url}/page`, waitFor: 10, blockAds: false });
    expect(res.status).toBe(200);
    const doc = res.body.data as Doc;
    expect(doc.metadata.adsBlocked).toBeUndefined();
    expect(doc.metadata.title).toBe('ad ran');
    expect(hits('/img/banner-468x60.gif')).toBe(before + 1);
  });

  it('the fetch engine has nothing to block: no count', async () => {
    const res = await stack.post('/v1/scrape', { url: `${site.url}/page` });
    expect([(res.body.data as Doc).metadata.engine, (res.body.data as Doc).metadata.adsBlocked]).toEqual(['fetch', undefined]);
  });
});
