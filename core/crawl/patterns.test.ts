import { describe, expect, it } from 'vitest';
import { compilePatterns, isRegexPattern, MAX_PATTERN_LENGTH, PatternError, patternBudget } from './patterns.js';

const base = 'https://example.com';
const matches = (patterns: string[], path: string, fullUrl = false) =>
  compilePatterns(patterns, { fullUrl })(new URL(path, base));

/** Which of `paths` the pattern matches, to compare whole tables at once. */
const matched = (pattern: string, paths: string[], fullUrl = false) => paths.filter((p) => matches([pattern], p, fullUrl));

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('isRegexPattern', () => {
  it.each([
    ['^/blog/.*', true],
    ['/blog/.*', true],
    ['/docs$', true],
    ['/v\\d/api', true],
    ['/(en|fr)/docs', true],
    ['/post-[0-9]+', true],
    ['/a{2}', true],
    ['/(?:a)', true],
    ['/x(ab)+', true],
    ['/blog/*', false],
    ['blog/**', false],
    ['*.pdf', false],
    ['/wiki/Foo_(bar)', false],
    ['/c++/intro', false],
    ['/page?', false],
    ['(', true],
    ['/a)b', true],
    ['/a[b', true],
  ])('%s → %s', (pattern, expected) => {
    expect(isRegexPattern(pattern)).toBe(expected);
  });
});

describe('compilePatterns: the three spellings of "the blog section"', () => {
  const paths = ['/blog/post-1', '/blog', '/blog/', '/blog/a/b', '/about', '/blogroll', '/en/blog/x'];

  it.each([
    ['^/blog/.*', ['/blog/post-1', '/blog', '/blog/', '/blog/a/b']],
    ['/blog/*', ['/blog/post-1', '/blog', '/blog/', '/blog/a/b']],
    ['blog/**', ['/blog/post-1', '/blog', '/blog/', '/blog/a/b']],
    ['/blog', ['/blog/post-1', '/blog', '/blog/', '/blog/a/b']],
  ])('%s matches exactly %j', (pattern, expected) => {
    expect(matched(pattern, paths)).toEqual(expected);
  });

  it('exactly one level needs a regex', () => {
    expect(matched('^/blog/[^/]+$', paths)).toEqual(['/blog/post-1']);
  });
});

describe('compilePatterns: globs', () => {
  it('a glob without a slash matches at any folder level', () => {
    expect(matched('*.pdf', ['/a.pdf', '/docs/b.pdf', '/docs/b.pdfx', '/pdf'])).toEqual(['/a.pdf', '/docs/b.pdf']);
    expect(matched('blog', ['/blog', '/en/blog/x', '/blogroll', '/myblog'])).toEqual(['/blog', '/en/blog/x']);
  });

  it('a glob with an inner slash is anchored at the path start', () => {
    expect(matched('docs/*/intro', ['/docs/v1/intro', '/docs/v1/intro/more', '/x/docs/v1/intro', '/docs/v1/v2/intro'])).toEqual([
      '/docs/v1/intro',
      '/docs/v1/intro/more',
    ]);
  });

  it('** crosses segments and /**/ may match no folder at all', () => {
    expect(matched('/docs/**/intro', ['/docs/intro', '/docs/a/intro', '/docs/a/b/intro', '/docs/a/introx'])).toEqual([
      '/docs/intro',
      '/docs/a/intro',
      '/docs/a/b/intro',
    ]);
    expect(matched('**/intro', ['/intro', '/a/b/intro', '/a/b/intro/x', '/a/bintro'])).toEqual(['/intro', '/a/b/intro', '/a/b/intro/x']);
    expect(matched('/api**', ['/api', '/apiv2/x', '/ap'])).toEqual(['/api', '/apiv2/x']);
  });

  it('? is one character other than a slash', () => {
    expect(matched('/v?/api', ['/v1/api', '/v12/api', '/v/api', '/v//api'])).toEqual(['/v1/api']);
  });

  it('/ and /** match every path', () => {
    expect(matched('/', ['/', '/a', '/a/b'])).toEqual(['/', '/a', '/a/b']);
    expect(matched('/**', ['/', '/a/b'])).toEqual(['/', '/a/b']);
  });

  it('regex characters in a glob are literal', () => {
    expect(matched('/wiki/Foo_(bar)', ['/wiki/Foo_(bar)', '/wiki/Foo_bar'])).toEqual(['/wiki/Foo_(bar)']);
    expect(matched('/c++/*', ['/c++/intro', '/cc/intro'])).toEqual(['/c++/intro']);
    expect(matched('/a.html', ['/a.html', '/aXhtml'])).toEqual(['/a.html']);
  });

  it('ignores the query string in path mode', () => {
    expect(matches(['/search'], '/search?q=blog')).toBe(true);
    expect(matches(['q=blog'], '/search?q=blog')).toBe(false);
  });

  it('matches decoded and percent-encoded spellings of the path', () => {
    expect(matches(['/café/*'], '/caf%C3%A9/menu')).toBe(true);
    expect(matches(['/caf%C3%A9/*'], '/café/menu')).toBe(true);
    expect(matches(['/a b'], '/a%20b')).toBe(true);
  });

  it('is case-sensitive', () => {
    expect(matches(['/Blog'], '/blog')).toBe(false);
  });
});

describe('compilePatterns: regexes', () => {
  it('searches unanchored, as RegExp.prototype.test does', () => {
    expect(matched('blog/.*', ['/blog/x', '/en/blog/x', '/myblog/x', '/about'])).toEqual(['/blog/x', '/en/blog/x', '/myblog/x']);
  });

  it('treats /path and /path/ alike', () => {
    expect(matched('^/docs/$', ['/docs', '/docs/', '/docs/x'])).toEqual(['/docs', '/docs/']);
    expect(matched('^/docs$', ['/docs', '/docs/', '/docs/x'])).toEqual(['/docs', '/docs/']);
  });

  it('supports RE2 inline flags, scoped to their own pattern', () => {
    expect(matches(['(?i)^/BLOG/.*'], '/blog/x')).toBe(true);
    expect(matches(['(?i)^/a$', '^/b$'], '/B')).toBe(false);
    expect(matches(['^/x', '(?i)^/blog'], '/BLOG')).toBe(true);
  });

  it('mixes path and full-URL patterns in one list', () => {
    const matcher = compilePatterns(['/docs/*', '[?&]utm_source='], { fullUrl: true });
    expect(['/docs/a', '/x?utm_source=y', '/x'].map((p) => matcher(new URL(p, base)))).toEqual([true, true, false]);
  });

  it('runs nested quantifiers in linear time', () => {
    const long = `/${'a'.repeat(4000)}!`;
    const started = Date.now();
    expect(matches(['^/(a+)+$'], long)).toBe(false);
    expect(matches(['.*.*.*x'], long)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('any pattern in the list is enough; an empty list matches nothing', () => {
    expect(matches(['^/x', '^/blog'], '/blog/a')).toBe(true);
    expect(matches([], '/blog/a')).toBe(false);
  });
});

describe('compilePatterns: regexOnFullURL', () => {
  const urls = [
    'https://example.com/blog/x',
    'http://example.com/blog',
    'https://docs.example.com/blog/x',
    'https://example.com/blog?page=2',
    'https://example.com/blogroll',
  ];

  it('tests regexes against the full URL', () => {
    expect(matched('^https://example\\.com/blog', urls, true)).toEqual([
      'https://example.com/blog/x',
      'https://example.com/blog?page=2',
      'https://example.com/blogroll',
    ]);
    expect(matched('page=\\d', urls, true)).toEqual(['https://example.com/blog?page=2']);
  });

  it('anchors globs at the URL start, assuming any scheme when none is given', () => {
    expect(matched('example.com/blog', urls, true)).toEqual([
      'https://example.com/blog/x',
      'http://example.com/blog',
      'https://example.com/blog?page=2',
    ]);
    expect(matched('https://*.example.com/**', urls, true)).toEqual(['https://docs.example.com/blog/x']);
    expect(matched('https://example.com/', urls, true)).toEqual([
      'https://example.com/blog/x',
      'https://example.com/blog?page=2',
      'https://example.com/blogroll',
    ]);
  });

  it('keeps matching a glob that starts with / against the path', () => {
    expect(matched('/blog/*', urls, true)).toEqual([
      'https://example.com/blog/x',
      'http://example.com/blog',
      'https://docs.example.com/blog/x',
      'https://example.com/blog?page=2',
    ]);
  });

  it('ignores the fragment', () => {
    expect(matches(['#top'], 'https://example.com/a#top', true)).toBe(false);
  });
});

describe('PatternError', () => {
  it('names the field and index of an invalid regex', () => {
    const err = thrown(() => compilePatterns(['/ok', '^/x', '('], { fullUrl: false, field: 'includePaths' }));
    expect(err).toBeInstanceOf(PatternError);
    const e = err as PatternError;
    expect([e.index, e.pattern, e.reason, e.path]).toEqual([2, '(', 'invalid_regex', 'includePaths[2]']);
    expect(e.message).toBe('pattern "(" is not a valid regular expression (missing closing ): `(`)');
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['/'.repeat(MAX_PATTERN_LENGTH + 1), 'too_long'],
    ['^/(?=admin)', 'invalid_regex'],
    ['^/(a)\\1', 'invalid_regex'],
    ['^/a{2000}', 'invalid_regex'],
    ['/docs/[', 'invalid_regex'],
  ])('refuses %j as %s', (pattern, reason) => {
    const err = thrown(() => compilePatterns([pattern], { fullUrl: false, field: 'excludePaths' })) as PatternError;
    expect([err.name, err.index, err.reason, err.path]).toEqual(['PatternError', 0, reason, 'excludePaths[0]']);
  });

  it('quotes long patterns shortened', () => {
    const err = thrown(() => compilePatterns(['a'.repeat(501)], { fullUrl: false })) as PatternError;
    expect(err.message).toBe(`pattern "${'a'.repeat(60)}…" is longer than 500 characters`);
    expect(err.path).toBe('patterns[0]');
  });

  it('accepts exactly 500 characters', () => {
    expect(matches([`/${'a'.repeat(MAX_PATTERN_LENGTH - 1)}`], '/a')).toBe(false);
  });
});

describe('costly patterns', () => {
  // The attack that stalled the API: each pattern unrolls to 45,000 character classes.
  const heavy = '[a-z]{1000}'.repeat(45);

  it('refuses a pattern whose counted repeats unroll too far, before compiling it', () => {
    const err = thrown(() => compilePatterns(['/ok', heavy], { fullUrl: false, field: 'includePaths' })) as PatternError;
    expect([err.index, err.reason, err.path]).toEqual([1, 'too_complex', 'includePaths[1]']);
    expect(err.message).toBe(`pattern "${heavy.slice(0, 60)}…" repeats too much: it unrolls to more than 5000 characters or classes (lower the counts in {n,m})`);
  });

  it('refuses patterns that are each allowed but too costly together, across lists sharing a budget', () => {
    const medium = '^/[a-z]{1000}[0-9]{1000}[a-z]{1000}[0-9]{1000}'; // about 4,000 each
    const budget = patternBudget();
    expect(() => compilePatterns(Array.from({ length: 6 }, (_, i) => `${medium}${i}`), { fullUrl: false, field: 'includePaths', budget })).not.toThrow();
    const err = thrown(() => compilePatterns(Array.from({ length: 8 }, (_, i) => `${medium}x${i}`), { fullUrl: false, field: 'excludePaths', budget })) as PatternError;
    expect([err.index, err.reason, err.path]).toEqual([6, 'too_complex_together', 'excludePaths[6]']);
  });

  it('compiles a list once: the same list gives the same matcher', () => {
    const list = ['^/blog/[0-9]{4}/', '/docs/**'];
    expect(compilePatterns(list, { fullUrl: false })).toBe(compilePatterns([...list], { fullUrl: false }));
    expect(compilePatterns(list, { fullUrl: true })).not.toBe(compilePatterns(list, { fullUrl: false }));
  });
});

