/** The crawl workflow's activities. Each takes and returns ids and counters only. */
import type { CrawlSummary } from '../../core/job-contracts.js';
import type { ActivityDeps } from '../deps.js';
import { discoverActivities } from './discover.js';
import { finishCrawl, summary } from './finish.js';
import { claimUrls, requeueClaimed } from './frontier.js';
import { laneActivities } from './lane.js';
import { perPageActivities } from './per-page.js';

export function crawlActivities(deps: ActivityDeps) {
  const { prisma } = deps;
  return {
    ...discoverActivities(deps),
    ...laneActivities(deps),
    ...perPageActivities(deps),
    /** Workflow runs started before page lanes claim URLs for their page activities with this. */
    claimUrls: (input: { crawlId: string; max: number; token: string }) => claimUrls(prisma, input.crawlId, input.max, input.token),
    requeueClaimed: (crawlId: string) => requeueClaimed(prisma, crawlId),
    finishCrawl: (crawlId: string) => finishCrawl(prisma, crawlId),
    crawlSummary: (crawlId: string): Promise<CrawlSummary> => summary(prisma, crawlId),
  };
}
