/**
 * A crawl (DESIGN.md, "Flows"; README, "Page lanes"): discovery, then a few page lanes, each a
 * long-running activity that claims URLs from the frontier in PostgreSQL, fetches and stores them in
 * batches and heartbeats. The workflow keeps what Temporal is for: the crawl's lifecycle, restarting
 * lanes as they rotate, retries, cancellation, deciding completion, continue-as-new, webhooks and
 * what the Temporal UI shows. It holds no URLs and carries only counters across continue-as-new.
 */
import { CancellationScope, condition, continueAsNew, isCancellation, patched, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CrawlSummary, CrawlWorkflowInput, LanePlan, LaneResult } from '../core/job-contracts.js';
import { pagesQueue } from '../core/contracts.js';
import { ending, notify, publish } from './crawl-events.js';
import { crawlPerPage } from './crawl-per-page.js';

const db = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  // PostgreSQL may be down for a while: keep trying, so the crawl resumes when it is back.
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' }, // no maximumAttempts: unlimited
});
/** Lanes run on the pages queue beside this workflow's own (worker/main.ts). */
const laneActivities = () =>
  proxyActivities<Activities>({
    taskQueue: pagesQueue(workflowInfo().taskQueue),
    // CRAWL_LANE_ROTATE_MS (at most 10 minutes), then the pages in flight finish (30 s each at most), then the last batch is stored.
    startToCloseTimeout: '15 minutes',
    // Heartbeats every second: a killed worker's lane is retried elsewhere within 10 s, and takes its URLs back.
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' }, // unlimited
  });

export async function crawl(input: CrawlWorkflowInput): Promise<CrawlSummary> {
  // Runs started before page lanes replay (and finish) the way they began.
  if (!patched('page-lanes')) return crawlPerPage(input);
  return crawlWithLanes(input);
}

/**
 * A batch scrape (README "Batch scrape"): a crawl without discovery. Its URLs are the frontier from
 * the start and links are not followed; its webhook events are batch_scrape.*.
 */
export async function batchScrape(input: CrawlWorkflowInput): Promise<CrawlSummary> {
  return crawlWithLanes(input);
}

async function crawlWithLanes(input: CrawlWorkflowInput): Promise<CrawlSummary> {
  const { crawlId, hooks } = input;
  const lanes = laneActivities();
  const { runId, taskQueue } = workflowInfo();
  let pagesDone = input.resumed?.pagesDone ?? 0;
  let failed = input.resumed?.failed ?? 0;

  try {
    let plan: LanePlan;
    if (!input.resumed) {
      const discovery = await db.discoverCrawl(crawlId);
      if (discovery.finished || !discovery.lanes) return await ending(hooks, crawlId, await db.crawlSummary(crawlId));
      plan = discovery.lanes;
      await notify(hooks, 'started', crawlId);
    } else {
      // Whatever the previous run's lanes claimed and did not finish goes back to the queue.
      await db.requeueClaimed(crawlId);
      const discovery = await db.discoverCrawl(crawlId);
      if (discovery.finished || !discovery.lanes) return await ending(hooks, crawlId, await db.crawlSummary(crawlId));
      plan = discovery.lanes;
    }

    const running = new Set<number>();
    const again: { lane: number; afterMs: number }[] = [];
    let stopped = false;
    let runs = 0;
    let failure: unknown;
    const start = (lane: number, afterMs = 0) => {
      running.add(lane);
      void (async () => {
        try {
          if (afterMs > 0) await sleep(afterMs);
          const result: LaneResult = await lanes.crawlLane({ crawlId, token: `${runId}:${lane}:${runs++}`, width: plan.width, delayMs: plan.delayMs, maxMs: plan.maxMs, taskQueue });
          pagesDone = result.completed;
          failed = result.failed;
          if (result.exit === 'stopped') stopped = true;
          else if (result.exit === 'rotate' || result.exit === 'wait') again.push({ lane, afterMs: result.waitMs ?? 0 });
        } catch (err) {
          // Lanes retry until they succeed; only a cancellation or a bug ends up here.
          if (!isCancellation(err)) failure ??= err;
        } finally {
          running.delete(lane);
        }
      })();
    };
    const startAll = () => {
      for (let lane = 0; lane < plan.count; lane++) start(lane);
    };

    startAll();
    let shown = pagesDone;
    for (;;) {
      setCurrentDetails(`scraping: ${pagesDone} pages done (${failed} failed), ${running.size} of ${plan.count} lanes running`);
      await condition(() => again.length > 0 || running.size === 0 || failure !== undefined);
      if (failure !== undefined) throw failure;
      if (pagesDone !== shown) {
        shown = pagesDone;
        publish('scraping', pagesDone);
      }
      const wantsNewRun = workflowInfo().continueAsNewSuggested;
      for (const next of again.splice(0)) if (!stopped && !wantsNewRun) start(next.lane, next.afterMs);
      if (running.size > 0) continue;
      if (wantsNewRun && !stopped) await continueAsNew<typeof crawl>({ crawlId, hooks, resumed: { pagesDone, failed } });
      const result = await db.finishCrawl(crawlId);
      if (!('pending' in result)) return await ending(hooks, crawlId, result);
      // Every lane has ended yet URLs are open: claims of lane attempts that were replaced (a lost heartbeat) go back to the queue.
      await db.requeueClaimed(crawlId);
      startAll();
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // The API already marked the row cancelled; report it, then end as cancelled.
    await CancellationScope.nonCancellable(async () => ending(hooks, crawlId, await db.crawlSummary(crawlId)));
    throw err;
  }
}
