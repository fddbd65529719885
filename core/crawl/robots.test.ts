import { describe, expect, it } from 'vitest';
import { MAX_CRAWL_DELAY_MS, MAX_ROBOTS_SIZE, parseRobots, productToken, robotsFromFetch } from './robots.js';

const UA = 'PagewrightBot/0.1';
const allowed = (text: string, paths: string[], ua = UA) => {
  const robots = parseRobots(text, ua);
  return paths.filter((p) => robots.isAllowed(new URL(p, 'https://example.com')));
};

describe('productToken', () => {
  it.each([
    ['PagewrightBot/0.1', 'PagewrightBot'],
    ['Mozilla/5.0 (compatible; PagewrightBot/0.1; +https://example.com/bot)', 'PagewrightBot'],
    ['my_crawler-x', 'my_crawler-x'],
    ['', ''],
  ])('%j → %j', (ua, token) => {
    expect(productToken(ua)).toBe(token);
  });
});

describe('parseRobots: groups', () => {
  const text = [
    'User-agent: *',
    'Disallow: /',
    '',
    'User-agent: otherbot',
    'User-agent: PAGEWRIGHTBOT/2.0 # our token, another version',
    'Disallow: /private',
    'Crawl-delay: 2.5',
    '',
    'User-agent: pagewrightbot',
    'Disallow: /tmp/',
  ].join('\n');

  it('merges every group naming our token, case-insensitively, ignoring *', () => {
    expect(allowed(text, ['/', '/private/x', '/tmp/a', '/tmp', '/public'])).toEqual(['/', '/tmp', '/public']);
  });

  it('falls back to the * groups for a user agent that is not named', () => {
    expect(allowed(text, ['/', '/public'], 'SomeoneElse/1.0')).toEqual([]);
  });

  it('allows everything when neither our token nor * is named', () => {
    expect(allowed('User-agent: otherbot\nDisallow: /\n', ['/', '/x'])).toEqual(['/', '/x']);
  });

  it('starts a new group at a User-agent line that follows a rule', () => {
    const robots = 'User-agent: pagewrightbot\nDisallow: /a\nUser-agent: otherbot\nDisallow: /b\n';
    expect(allowed(robots, ['/a', '/b'])).toEqual(['/b']);
  });

  it('ignores rules before any User-agent line and unknown lines', () => {
    expect(allowed('Disallow: /x\nUser-agent: *\nHost: example.com\nDisallow: /y\n', ['/x', '/y'])).toEqual(['/x']);
  });
});

describe('parseRobots: rules', () => {
  it('lets the longest match win, Allow winning a tie', () => {
    const text = 'User-agent: *\nDisallow: /shop\nAllow: /shop/public\nDisallow: /shop/public/secret\nAllow: /tie\nDisallow: /tie\n';
    expect(allowed(text, ['/shop', '/shop/cart', '/shop/public/a', '/shop/public/secret/1', '/tie/x', '/other'])).toEqual([
      '/shop/public/a',
      '/tie/x',
      '/other',
    ]);
  });

  it('matches * anywhere and $ at the end', () => {
    const text = 'User-agent: *\nDisallow: /*.pdf$\nDisallow: /*/drafts/\nDisallow: /search*q=\n';
    expect(allowed(text, ['/a.pdf', '/docs/b.pdf', '/a.pdf?x=1', '/a.pdfx', '/blog/drafts/1', '/drafts/1', '/search?q=x', '/search'])).toEqual([
      '/a.pdf?x=1',
      '/a.pdfx',
      '/drafts/1',
      '/search',
    ]);
  });

  it('compares the path with its query', () => {
    expect(allowed('User-agent: *\nDisallow: /*?session=\n', ['/a?session=1', '/a?x=1&session=1', '/a'])).toEqual(['/a?x=1&session=1', '/a']);
  });

  it('lets a longer Allow with wildcards beat a shorter Disallow', () => {
    expect(allowed('User-agent: *\nDisallow: /\nAllow: /*.html$\n', ['/a.html', '/a.htm', '/'])).toEqual(['/a.html']);
  });

  it('treats an empty Disallow as allowing everything', () => {
    expect(allowed('User-agent: *\nDisallow:\n', ['/', '/a'])).toEqual(['/', '/a']);
  });

  it('always allows /robots.txt', () => {
    expect(allowed('User-agent: *\nDisallow: /\n', ['/robots.txt', '/robots.txt?x', '/'])).toEqual(['/robots.txt']);
  });

  it('reads a rule path without a leading slash as rooted', () => {
    expect(allowed('User-agent: *\nDisallow: private\n', ['/private/x', '/x/private'])).toEqual(['/x/private']);
  });

  it('compares percent-encoding as RFC 9309 says', () => {
    const text = 'User-agent: *\nDisallow: /café\nDisallow: /%7Euser\nDisallow: /a%2fb\n';
    expect(allowed(text, ['/caf%C3%A9/menu', '/~user/x', '/a%2Fb', '/a/b'])).toEqual(['/a/b']);
  });

  it('tolerates CRLF, a byte-order mark, comments and spacing', () => {
    expect(allowed('\uFEFFuser-agent : * # all\r\nDISALLOW :  /x  # no\r\n', ['/x', '/y'])).toEqual(['/y']);
  });

  it('reads at most MAX_ROBOTS_SIZE characters', () => {
    const text = `User-agent: *\n${' '.repeat(MAX_ROBOTS_SIZE)}\nDisallow: /\n`;
    expect(allowed(text, ['/'])).toEqual(['/']);
  });

  it('matches long paths against many wildcards quickly', () => {
    const robots = parseRobots(`User-agent: *\nDisallow: /${'*a'.repeat(200)}$\n`, UA);
    const started = Date.now();
    expect(robots.isAllowed(new URL(`https://example.com/${'a'.repeat(2000)}b`))).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('parseRobots: crawl delay and sitemaps', () => {
  it('takes Crawl-delay from our group, in ms, capped', () => {
    expect(parseRobots('User-agent: pagewrightbot\nCrawl-delay: 0.5\n', UA).crawlDelayMs).toBe(500);
    expect(parseRobots('User-agent: *\nCrawl-delay: 3600\n', UA).crawlDelayMs).toBe(MAX_CRAWL_DELAY_MS);
    expect(parseRobots('User-agent: *\nCrawl-delay: 1\nUser-agent: pagewrightbot\nCrawl-delay: 2\n', UA).crawlDelayMs).toBe(2000);
    expect(parseRobots('User-agent: otherbot\nCrawl-delay: 5\n', UA).crawlDelayMs).toBeUndefined();
    expect(parseRobots('User-agent: *\nCrawl-delay: soon\nCrawl-delay: 0\n', UA).crawlDelayMs).toBeUndefined();
  });

  it('collects Sitemap lines from anywhere, absolute and deduplicated', () => {
    const text = 'Sitemap: https://example.com/a.xml\nUser-agent: *\nSitemap: /b.xml\nDisallow: /x\nSitemap: https://example.com/a.xml\nSitemap: ftp://example.com/c.xml\n';
    expect(parseRobots(text, UA).sitemaps).toEqual(['https://example.com/a.xml']);
    expect(parseRobots(text, UA, 'https://example.com/robots.txt').sitemaps).toEqual(['https://example.com/a.xml', 'https://example.com/b.xml']);
  });

  it('a Sitemap line does not end a group', () => {
    expect(allowed('User-agent: *\nSitemap: https://example.com/s.xml\nDisallow: /x\n', ['/x'])).toEqual([]);
  });
});

describe('robotsFromFetch', () => {
  const url = new URL('https://example.com/page');

  it.each([
    [200, 'file', false],
    [404, 'unavailable', true],
    [403, 'unavailable', true],
    [310, 'unavailable', true],
    [429, 'unreachable', false],
    [503, 'unreachable', false],
    [undefined, 'unreachable', false],
  ] as const)('HTTP %s → %s (page allowed: %s)', (status, source, pageAllowed) => {
    const robots = robotsFromFetch(status, 'User-agent: *\nDisallow: /\n', UA);
    expect([robots.source, robots.isAllowed(url), robots.sitemaps]).toEqual([source, pageAllowed, []]);
  });
});
