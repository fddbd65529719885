import { describe, expect, it } from 'vitest';
import { pathGlobSource, urlGlobSource } from './glob.js';

describe('pathGlobSource', () => {
  it.each([
    ['/blog', '^/blog(?:/.*)?$'],
    ['/blog/', '^/blog(?:/.*)?$'],
    ['/blog/*', '^/blog/[^/]*(?:/.*)?$'],
    ['blog/**', '^/blog(?:/.*)?$'],
    ['blog', '^.*/blog(?:/.*)?$'],
    ['*.pdf', '^.*/[^/]*\\.pdf(?:/.*)?$'],
    ['**/intro', '^/(?:.*/)?intro(?:/.*)?$'],
    ['/docs/**/intro', '^/docs(?:/.*)?/intro(?:/.*)?$'],
    ['/v?/a+b', '^/v[^/]/a\\+b(?:/.*)?$'],
    ['/', '^(?:/.*)?$'],
    ['/**', '^(?:/.*)?$'],
  ])('%s → %s', (glob, source) => {
    expect(pathGlobSource(glob)).toBe(source);
  });
});

describe('urlGlobSource', () => {
  it.each([
    ['https://example.com/blog/*', '^https://example\\.com/blog/[^/]*(?:[/?].*)?$'],
    ['example.com/blog', '^[^/]*://example\\.com/blog(?:[/?].*)?$'],
    ['https://example.com/', '^https://example\\.com(?:[/?].*)?$'],
    ['*://**', '^[^/]*://.*(?:[/?].*)?$'],
  ])('%s → %s', (glob, source) => {
    expect(urlGlobSource(glob)).toBe(source);
  });
});
