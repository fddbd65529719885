/**
 * Admission of a discovered URL into a crawl (spec: Crawl options). Duplicates are not decided
 * here: the frontier's unique (crawl, urlKey) does that, so a replica or a retry cannot race it.
 *
 * Checks, in this order; the first that fails is the skip reason counted:
 * 1. `invalid_url`: not an absolute URL, longer than 2,048 characters (the sitemap protocol's
 *    limit; also bounds pattern matching), no host, or a user:password@ part.
 * 2. `non_http`: a scheme other than http and https (mailto:, javascript:, ftp: …).
 * 3. `file_type`: the path names a file that is not a page (images, media, archives …; see
 *    file-types.ts). PDFs are followed: they are converted.
 * 4. `external_domain`: another site, unless allowExternalLinks. A site is the host with `www.`
 *    folded (site.ts): `www.example.com` and `example.com` are one site, `docs.example.com` and
 *    `example.com:8443` are others. With allowSubdomains, subdomains of the seed's site are in.
 * 5. `backward_link`: on the seed's site but outside the seed's folder, unless
 *    allowBackwardLinks (or its hosted-API name crawlEntireDomain). The folder is the seed path up to and including its last `/`, as
 *    wget's --no-parent has it: seed `/docs/start` or `/docs/` → `/docs/` (`/docs/guide` is in,
 *    `/about` is not); seed `/docs` → `/` (everything). `/docs` itself counts as inside `/docs/`.
 * 6. `exclude_match`, 7. `include_mismatch`: excludePaths / includePaths (patterns.ts); an
 *    empty includePaths admits everything.
 * 8. `depth_limit`: path depth greater than maxDepth. Depth = path segments of the URL minus
 *    those of the seed (`/docs/a/b` under seed `/docs/start` is 3 − 2 = 1), never below 0.
 * 9. `discovery_depth_limit`: link hops from the seed greater than maxDiscoveryDepth. The seed
 *    and URLs from sitemaps are at 0 (as the hosted API counts them), a link found on a page at
 *    the page's discovery depth + 1.
 * 10. `robots_blocked`: robots.txt disallows it (skipped when ignoreRobotsTxt).
 *
 * Why this order: first what no option can change (not a URL, not http, not a page), then the
 * crawl's scope the way a caller narrows it (site, section, patterns, depth), and robots.txt
 * last, so `robots_blocked` counts exactly the pages the crawl wanted and was refused.
 */
import { urlKey } from '../url-key.js';
import { isNonPageFile } from './file-types.js';
import { compilePatterns } from './patterns.js';
import { isSameSite, isSubdomainOf } from './site.js';

/** Longest URL admitted, in characters. */
export const MAX_URL_LENGTH = 2048;

export type SkipReason =
  | 'invalid_url' | 'non_http' | 'file_type' | 'external_domain' | 'backward_link'
  | 'exclude_match' | 'include_mismatch' | 'depth_limit' | 'discovery_depth_limit' | 'robots_blocked';

export type Admission =
  | { admit: true; url: string; urlKey: string; depth: number; discoveryDepth: number }
  | { admit: false; reason: SkipReason };

/** The crawl options that decide admission (a subset of CrawlOptions; defaults are the API's). */
export interface AdmissionRules {
  includePaths: readonly string[];
  excludePaths: readonly string[];
  /** Path depth below the seed; absent means unbounded. */
  maxDepth?: number;
  /** Link hops from the seed; absent means unbounded. */
  maxDiscoveryDepth?: number;
  allowBackwardLinks: boolean;
  /** The hosted API's newer name for allowBackwardLinks; either one allows. */
  crawlEntireDomain?: boolean;
  allowExternalLinks: boolean;
  /** Subdomains of the seed's site count as the site (without the folder rule). */
  allowSubdomains?: boolean;
  /** URLs that differ only in their query are one page (the first spelling is fetched). */
  ignoreQueryParameters?: boolean;
  regexOnFullURL: boolean;
}

/** The robots.txt rules of the link's origin (robots.ts); the caller picks them per origin. */
export interface RobotsMatcher {
  isAllowed(url: URL): boolean;
}

/**
 * `parent` is the discovery depth of the page the link was found on, or 'sitemap' for a URL
 * read from a sitemap.
 */
export type LinkFilter = (link: string, parent: number | 'sitemap', robots?: RobotsMatcher) => Admission;

/** Compile the rules once per crawl (or per page batch). Throws PatternError for a bad pattern. */
export function createLinkFilter(seed: string | URL, rules: AdmissionRules): LinkFilter {
  const seedUrl = new URL(seed);
  const folder = seedFolder(seedUrl);
  const seedSegments = segments(seedUrl.pathname);
  const excluded = compilePatterns(rules.excludePaths, { fullUrl: rules.regexOnFullURL, field: 'excludePaths' });
  const included = compilePatterns(rules.includePaths, { fullUrl: rules.regexOnFullURL, field: 'includePaths' });
  const skip = (reason: SkipReason): Admission => ({ admit: false, reason });

  return (link, parent, robots) => {
    if (link.length > MAX_URL_LENGTH || !URL.canParse(link)) return skip('invalid_url');
    const url = new URL(link);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return skip('non_http');
    if (!url.hostname || url.username || url.password) return skip('invalid_url');
    url.hash = '';
    if (isNonPageFile(url)) return skip('file_type');
    const sameSite = isSameSite(url, seedUrl);
    if (!sameSite && !rules.allowExternalLinks && !(rules.allowSubdomains && isSubdomainOf(url, seedUrl))) return skip('external_domain');
    if (sameSite && !(rules.allowBackwardLinks || rules.crawlEntireDomain) && !inFolder(url.pathname, folder)) return skip('backward_link');
    if (excluded(url)) return skip('exclude_match');
    if (rules.includePaths.length > 0 && !included(url)) return skip('include_mismatch');
    const depth = Math.max(0, segments(url.pathname) - seedSegments);
    if (rules.maxDepth !== undefined && depth > rules.maxDepth) return skip('depth_limit');
    const discoveryDepth = parent === 'sitemap' ? 0 : parent + 1;
    if (rules.maxDiscoveryDepth !== undefined && discoveryDepth > rules.maxDiscoveryDepth) return skip('discovery_depth_limit');
    if (robots && !robots.isAllowed(url)) return skip('robots_blocked');
    return { admit: true, url: url.href, urlKey: urlKey(url, { ignoreQuery: rules.ignoreQueryParameters }), depth, discoveryDepth };
  };
}

/** The seed's folder: its path up to and including the last `/`. */
export function seedFolder(seed: URL): string {
  const path = seed.pathname || '/';
  return path.slice(0, path.lastIndexOf('/') + 1) || '/';
}

function inFolder(path: string, folder: string): boolean {
  return path.startsWith(folder) || `${path}/` === folder;
}

function segments(path: string): number {
  return path.split('/').filter(Boolean).length;
}

/**
 * A link as written in a page, made absolute against `base`, without its fragment; undefined
 * for an empty or fragment-only href (the page itself), one that does not parse, and any scheme
 * other than http(s).
 */
export function normalizeLink(href: string, base: string): URL | undefined {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || !URL.canParse(trimmed, base)) return undefined;
  const url = new URL(trimmed, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url;
}
