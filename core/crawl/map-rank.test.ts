import { describe, expect, it } from 'vitest';
import { rankForSearch, sameSiteFilter, searchTerms } from './map-rank.js';

describe('searchTerms', () => {
  it('splits on non-alphanumerics, lower-cases and deduplicates', () => {
    expect(searchTerms('  Pricing-API, pricing / Café 2 ')).toEqual(['pricing', 'api', 'café', '2']);
    expect(searchTerms('--- ///')).toEqual([]);
  });
});

describe('rankForSearch', () => {
  const urls = [
    'https://example.com/',
    'https://example.com/blog/api-changes',
    'https://example.com/docs/api/pricing',
    'https://example.com/pricing',
    'https://example.com/about',
    'https://example.com/docs/API/Pricing-v2',
  ];

  it('puts URLs with all terms first, then some, then none, stable within each', () => {
    expect(rankForSearch(urls, 'pricing api')).toEqual([
      'https://example.com/docs/api/pricing',
      'https://example.com/docs/API/Pricing-v2',
      'https://example.com/blog/api-changes',
      'https://example.com/pricing',
      'https://example.com/',
      'https://example.com/about',
    ]);
  });

  it('matches terms inside words and percent-decoded text, not the scheme', () => {
    expect(rankForSearch(['https://example.com/a', 'https://example.com/docs/x', 'https://example.com/caf%C3%A9'], 'doc')).toEqual([
      'https://example.com/docs/x',
      'https://example.com/a',
      'https://example.com/caf%C3%A9',
    ]);
    expect(rankForSearch(['https://example.com/a', 'https://example.com/caf%C3%A9'], 'CAFÉ')).toEqual([
      'https://example.com/caf%C3%A9',
      'https://example.com/a',
    ]);
    expect(rankForSearch(['https://example.com/a', 'https://example.com/https-guide'], 'https')).toEqual([
      'https://example.com/https-guide',
      'https://example.com/a',
    ]);
  });

  it('leaves the order alone without a usable search, and never changes its input', () => {
    const input = [...urls];
    expect(rankForSearch(input)).toEqual(urls);
    expect(rankForSearch(input, '  ')).toEqual(urls);
    rankForSearch(input, 'about');
    expect(input).toEqual(urls);
  });

  it('tolerates malformed escapes', () => {
    expect(rankForSearch(['https://example.com/%E0%A4%A', 'https://example.com/%zz-guide'], 'guide')).toEqual([
      'https://example.com/%zz-guide',
      'https://example.com/%E0%A4%A',
    ]);
  });
});

describe('sameSiteFilter', () => {
  const seed = 'https://www.example.com/docs';
  const site = { includeSubdomains: false, allowExternalLinks: false };
  const check = (url: string, options = site) => sameSiteFilter(url, seed, options);

  it('keeps the seed site with or without www, on any scheme', () => {
    expect([check('https://example.com/a'), check('http://www.example.com/b'), check('https://EXAMPLE.com./c')]).toEqual([true, true, true]);
  });

  it('drops subdomains, other sites, other ports and non-http URLs', () => {
    expect([
      check('https://docs.example.com/a'),
      check('https://example.org/a'),
      check('https://notexample.com/a'),
      check('https://example.com:8443/a'),
      check('ftp://example.com/a'),
      check('not a url'),
    ]).toEqual([false, false, false, false, false, false]);
  });

  it('includeSubdomains adds subdomains of the site, not look-alikes or the parent', () => {
    const withSubs = { includeSubdomains: true, allowExternalLinks: false };
    expect([
      check('https://docs.example.com/a', withSubs),
      check('https://a.b.example.com/a', withSubs),
      check('https://notexample.com/a', withSubs),
      sameSiteFilter('https://example.com/', 'https://blog.example.com/', withSubs),
    ]).toEqual([true, true, false, false]);
  });

  it('allowExternalLinks keeps every http(s) URL', () => {
    const any = { includeSubdomains: false, allowExternalLinks: true };
    expect([check('https://example.org/a', any), check('mailto:a@example.org', any)]).toEqual([true, false]);
  });
});
