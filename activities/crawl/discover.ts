/**
 * Crawl discovery: check the seed, read robots.txt (unless ignoreRobotsTxt), gather sitemap URLs
 * (unless ignoreSitemap; indexes and gzip too), then admit the seed and the sitemap URLs in one
 * transaction and mark discovery done. Idempotent: a retry after success changes nothing.
 */
import type { DiscoveryResult } from '../../core/job-contracts.js';
import { lanePlan } from '../../core/crawl/lanes.js';
import { decodeCrawlOptions } from '../../core/schemas/decode.js';
import { MAX_CRAWL_DELAY_MS, robotsFromFetch, type RobotsRules } from '../../core/crawl/robots.js';
import { normalizeTargetUrl, UnsafeUrlError } from '../../core/url-safety.js';
import { egressPolicyFrom } from '../../egress/policy.js';
import { resolveAndCheck } from '../../egress/resolve.js';
import type { ActivityDeps } from '../deps.js';
import { fetchText } from './fetch-text.js';
import { failCrawl } from './finish.js';
import { admit, lockCrawl, MAX_ROBOTS_BLOCKED, type Candidate } from './frontier.js';
import { jobPace } from '../../jobs/options.js';
import { rulesFor } from './rules.js';
import { gatherSitemapUrls } from './sitemaps.js';

export function discoverActivities({ prisma, config }: Pick<ActivityDeps, 'prisma' | 'config'>) {
  const policy = egressPolicyFrom(config);
  const net = { policy, userAgent: config.SERVICE_USER_AGENT };

  return {
    async discoverCrawl(crawlId: string): Promise<DiscoveryResult> {
      const crawl = await prisma.job.findUnique({ where: { id: crawlId } });
      if (!crawl || crawl.status !== 'scraping') return { finished: true };
      const job = jobPace(crawl);
      // A batch scrape is discovered when it is created: its URLs are its frontier.
      if (crawl.discoveryDone) return { finished: false, ...(crawl.crawlDelayMs ? { crawlDelayMs: crawl.crawlDelayMs } : {}), lanes: lanePlan(job, config.CRAWL_LANE_ROTATE_MS, crawl.crawlDelayMs ?? 0) };
      const options = decodeCrawlOptions(crawl.options);
      let seed: URL;
      try {
        seed = normalizeTargetUrl(crawl.url);
        await resolveAndCheck(seed.hostname, policy);
      } catch (err) {
        if (!(err instanceof UnsafeUrlError)) throw err;
        await failCrawl(prisma, crawlId, err.message);
        return { finished: true };
      }

      let robotsTxt: string | null = null;
      let robots: RobotsRules | undefined;
      if (!options.ignoreRobotsTxt) {
        const robotsUrl = new URL('/robots.txt', seed).href;
        const res = await fetchText(robotsUrl, net).catch((err: Error) => ({ status: undefined, text: undefined, error: err.message }));
        robots = robotsFromFetch(res.status, res.text ?? '', config.SERVICE_USER_AGENT, robotsUrl);
        if (robots.source === 'file') robotsTxt = res.text ?? '';
        if (robots.source === 'unreachable') {
          const why = 'error' in res ? res.error : `HTTP ${res.status}`;
          await failCrawl(prisma, crawlId, `The site ${seed.host} could not be reached to read robots.txt (${why}). Retry later, or set ignoreRobotsTxt: true.`);
          return { finished: true };
        }
      }
      if (robots && !robots.isAllowed(seed)) {
        await failCrawl(prisma, crawlId, `robots.txt of ${seed.host} disallows the seed URL for ${config.SERVICE_USER_AGENT}. Set ignoreRobotsTxt: true to crawl it anyway.`);
        return { finished: true };
      }
      const crawlDelayMs = robots?.crawlDelayMs ? Math.min(robots.crawlDelayMs, MAX_CRAWL_DELAY_MS) : undefined;

      const fromSitemaps = options.ignoreSitemap ? [] : await gatherSitemapUrls(robots?.sitemaps.length ? robots.sitemaps : [new URL('/sitemap.xml', seed).href], options.limit * 2, net);
      const rules = rulesFor(crawlId, options, robotsTxt, config.SERVICE_USER_AGENT);
      const candidates: Candidate[] = [rules.seed(seed)];
      const skips: string[] = [];
      const robotsBlocked: string[] = [];
      for (const url of fromSitemaps) {
        const verdict = rules.check(url, 'sitemap');
        if (verdict.admit) candidates.push(verdict.candidate);
        else if (verdict.reason) {
          skips.push(verdict.reason);
          if (verdict.reason === 'robots_blocked') robotsBlocked.push(url);
        }
      }
      await prisma.$transaction(async (tx) => {
        const locked = await lockCrawl(tx, crawlId);
        if (!locked || locked.status !== 'scraping') return;
        const { admitted, overflow } = await admit(tx, crawlId, locked.total, options.limit, candidates);
        const reasons = [...skips, ...Array<string>(overflow).fill('limit_reached')];
        await tx.$executeRaw`
          UPDATE job SET discovery_done = true, robots_txt = ${robotsTxt}, crawl_delay_ms = ${crawlDelayMs ?? null}::int, total = total + ${admitted},
            skipped = crawl_add_skips(skipped, ${reasons}::text[]), robots_blocked = crawl_add_robots_blocked(robots_blocked, ${robotsBlocked}::text[], ${MAX_ROBOTS_BLOCKED}),
            updated_at = now()
          WHERE id = ${crawlId}`;
      });
      return { finished: false, ...(crawlDelayMs ? { crawlDelayMs } : {}), lanes: lanePlan(job, config.CRAWL_LANE_ROTATE_MS, crawlDelayMs ?? 0) };
    },
  };
}
