/**
 * A crawl's admission rules (core/crawl/filter.ts) with its robots.txt, compiled once per crawl
 * and worker and kept in a small cache: page activities of the same crawl reuse them.
 */
import type { CrawlOptions } from '../../core/schemas/crawl.js';
import { createLinkFilter, type LinkFilter } from '../../core/crawl/filter.js';
import { parseRobots, type RobotsRules } from '../../core/crawl/robots.js';
import { urlKey } from '../../core/url-key.js';
import type { Candidate } from './frontier.js';

export type Verdict = { admit: true; candidate: Candidate } | { admit: false; reason: string };

export interface CrawlRules {
  /** The seed is admitted as it is: the caller asked for it. */
  seed(url: URL): Candidate;
  /** `parent`: discovery depth of the page the link was on (the link gets one more), or 'sitemap'. */
  check(link: string, parent: number | 'sitemap'): Verdict;
}

const CACHE_SIZE = 64;
const cache = new Map<string, CrawlRules>();

export function rulesFor(crawlId: string, options: CrawlOptions, robotsTxt: string | null, userAgent: string): CrawlRules {
  const cached = cache.get(crawlId);
  if (cached) return cached;
  const seedUrl = new URL(options.url.includes('://') ? options.url : `https://${options.url}`);
  const filter: LinkFilter = createLinkFilter(seedUrl, options);
  // robots.txt speaks for its own origin only; links to other sites (allowExternalLinks) are not checked against it.
  const robots: RobotsRules | undefined = robotsTxt === null || options.ignoreRobotsTxt ? undefined : parseRobots(robotsTxt, userAgent, new URL('/robots.txt', seedUrl).href);
  const matcher = robots && { isAllowed: (url: URL) => url.origin !== seedUrl.origin || robots.isAllowed(url) };
  const rules: CrawlRules = {
    seed: (url) => ({ url: url.href, urlKey: urlKey(url, { ignoreQuery: options.ignoreQueryParameters }), depth: 0, discoveryDepth: 0 }),
    check(link, parent) {
      const verdict = filter(link, parent, matcher);
      if (!verdict.admit) return { admit: false, reason: verdict.reason };
      return { admit: true, candidate: { url: verdict.url, urlKey: verdict.urlKey, depth: verdict.depth, discoveryDepth: verdict.discoveryDepth } };
    },
  };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(crawlId, rules);
  return rules;
}
