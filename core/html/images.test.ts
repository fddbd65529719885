import { describe, expect, it } from 'vitest';
import { processPage } from './index.js';
import { MAX_IMAGES } from './images.js';

const url = 'https://example.com/blog/post.html';

async function images(body: string, options: { contentType?: string; onlyMainContent?: boolean; includeTags?: string[]; formats?: ('images' | 'markdown')[] } = {}) {
  return (await processPage({ body, url, contentType: options.contentType, formats: new Set(options.formats ?? ['images']), onlyMainContent: options.onlyMainContent, includeTags: options.includeTags })).images;
}

describe('images format', () => {
  it('resolves relative, root-relative and protocol-relative URLs against the page URL', async () => {
    const html = '<img src="a.png"><img src="/b.png"><img src="//cdn.example.net/c.png"><img src="https://other.example/d.png">';
    expect(await images(html)).toEqual(['https://example.com/blog/a.png', 'https://example.com/b.png', 'https://cdn.example.net/c.png', 'https://other.example/d.png']);
  });

  it('resolves against <base href>, itself relative to the page URL', async () => {
    const html = '<head><base href="/static/v2/"></head><body><img src="x.png"><img src="/root.png"></body>';
    expect(await images(html)).toEqual(['https://example.com/static/v2/x.png', 'https://example.com/root.png']);
  });

  it('takes every srcset candidate, with or without descriptors, after src', async () => {
    const html = '<img src="small.jpg" srcset="medium.jpg 2x, large.jpg 1200w,https://img.example/huge.jpg 3x, glued.jpg,  last.jpg, one,url.jpg">';
    expect(await images(html)).toEqual([
      'https://example.com/blog/small.jpg',
      'https://example.com/blog/medium.jpg',
      'https://example.com/blog/large.jpg',
      'https://img.example/huge.jpg',
      'https://example.com/blog/glued.jpg',
      'https://example.com/blog/last.jpg',
      // A comma inside a URL is part of it (HTML's srcset parsing).
      'https://example.com/blog/one,url.jpg',
    ]);
  });

  it('reads <picture> sources and the fallback img, but not a video’s media sources', async () => {
    const html = `<picture><source srcset="/hero.avif 1x, /hero@2x.avif 2x" type="image/avif"><source srcset="/hero.webp"><img src="/hero.jpg" alt=""></picture>
      <video poster="/poster.jpg"><source src="/movie.mp4" type="video/mp4"></video>`;
    expect(await images(html)).toEqual(['https://example.com/hero.avif', 'https://example.com/hero@2x.avif', 'https://example.com/hero.webp', 'https://example.com/hero.jpg', 'https://example.com/poster.jpg']);
  });

  it('includes og:image, twitter:image, itemprop=image and image_src from the head, in document order', async () => {
    const html = `<head><meta property="og:image" content="/og.png"><meta property="og:image:secure_url" content="https://example.com/og-secure.png">
      <meta name="twitter:image" content="tw.png"><meta name="twitter:image:alt" content="not an image"><meta itemprop="image" content="/schema.png">
      <link rel="image_src" href="/thumb.png"><link rel="icon" href="/favicon.ico"></head><body><img src="/body.png"></body>`;
    expect(await images(html)).toEqual([
      'https://example.com/og.png',
      'https://example.com/og-secure.png',
      'https://example.com/blog/tw.png',
      'https://example.com/schema.png',
      'https://example.com/thumb.png',
      'https://example.com/body.png',
    ]);
  });

  it('deduplicates by absolute URL, keeping the first place each image appears', async () => {
    const html = '<head><meta property="og:image" content="https://example.com/blog/a.png"></head><body><img src="a.png"><img src="/blog/a.png" srcset="b.png 1x, a.png 2x"><img src="b.png"></body>';
    expect(await images(html)).toEqual(['https://example.com/blog/a.png', 'https://example.com/blog/b.png']);
  });

  it('leaves out data: and blob: URLs and other schemes, but takes the lazy-loaded real source', async () => {
    const html = `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/lazy.png"><img src="blob:https://example.com/1234">
      <img srcset="data:image/png;base64,AAAA 1x, /ok.png 2x"><img src="javascript:alert(1)"><img src="ftp://files.example/x.png"><img src="  "><img>`;
    expect(await images(html)).toEqual(['https://example.com/lazy.png', 'https://example.com/ok.png']);
  });

  it('reads inline background images and image inputs', async () => {
    const html = `<div style="background-image: url('/bg.jpg'); color: red"></div><section style="background: #fff url(&quot;tile.png&quot;) repeat"></section>
      <span style="mask: url(/mask.svg)"></span><input type="image" src="/go.png"><input type="text" src="/no.png">`;
    expect(await images(html)).toEqual(['https://example.com/bg.jpg', 'https://example.com/blog/tile.png', 'https://example.com/go.png']);
  });

  it('takes images from the whole page, whatever onlyMainContent and includeTags keep for the markdown', async () => {
    const html = '<header><img src="/logo.png" alt="logo"></header><main><p>Text <img src="/in.png" alt="in"></p></main><aside><img src="/side.png"></aside>';
    const page = await processPage({ body: html, url, formats: new Set(['images', 'markdown']), onlyMainContent: true, includeTags: ['main'] });
    expect(page.images).toEqual(['https://example.com/logo.png', 'https://example.com/in.png', 'https://example.com/side.png']);
    expect(page.markdown).toBe('Text ![in](https://example.com/in.png)');
  });

  it('is absent unless asked for, and empty for a page without markup', async () => {
    expect(await images('<img src="/a.png">', { formats: ['markdown'] })).toBeUndefined();
    expect(await images('{"image": "/a.png"}', { contentType: 'application/json' })).toEqual([]);
    expect(await images('plain <img src="/a.png">', { contentType: 'text/plain' })).toEqual([]);
  });

  it(`stops at ${MAX_IMAGES} images`, async () => {
    const html = Array.from({ length: MAX_IMAGES + 5 }, (_, i) => `<img src="/i/${i}.png">`).join('');
    const found = (await images(html))!;
    expect(found).toHaveLength(MAX_IMAGES);
    expect(found.at(-1)).toBe(`https://example.com/i/${MAX_IMAGES - 1}.png`);
  });
});
