import { describe, expect, it } from 'vitest';
import { createLinkFilter, MAX_URL_LENGTH, normalizeLink, seedFolder, type AdmissionRules } from './filter.js';
import { PatternError } from './patterns.js';
import { parseRobots } from './robots.js';

const defaults: AdmissionRules = {
  includePaths: [],
  excludePaths: [],
  maxDepth: 10,
  allowBackwardLinks: false,
  allowExternalLinks: false,
  regexOnFullURL: false,
};
const seed = 'https://example.com/docs/start';
const reasonOf = (link: string, rules: Partial<AdmissionRules> = {}, parent: number | 'sitemap' = 0, from = seed) => {
  const verdict = createLinkFilter(from, { ...defaults, ...rules })(link, parent);
  return verdict.admit ? 'admit' : verdict.reason;
};

describe('createLinkFilter: admitted links', () => {
  it('returns the fragment-free URL, its dedupe key and both depths', () => {
    expect(createLinkFilter(seed, defaults)('http://www.example.com/docs/guide/intro/#top', 3)).toEqual({
      admit: true,
      url: 'http://www.example.com/docs/guide/intro/',
      urlKey: 'example.com/docs/guide/intro',
      depth: 1,
      discoveryDepth: 4,
    });
  });

  it('puts sitemap URLs at discovery depth 0, like the seed', () => {
    const verdict = createLinkFilter(seed, { ...defaults, maxDiscoveryDepth: 0 })('https://example.com/docs/a', 'sitemap');
    expect(verdict).toEqual({ admit: true, url: 'https://example.com/docs/a', urlKey: 'example.com/docs/a', depth: 0, discoveryDepth: 0 });
  });

  it('follows PDFs and pages without an extension', () => {
    expect(['/docs/manual.pdf', '/docs/a.html', '/docs/data.json', '/docs/v1.2'].map((p) => reasonOf(`https://example.com${p}`))).toEqual([
      'admit',
      'admit',
      'admit',
      'admit',
    ]);
  });
});

describe('createLinkFilter: skip reasons', () => {
  it.each([
    ['not absolute', '/docs/a', {}, 'invalid_url'],
    ['unparseable', 'https://exa mple.com/', {}, 'invalid_url'],
    ['too long', `https://example.com/docs/${'a'.repeat(MAX_URL_LENGTH)}`, {}, 'invalid_url'],
    ['with credentials', 'https://user:pw@example.com/docs/a', {}, 'invalid_url'],
    ['mailto', 'mailto:someone@example.com', {}, 'non_http'],
    ['javascript', 'javascript:void(0)', {}, 'non_http'],
    ['ftp', 'ftp://example.com/docs/a', {}, 'non_http'],
    ['an image', 'https://example.com/docs/logo.PNG', {}, 'file_type'],
    ['an archive, even on another site', 'https://other.org/x.tar.gz', {}, 'file_type'],
    ['another host', 'https://other.org/docs/a', {}, 'external_domain'],
    ['a subdomain', 'https://docs.example.com/docs/a', {}, 'external_domain'],
    ['another port', 'https://example.com:8443/docs/a', {}, 'external_domain'],
    ['above the seed folder', 'https://example.com/about', {}, 'backward_link'],
    ['a sibling folder with the same prefix', 'https://example.com/docsite/a', {}, 'backward_link'],
    ['excluded', 'https://example.com/docs/private/x', { excludePaths: ['/docs/private'] }, 'exclude_match'],
    ['not included', 'https://example.com/docs/a', { includePaths: ['^/docs/guide'] }, 'include_mismatch'],
    ['too deep', 'https://example.com/docs/a/b/c', { maxDepth: 1 }, 'depth_limit'],
  ] as const)('%s → %s', (_label, link, rules, reason) => {
    expect(reasonOf(link, rules)).toBe(reason);
  });

  it('counts discovery depth from the parent page', () => {
    expect(reasonOf('https://example.com/docs/a', { maxDiscoveryDepth: 2 }, 1)).toBe('admit');
    expect(reasonOf('https://example.com/docs/a', { maxDiscoveryDepth: 2 }, 2)).toBe('discovery_depth_limit');
  });

  it('checks robots.txt last, with the matcher the caller passes', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /docs/private\n', 'PagewrightBot/0.1');
    const filter = createLinkFilter(seed, { ...defaults, maxDepth: 0 });
    expect(filter('https://example.com/docs/private', 0, robots)).toEqual({ admit: false, reason: 'robots_blocked' });
    expect(filter('https://example.com/docs/private/a/b', 0, robots)).toEqual({ admit: false, reason: 'depth_limit' });
    expect(filter('https://example.com/docs/private', 0)).toMatchObject({ admit: true });
  });

  it('reports the most useful reason when several apply', () => {
    // Excluded and too deep and disallowed: the caller's own pattern is named.
    const robots = parseRobots('User-agent: *\nDisallow: /\n', 'PagewrightBot/0.1');
    const filter = createLinkFilter(seed, { ...defaults, excludePaths: ['/docs/x'], maxDepth: 0 });
    expect(filter('https://example.com/docs/x/y/z', 0, robots)).toEqual({ admit: false, reason: 'exclude_match' });
    // An image on another site is skipped for being an image: allowing external links would not help.
    expect(reasonOf('https://other.org/docs/a.jpg')).toBe('file_type');
    // Another site and outside the folder: external, since allowBackwardLinks would not help.
    expect(reasonOf('https://other.org/about')).toBe('external_domain');
  });
});

describe('createLinkFilter: options that widen the crawl', () => {
  it('allowExternalLinks admits other sites, without a backward check there', () => {
    expect(reasonOf('https://other.org/about', { allowExternalLinks: true })).toBe('admit');
    expect(reasonOf('https://example.com/about', { allowExternalLinks: true })).toBe('backward_link');
  });

  it('allowBackwardLinks admits the rest of the site, depth never below 0', () => {
    const verdict = createLinkFilter(seed, { ...defaults, allowBackwardLinks: true })('https://example.com/', 0);
    expect(verdict).toMatchObject({ admit: true, depth: 0 });
  });

  it('treats www and scheme variants of the seed host as the same site', () => {
    expect(reasonOf('http://www.example.com/docs/a')).toBe('admit');
    expect(reasonOf('https://example.com/docs/a', {}, 0, 'https://www.example.com/docs/')).toBe('admit');
  });

  it('applies patterns to the full URL with regexOnFullURL', () => {
    expect(reasonOf('https://example.com/docs/a?lang=fr', { regexOnFullURL: true, excludePaths: ['lang=fr$'] })).toBe('exclude_match');
    expect(reasonOf('https://example.com/docs/a?lang=fr', { excludePaths: ['lang=fr$'] })).toBe('admit');
  });

  it('no maxDepth means unbounded', () => {
    expect(reasonOf('https://example.com/docs/1/2/3/4/5/6/7/8/9/10/11/12', { maxDepth: undefined })).toBe('admit');
  });
});

describe('createLinkFilter: patterns', () => {
  it('throws PatternError naming the field', () => {
    let error: unknown;
    try {
      createLinkFilter(seed, { ...defaults, includePaths: ['/ok', '^/docs/(unclosed'] });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PatternError);
    expect((error as PatternError).path).toBe('includePaths[1]');
  });
});

describe('seedFolder', () => {
  it.each([
    ['https://example.com', '/'],
    ['https://example.com/docs', '/'],
    ['https://example.com/docs/', '/docs/'],
    ['https://example.com/docs/start', '/docs/'],
    ['https://example.com/docs/index.html?x=1', '/docs/'],
  ])('%s → %s', (url, folder) => {
    expect(seedFolder(new URL(url))).toBe(folder);
  });

  it('counts the folder itself, without its slash, as inside', () => {
    expect(reasonOf('https://example.com/docs', {}, 0, 'https://example.com/docs/')).toBe('admit');
  });
});

describe('normalizeLink', () => {
  const base = 'https://example.com/docs/start';

  it.each([
    ['guide#intro', 'https://example.com/docs/guide'],
    ['  /about  ', 'https://example.com/about'],
    ['//cdn.example.org/x', 'https://cdn.example.org/x'],
    ['HTTP://Example.COM/A', 'http://example.com/A'],
    ['?page=2', 'https://example.com/docs/start?page=2'],
  ])('%j → %s', (href, expected) => {
    expect(normalizeLink(href, base)?.href).toBe(expected);
  });

  it.each(['', '   ', '#top', 'mailto:a@example.com', 'javascript:void(0)', 'tel:+123', 'data:text/html,x', 'http://exa mple.com/'])(
    'drops %j',
    (href) => {
      expect(normalizeLink(href, base)).toBeUndefined();
    },
  );
});
