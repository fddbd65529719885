/**
 * How crawls ran before page lanes: a window of one activity per page. Kept, unchanged in what it
 * asks Temporal for, so crawl runs started by that code finish on today's workers (they replay
 * through here; see workflows/crawl.ts and test/workflow-replay.test.ts). Their next run, after
 * continue-as-new, uses page lanes. Remove once no such run can be open (crawls expire after
 * CRAWL_TTL_SECONDS), with deprecatePatch('page-lanes') in its place.
 */
import { CancellationScope, condition, continueAsNew, isCancellation, patched, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CrawlSummary, CrawlWorkflowInput } from '../core/job-contracts.js';
import { pagesQueue } from '../core/contracts.js';
import { ending, notify, publish } from './crawl-events.js';

/** Page activities in flight per crawl. */
const CRAWL_WINDOW = 32;
/** Search attributes and memo are refreshed this often (each refresh is a history event). */
const VISIBILITY_EVERY = 25;

const db = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
const pageActivities = () =>
  proxyActivities<Activities>({
    taskQueue: pagesQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '3 minutes',
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });

export async function crawlPerPage(input: CrawlWorkflowInput): Promise<CrawlSummary> {
  const { crawlId, hooks } = input;
  const pages = pageActivities();
  let pagesDone = input.resumed?.pagesDone ?? 0;
  let failed = input.resumed?.failed ?? 0;
  let inFlight = 0;
  let lastPublished = pagesDone;

  try {
    let crawlDelayMs: number | undefined;
    if (!input.resumed) {
      const discovery = await db.discoverCrawl(crawlId);
      if (discovery.finished) return await ending(hooks, crawlId, await db.crawlSummary(crawlId));
      crawlDelayMs = discovery.crawlDelayMs;
      await notify(hooks, 'started', crawlId);
    } else {
      await db.requeueClaimed(crawlId);
      crawlDelayMs = (await db.discoverCrawl(crawlId)).crawlDelayMs;
    }
    const window = crawlDelayMs ? 1 : CRAWL_WINDOW;
    const refillAt = patched('claim-half-window') ? Math.floor(window / 2) : window - 1;
    let exhausted = false;
    let claims = 0;

    const runPage = async (urlId: string) => {
      try {
        const result = await pages.crawlPage({ crawlId, urlId }).catch(async (err: unknown) => {
          if (isCancellation(err)) throw err;
          return db.recordPageFailure({ crawlId, urlId, error: (err as Error).message });
        });
        if (result.outcome !== 'skipped') pagesDone++;
        if (result.outcome === 'failed') failed++;
        if (result.admitted > 0) exhausted = false;
        if (result.documentId) await notify(hooks, 'page', `${crawlId}-${urlId}`, { documentId: result.documentId });
      } catch (err) {
        if (!isCancellation(err)) throw err;
      } finally {
        inFlight--;
      }
    };

    for (;;) {
      const wantsNewRun = workflowInfo().continueAsNewSuggested;
      if (!exhausted && !wantsNewRun && inFlight <= refillAt) {
        if (crawlDelayMs && claims > 0) await sleep(crawlDelayMs);
        const ids = await db.claimUrls({ crawlId, max: window - inFlight, token: `${workflowInfo().runId}:${claims++}` });
        if (ids.length < window - inFlight) exhausted = true;
        for (const id of ids) {
          inFlight++;
          void runPage(id);
        }
      }
      if (inFlight === 0 && exhausted) {
        const result = await db.finishCrawl(crawlId);
        if (!('pending' in result)) return await ending(hooks, crawlId, result);
        exhausted = false;
        continue;
      }
      if (inFlight === 0 && wantsNewRun) await continueAsNew<(input: CrawlWorkflowInput) => Promise<CrawlSummary>>({ crawlId, hooks, resumed: { pagesDone, failed } });
      if (pagesDone - lastPublished >= VISIBILITY_EVERY) {
        lastPublished = pagesDone;
        publish('scraping', pagesDone);
      }
      setCurrentDetails(`scraping: ${pagesDone} pages done (${failed} failed), ${inFlight} in flight`);
      const before = pagesDone;
      await condition(() => inFlight === 0 || (inFlight <= refillAt && !exhausted && !workflowInfo().continueAsNewSuggested) || pagesDone !== before);
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    await CancellationScope.nonCancellable(async () => ending(hooks, crawlId, await db.crawlSummary(crawlId)));
    throw err;
  }
}
