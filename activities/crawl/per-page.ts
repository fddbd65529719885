/**
 * One page per activity, for crawl workflow runs started before page lanes (workflows/crawl-per-page.ts):
 * the same page work and batch store as a lane, for one URL. A page to try again is an activity
 * retry here (the old workflow holds the URL in its window), not a requeue. Remove once no such run
 * can still be open (they continue-as-new into lanes, and crawls expire after CRAWL_TTL_SECONDS).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CrawlPageInput, CrawlPageResult } from '../../core/job-contracts.js';
import type { ActivityDeps } from '../deps.js';
import type { ClaimedUrl } from './frontier.js';
import { loadCrawlPages } from './page-work.js';
import { storeBatch, type PageOutcome } from './store.js';
import { creditCheck } from '../../core/billing-settings.js';

export function perPageActivities(deps: ActivityDeps) {
  const { prisma, config } = deps;

  async function openRow(input: CrawlPageInput): Promise<ClaimedUrl | undefined> {
    const row = await prisma.jobUrl.findUnique({ where: { id: BigInt(input.urlId) } });
    if (!row || (row.status !== 'queued' && row.status !== 'claimed')) return undefined;
    return { id: row.id, url: row.url, urlKey: row.urlKey, depth: row.depth, discoveryDepth: row.discoveryDepth, attempts: Context.current().info.attempt, throttles: row.throttles };
  }

  async function store(crawlId: string, outcome: PageOutcome): Promise<CrawlPageResult> {
    const result = await storeBatch(prisma, crawlId, [outcome], config.CRAWL_TTL_SECONDS, creditCheck(config));
    const stored = result.stored[0];
    if (stored) return { outcome: 'stored', documentId: stored.documentId, admitted: result.admitted };
    if (outcome.kind === 'failed' && !result.stopped) return { outcome: 'failed', admitted: 0 };
    return { outcome: 'skipped', admitted: 0 };
  }

  return {
    /** The old workflow's last resort when a page activity failed for good: the URL must not stay claimed. */
    async recordPageFailure(input: CrawlPageInput & { error: string }): Promise<CrawlPageResult> {
      const row = await openRow(input);
      if (!row) return { outcome: 'skipped', admitted: 0 };
      return store(input.crawlId, { kind: 'failed', row, code: 'fetch_failed', error: input.error });
    },

    async crawlPage(input: CrawlPageInput): Promise<CrawlPageResult> {
      const ctx = Context.current();
      const row = await openRow(input);
      if (!row) return { outcome: 'skipped', admitted: 0 };
      const crawl = await loadCrawlPages(deps, input.crawlId, '');
      if (!crawl) {
        await prisma.jobUrl.updateMany({ where: { id: row.id, status: { in: ['queued', 'claimed'] } }, data: { status: 'dropped' } });
        return { outcome: 'skipped', admitted: 0 };
      }
      const heartbeat = setInterval(() => ctx.heartbeat(), 2000);
      try {
        const outcome = await crawl.runRow(row, { signal: ctx.cancellationSignal, delayMs: 0 });
        if (!outcome) throw ctx.cancellationSignal.reason;
        if (outcome.kind === 'requeue') throw ApplicationFailure.retryable(outcome.error, 'PageFetchFailed');
        return await store(input.crawlId, outcome);
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}
