import { describe, expect, it } from 'vitest';
import { InvalidSelectorError } from './errors.js';
import { MAX_ATTRIBUTE_VALUE_CHARS, MAX_ATTRIBUTE_VALUES } from './attributes.js';
import { processPage } from './index.js';
import type { AttributeSelector } from './types.js';

const url = 'https://example.com/shop/';

async function attributes(body: string, pairs: AttributeSelector[], options: { contentType?: string; onlyMainContent?: boolean; excludeTags?: string[] } = {}) {
  return (await processPage({ body, url, contentType: options.contentType, formats: new Set(['markdown']), attributes: pairs, ...options })).attributes;
}

const page = `<html lang="en"><head><meta name="x" content="1"></head><body>
  <nav><a href="/home" data-track="nav-home">Home</a></nav>
  <main><div class="product" data-id="p1" data-price="9.50"><a href="item/1">One</a></div>
  <div class="product" data-id="p2"><a href="item/2" title="">Two</a></div>
  <div class="product"><a>Three</a></div></main></body></html>`;

describe('attributes format', () => {
  it('answers one entry per pair, in order, with the values of every matching element that has the attribute', async () => {
    expect(await attributes(page, [{ selector: '.product', attribute: 'data-id' }, { selector: 'a', attribute: 'href' }, { selector: '.product', attribute: 'data-price' }, { selector: 'img', attribute: 'src' }])).toEqual([
      { selector: '.product', attribute: 'data-id', values: ['p1', 'p2'] },
      { selector: 'a', attribute: 'href', values: ['/home', 'item/1', 'item/2'] },
      { selector: '.product', attribute: 'data-price', values: ['9.50'] },
      { selector: 'img', attribute: 'src', values: [] },
    ]);
  });

  it('keeps empty values, matches the root element, and reads attribute names case-insensitively', async () => {
    expect(await attributes(page, [{ selector: 'a', attribute: 'title' }, { selector: 'html', attribute: 'LANG' }, { selector: 'meta[name=x]', attribute: 'content' }])).toEqual([
      { selector: 'a', attribute: 'title', values: [''] },
      { selector: 'html', attribute: 'LANG', values: ['en'] },
      { selector: 'meta[name=x]', attribute: 'content', values: ['1'] },
    ]);
  });

  it('reads the whole, untouched page: excludeTags and onlyMainContent shape only the content formats', async () => {
    expect(await attributes(page, [{ selector: 'nav a', attribute: 'data-track' }], { onlyMainContent: true, excludeTags: ['nav'] })).toEqual([{ selector: 'nav a', attribute: 'data-track', values: ['nav-home'] }]);
  });

  it(`keeps at most ${MAX_ATTRIBUTE_VALUES} values per pair, each at most ${MAX_ATTRIBUTE_VALUE_CHARS} characters`, async () => {
    const many = Array.from({ length: MAX_ATTRIBUTE_VALUES + 3 }, (_, i) => `<i data-n="${i}"></i>`).join('') + `<b data-long="${'x'.repeat(MAX_ATTRIBUTE_VALUE_CHARS + 10)}"></b>`;
    const [n, long] = (await attributes(many, [{ selector: 'i', attribute: 'data-n' }, { selector: 'b', attribute: 'data-long' }]))!;
    expect(n!.values).toHaveLength(MAX_ATTRIBUTE_VALUES);
    expect(n!.values.at(-1)).toBe(String(MAX_ATTRIBUTE_VALUES - 1));
    expect(long!.values).toEqual(['x'.repeat(MAX_ATTRIBUTE_VALUE_CHARS)]);
  });

  it('answers empty values for a page without markup', async () => {
    expect(await attributes('{"a": 1}', [{ selector: 'a', attribute: 'href' }], { contentType: 'application/json' })).toEqual([{ selector: 'a', attribute: 'href', values: [] }]);
  });

  it('fails with an InvalidSelectorError naming attributesOptions for a selector the engine cannot use', async () => {
    for (const body of [page, '{"a": 1}']) {
      const error = await attributes(body, [{ selector: 'a:hover', attribute: 'href' }], { contentType: body === page ? undefined : 'application/json' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidSelectorError);
      expect(error).toMatchObject({ selector: 'a:hover', option: 'attributesOptions', code: 'invalid_selector' });
    }
  });
});
