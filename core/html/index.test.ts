import { describe, expect, it } from 'vitest';
import { processPage } from './index.js';

const url = 'https://example.com/shop/item?id=7';
const html = `<!DOCTYPE html><html lang="fr"><head><title>Item 7</title><meta name="description" content="An item">
<script>track()</script><style>p { color: red }</style></head>
<body><!-- build 42 --><h1>Item <em>7</em></h1><p>See <a href="../help#faq">help</a>.</p><script>late()</script></body></html>`;

describe('processPage formats', () => {
  it('produces every requested format from one page', async () => {
    const result = await processPage({ body: new TextEncoder().encode(html), contentType: 'text/html; charset=utf-8', url, formats: new Set(['markdown', 'html', 'rawHtml', 'links']) });
    expect(result).toEqual({
      markdown: '# Item *7*\n\nSee [help](https://example.com/help#faq).',
      html: '<h1>Item <em>7</em></h1><p>See <a href="https://example.com/help#faq">help</a>.</p>',
      rawHtml: html,
      links: ['https://example.com/help'],
      metadata: { contentType: 'text/html', title: 'Item 7', description: 'An item', language: 'fr' },
    });
  });

  it('returns only the formats asked for', async () => {
    expect(Object.keys(await processPage({ body: html, url, formats: new Set(['links']) })).sort()).toEqual(['links', 'metadata']);
    expect(Object.keys(await processPage({ body: html, url, formats: new Set(['rawHtml']) })).sort()).toEqual(['metadata', 'rawHtml']);
    expect(Object.keys(await processPage({ body: html, url, formats: new Set() }))).toEqual(['metadata']);
  });

  it('accepts an already decoded string, as a browser engine returns it', async () => {
    const result = await processPage({ body: '<p>Déjà vu</p>', contentType: 'text/html; charset=shift_jis', url, formats: new Set(['markdown']) });
    expect(result.markdown).toBe('Déjà vu');
  });

  it('handles an empty body', async () => {
    expect(await processPage({ body: new Uint8Array(), contentType: 'text/html', url, formats: new Set(['markdown', 'html', 'links']) })).toEqual({
      markdown: '',
      html: '',
      links: [],
      metadata: { contentType: 'text/html' },
    });
  });

  it('survives pathologically deep nesting by flattening below 512 levels', async () => {
    const depth = 2000;
    const body = `${'<div><p>a</p>'.repeat(depth)}<b>end</b>${'</div>'.repeat(depth)}`;
    const result = await processPage({ body, url, formats: new Set(['markdown']) });
    // Levels above the limit keep their paragraphs; below it, the text survives in order, spaced,
    // without its markup.
    const paragraphs = result.markdown!.split('\n\n');
    const flattened = paragraphs.at(-1)!.split(/ +/);
    expect(paragraphs.slice(0, -1).every((p) => p === 'a')).toBe(true);
    expect(flattened.at(-1)).toBe('end');
    expect(paragraphs.length - 1 + flattened.length - 1).toBe(depth);
  });

  it('ends a <title> that is never closed at the next tag instead of losing the page to it', async () => {
    const story = 'The council voted on Tuesday to rebuild the harbour wall before the winter storms. '.repeat(8);
    const body = `<html><head><title>Harbour news<!-- ad slot --><script src="/ads.js"></script>
<meta name="description" content="Local news"></head><body><h1>Wall to be rebuilt</h1><p>${story}</p></body></html>`;
    for (const onlyMainContent of [false, true]) {
      const result = await processPage({ body, url, formats: new Set(['markdown']), onlyMainContent });
      expect(result.markdown).toBe(`# Wall to be rebuilt\n\n${story.trim()}`);
      expect(result.metadata.title).toBe('Harbour news');
    }
    // A closed title holding a tag-like text is left as it is.
    const closed = await processPage({ body: '<title>Use <b> for bold</title><p>Body</p>', url, formats: new Set(['markdown']) });
    expect(closed.metadata.title).toBe('Use <b> for bold');
    expect(closed.markdown).toBe('Body');
  });
});
