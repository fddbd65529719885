import { describe, expect, it } from 'vitest';
import { chunksOf, mergeAnswers, patternBase, urlPattern } from './extract.js';

describe('extract jobs: patterns, chunks, merging', () => {
  it('turns a URL with * into a matcher and finds where to map it from', () => {
    const p = urlPattern('https://site.test/docs/*')!;
    expect(['https://site.test/docs/a', 'https://site.test/docs/a/b?x=1', 'https://site.test/blog/a', 'https://site.test/docs', 'https://site.test/docs/'].map((u) => p.test(u))).toEqual([true, true, false, false, false]);
    expect(urlPattern('https://site.test/a.html')).toBeUndefined();
    expect(urlPattern('https://site.test/a+b/*.html')!.test('https://site.test/a+b/x.html')).toBe(true);
    expect(patternBase('https://site.test/docs/*')).toBe('https://site.test/docs/');
    expect(patternBase('https://site.test/docs/guide-*')).toBe('https://site.test/docs/');
  });

  it('cuts long pages at paragraph breaks, each piece within the size', () => {
    const text = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)].join('\n\n');
    expect(chunksOf(text, 90)).toEqual(['a'.repeat(40) + '\n\n' + 'b'.repeat(40), 'c'.repeat(40)]);
    expect(chunksOf('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    expect(chunksOf('', 10)).toEqual(['']);
  });

  it('merges answers in page order: lists joined without repeats, other fields from the first page that has them, with sources', () => {
    const merged = mergeAnswers([
      { url: 'https://a.test/', data: { name: 'Acme', founded: null, products: ['rockets', 'anvils'] } },
      { url: 'https://b.test/', data: { name: 'ACME Corp', founded: 1949, products: ['anvils', 'magnets'] } },
      { url: 'https://c.test/', data: 'loose text' },
    ]);
    expect(merged).toEqual({
      data: { name: 'Acme', founded: 1949, products: ['rockets', 'anvils', 'magnets'], items: ['loose text'] },
      sources: { name: ['https://a.test/'], products: ['https://a.test/', 'https://b.test/'], founded: ['https://b.test/'], items: ['https://c.test/'] },
    });
  });
});
