import { describe, expect, it } from 'vitest';
import { MAX_SITEMAP_ENTRIES, parseSitemap } from './sitemap.js';

describe('parseSitemap: XML', () => {
  it('reads the loc of each url in a urlset', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc><lastmod>2026-01-01</lastmod></url>
  <url>
    <loc>
      https://example.com/a
    </loc>
    <changefreq>daily</changefreq>
  </url>
</urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urls: ['https://example.com/', 'https://example.com/a'] });
  });

  it('reads a sitemap index as kind index', () => {
    const xml = `<?xml version="1.0"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/posts.xml.gz</loc><lastmod>2026-01-01</lastmod></sitemap>
  <sitemap><loc>https://example.com/pages.xml</loc></sitemap>
</sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'index', urls: ['https://example.com/posts.xml.gz', 'https://example.com/pages.xml'] });
  });

  it('decodes entities and CDATA, and skips comments', () => {
    const xml = `<urlset>
  <!-- <url><loc>https://example.com/commented</loc></url> -->
  <url><loc>https://example.com/q?a=1&amp;b=2&#38;c=&#x33;</loc></url>
  <url><loc><![CDATA[https://example.com/raw?a=1&b=2]]></loc></url>
</urlset>`;
    expect(parseSitemap(xml).urls).toEqual(['https://example.com/q?a=1&b=2&c=3', 'https://example.com/raw?a=1&b=2']);
  });

  it('tolerates a namespace prefix and ignores extension locs', () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url><sm:loc>https://example.com/p</sm:loc><image:image><image:loc>https://example.com/p.jpg</image:loc></image:image></sm:url>
</sm:urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urls: ['https://example.com/p'] });
    const plain = `<urlset><url><loc>https://example.com/q</loc><image:image><image:loc>https://example.com/q.jpg</image:loc></image:image></url></urlset>`;
    expect(parseSitemap(plain).urls).toEqual(['https://example.com/q']);
  });

  it('keeps absolute http(s) URLs only, once each', () => {
    const xml = '<urlset><url><loc>/relative</loc></url><url><loc>ftp://example.com/f</loc></url><url><loc/></url>' +
      '<url><loc>https://example.com/x</loc></url><url><loc>https://example.com/x</loc></url></urlset>';
    expect(parseSitemap(xml).urls).toEqual(['https://example.com/x']);
  });

  it('returns nothing for HTML or a truncated file', () => {
    expect(parseSitemap('<!doctype html><html><body>Not found</body></html>')).toEqual({ kind: 'urlset', urls: [] });
    expect(parseSitemap('<urlset><url><loc>https://example.com/a</loc></url><url><loc>https://exa')).toEqual({
      kind: 'urlset',
      urls: ['https://example.com/a'],
    });
  });

  it(`reads at most ${MAX_SITEMAP_ENTRIES} entries`, () => {
    const entries = Array.from({ length: MAX_SITEMAP_ENTRIES + 5 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`);
    const { urls } = parseSitemap(`<urlset>${entries.join('')}</urlset>`);
    expect([urls.length, urls.at(-1)]).toEqual([MAX_SITEMAP_ENTRIES, `https://example.com/${MAX_SITEMAP_ENTRIES - 1}`]);
  });

  it('scans a malformed file in linear time', () => {
    const started = Date.now();
    expect(parseSitemap(`<urlset>${'<!--'.repeat(200_000)}`).urls).toEqual([]);
    expect(parseSitemap(`<urlset>${'<loc>x'.repeat(200_000)}`).urls).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('parseSitemap: plain text', () => {
  it('reads one URL per line, ignoring blank and non-URL lines', () => {
    const text = '\uFEFFhttps://example.com/a\r\n\r\n  https://example.com/b  \nnot a url\nmailto:x@example.com\nhttps://example.com/a\n';
    expect(parseSitemap(text)).toEqual({ kind: 'urlset', urls: ['https://example.com/a', 'https://example.com/b'] });
  });
});
