import { describe, expect, it } from 'vitest';
import { urlKey } from './url-key.js';

describe('urlKey', () => {
  it('folds scheme, www, host case, default port, trailing slash and fragment into one key', () => {
    const variants = [
      'https://example.com/docs/intro',
      'http://example.com/docs/intro',
      'https://www.example.com/docs/intro',
      'https://EXAMPLE.com/docs/intro/',
      'https://example.com:443/docs/intro',
      'http://example.com:80/docs/intro#section-2',
      'https://example.com./docs/intro',
    ];
    expect(new Set(variants.map((v) => urlKey(v)))).toEqual(new Set(['example.com/docs/intro']));
  });

  it('keeps what can change the page: path case, query, non-default port', () => {
    expect(urlKey('https://example.com/Docs')).toBe('example.com/Docs');
    expect(urlKey('https://example.com/a?b=1&a=2')).toBe('example.com/a?b=1&a=2');
    expect(urlKey('https://example.com:8443/')).toBe('example.com:8443/');
    expect(urlKey('https://example.com')).toBe('example.com/');
  });
});
