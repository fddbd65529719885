import { describe, expect, it } from 'vitest';
import { isSameSite, isSubdomainOf, siteOf } from './site.js';

const u = (s: string) => new URL(s);

describe('siteOf', () => {
  it.each([
    ['https://www.Example.com/a', 'example.com'],
    ['http://example.com./', 'example.com'],
    ['https://example.com:443/', 'example.com'],
    ['https://example.com:8443/', 'example.com:8443'],
    ['https://docs.example.com/', 'docs.example.com'],
    ['http://[::1]:3000/', '[::1]:3000'],
    ['https://www2.example.com/', 'www2.example.com'],
  ])('%s → %s', (url, site) => {
    expect(siteOf(u(url))).toBe(site);
  });
});

describe('isSameSite / isSubdomainOf', () => {
  it('folds www and scheme, not subdomains or ports', () => {
    expect(isSameSite(u('http://www.example.com/x'), u('https://example.com/'))).toBe(true);
    expect(isSameSite(u('https://docs.example.com/'), u('https://example.com/'))).toBe(false);
    expect(isSameSite(u('https://example.com:81/'), u('https://example.com/'))).toBe(false);
  });

  it('a subdomain is a strict, dot-separated suffix on the same port', () => {
    const seed = u('https://www.example.com/');
    expect([
      isSubdomainOf(u('https://docs.example.com/'), seed),
      isSubdomainOf(u('https://example.com/'), seed),
      isSubdomainOf(u('https://badexample.com/'), seed),
      isSubdomainOf(u('https://docs.example.com:8443/'), seed),
    ]).toEqual([true, false, false, false]);
  });
});
