/**
 * POST /v1/map's activity: URLs from robots.txt sitemaps and /sitemap.xml (unless ignoreSitemap)
 * and the seed page's links, never page content. Filtered like a crawl's links (site, patterns,
 * depth), deduplicated by URL key keeping the first spelling, ranked by `search`, cut at `limit`.
 * The list is stored as a document and only its id goes back through Temporal.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { failureTypes } from '../core/failures.js';
import { createLinkFilter } from '../core/crawl/filter.js';
import { rankForSearch, sameSiteFilter } from '../core/crawl/map-rank.js';
import { PatternError } from '../core/crawl/patterns.js';
import { robotsFromFetch } from '../core/crawl/robots.js';
import { randomUUID } from 'node:crypto';
import type { MapInput, MapOptions } from '../core/schemas/map.js';
import type { PageOptions } from '../core/schemas/scrape.js';
import { urlKey } from '../core/url-key.js';
import { normalizeTargetUrl, UnsafeUrlError } from '../core/url-safety.js';
import { fetchText } from './crawl/fetch-text.js';
import { gatherSitemapUrls } from './crawl/sitemaps.js';
import { storeScrapeDocument } from './documents.js';
import { egressPolicyFrom } from '../egress/policy.js';
import { resolveAndCheck } from '../egress/resolve.js';
import type { ActivityDeps } from './deps.js';
import { timeoutSignal } from '../core/timeout-signal.js';

/** The seed page is read for its links: no content format, no waiting. */
const SEED_OPTIONS: PageOptions = { formats: ['links'], onlyMainContent: false, waitFor: 0, mobile: false, skipTlsVerification: false };

export function mapActivities(deps: ActivityDeps) {
  const { config, prisma } = deps;
  const policy = egressPolicyFrom(config);
  const net = { policy, userAgent: config.SERVICE_USER_AGENT };

  /** The seed page through the page pipeline, for its links only. */
  async function seedLinks(seed: URL, deadline: number, signal: AbortSignal): Promise<string[]> {
    try {
      const page = await deps.runPage({ url: seed.href, sourceURL: seed.href, options: SEED_OPTIONS, deadline, timeoutMs: Math.max(0, deadline - Date.now()), signal });
      return page.links;
    } catch {
      // The sitemaps may still list the site; an unreadable seed page only means fewer links.
      return [];
    }
  }

  return {
    async mapSite(input: MapInput): Promise<{ documentId: string; count: number }> {
      const { options } = input;
      const signal = AbortSignal.any([Context.current().cancellationSignal, timeoutSignal(Math.max(1, input.deadline - Date.now()))]);
      let seed: URL;
      try {
        seed = normalizeTargetUrl(options.url);
        await resolveAndCheck(seed.hostname, policy);
      } catch (err) {
        if (err instanceof UnsafeUrlError) throw ApplicationFailure.nonRetryable(err.message, failureTypes.unsafeUrl);
        throw err;
      }
      let fromSitemaps: string[] = [];
      if (!options.ignoreSitemap) {
        const robotsUrl = new URL('/robots.txt', seed).href;
        const res = await fetchText(robotsUrl, net).catch(() => undefined);
        const robots = robotsFromFetch(res?.status, res?.text ?? '', config.SERVICE_USER_AGENT, robotsUrl);
        const sources = robots.sitemaps.length ? robots.sitemaps : [new URL('/sitemap.xml', seed).href];
        fromSitemaps = await gatherSitemapUrls(sources, options.limit * 4, net, input.deadline - 1000);
      }
      const fromPage = options.sitemapOnly ? [] : await seedLinks(seed, input.deadline, signal);

      let filter;
      try {
        // The site rule is sameSiteFilter's (subdomains are a map option); the filter does paths, depth and file types.
        filter = createLinkFilter(seed, { ...options, allowExternalLinks: true, regexOnFullURL: false });
      } catch (err) {
        if (err instanceof PatternError) throw ApplicationFailure.nonRetryable(err.message, failureTypes.invalidRequest);
        throw err;
      }
      const seen = new Set<string>();
      const links: string[] = [];
      // sitemapOnly: what the sitemaps list, and nothing else (not even the seed).
      for (const url of options.sitemapOnly ? fromSitemaps : [seed.href, ...fromSitemaps, ...fromPage]) {
        if (!sameSiteFilter(url, seed, options)) continue;
        const verdict = filter(url, 0);
        if (!verdict.admit || seen.has(verdict.urlKey)) continue;
        seen.add(verdict.urlKey);
        links.push(options.ignoreQueryParameters ? withoutQuery(verdict.url) : verdict.url);
      }
      const ranked = rankForSearch(links, options.search).slice(0, options.limit);
      const documentId = await storeScrapeDocument(
        prisma,
        input.mapId,
        { url: seed.href, urlKey: urlKey(seed), links: ranked, metadata: { sourceURL: options.url, kind: 'map', sitemapUrls: fromSitemaps.length, pageLinks: fromPage.length } },
        { ttlSeconds: config.CRAWL_TTL_SECONDS, apiKeyId: input.apiKeyId },
      );
      return { documentId, count: ranked.length };
    },
  };
}

/** `url` without its query string (ignoreQueryParameters lists each page once, by its plain address). */
function withoutQuery(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  return parsed.href;
}

/** A pattern's or an llms.txt's site is mapped within this long. */
const SITE_MAP_BUDGET_MS = 60_000;

/**
 * The URLs of the site at `url`, as POST /v1/map lists them (sitemaps, then the page's links), for
 * jobs that read a site (extract patterns, llms.txt). Inside an activity; the list is not billed.
 */
export async function mapSiteUrls(deps: ActivityDeps, url: string, options: { limit: number; includeSubdomains: boolean }): Promise<string[]> {
  const mapOptions = { url, limit: options.limit, includeSubdomains: options.includeSubdomains, ignoreQueryParameters: true, includePaths: [], excludePaths: [], allowBackwardLinks: true, allowExternalLinks: false, ignoreSitemap: false, sitemapOnly: false } as MapOptions;
  const { documentId } = await mapActivities(deps).mapSite({ mapId: randomUUID(), options: mapOptions, deadline: Date.now() + SITE_MAP_BUDGET_MS });
  const row = await deps.prisma.document.findUnique({ where: { id: documentId }, select: { links: true } });
  return (row?.links as string[] | null) ?? [];
}
