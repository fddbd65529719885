/**
 * A crawl (DESIGN.md, "Flows"): discovery, then a bounded window of page activities over the
 * frontier in PostgreSQL until nothing is queued or in flight. The workflow holds no URLs: it
 * claims ids in batches and carries only counters across continue-as-new. Cancellation stops
 * claiming at once; in-flight pages stop at their next heartbeat or finish without storing.
 */
import {
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setCurrentDetails,
  sleep,
  startChild,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import { crawlSearchAttributes, type CrawlStatus, type CrawlSummary, type CrawlWorkflowInput } from '../core/crawl-contracts.js';
import { pagesQueue, workflowIds, type WebhookEvent } from '../core/contracts.js';
import { deliverWebhooks } from './webhooks.js';

/** Page activities in flight per crawl; workers take them as their WORKER_CONCURRENCY slots free up. */
export const CRAWL_WINDOW = 32;
/** Search attributes and memo are refreshed this often (each refresh is a history event). */
const VISIBILITY_EVERY = 25;

const db = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  // PostgreSQL may be down for a while: keep trying, so the crawl resumes when it is back.
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' }, // no maximumAttempts: unlimited
});
/** Page activities go to the pages queue beside this workflow's own (worker.ts). */
const pageActivities = () =>
  proxyActivities<Activities>({
    taskQueue: pagesQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '3 minutes',
    // Heartbeats every 2 s: a killed worker's pages are retried elsewhere within 10 s.
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });

export interface CrawlWebhookContext {
  crawlId: string;
  urls: string[];
  metadata?: unknown;
}

async function notify(hooks: CrawlWebhookContext | undefined, event: WebhookEvent, id: string, extra?: { documentId?: string; fields?: Record<string, unknown> }): Promise<void> {
  if (!hooks?.urls.length) return;
  try {
    await startChild(deliverWebhooks, {
      workflowId: workflowIds.webhooks(event, id),
      parentClosePolicy: ParentClosePolicy.ABANDON,
      args: [{ event, deliveryId: id, urls: hooks.urls, subjectId: hooks.crawlId, metadata: hooks.metadata, documentId: extra?.documentId, extra: extra?.fields }],
    });
  } catch (err) {
    // Already started (by an earlier run of this crawl): that delivery is under way; do not send it twice.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

function publish(status: CrawlStatus, pagesDone: number): void {
  upsertSearchAttributes([
    { key: crawlSearchAttributes.status, value: status },
    { key: crawlSearchAttributes.pagesDone, value: pagesDone },
  ]);
  upsertMemo({ status, pagesDone });
}

export async function crawl(input: CrawlWorkflowInput & { hooks?: CrawlWebhookContext }): Promise<CrawlSummary> {
  const { crawlId, hooks } = input;
  const pages = pageActivities();
  let pagesDone = input.resumed?.pagesDone ?? 0;
  let failed = input.resumed?.failed ?? 0;
  let inFlight = 0;
  let lastPublished = pagesDone;
  const ending = async (summary: CrawlSummary) => {
    publish(summary.status, summary.completed);
    setCurrentDetails(`${summary.status}: ${summary.completed} of ${summary.total} pages, ${summary.failed} failed`);
    const fields = { status: summary.status, completed: summary.completed, total: summary.total, failed: summary.failed, skipped: summary.skipped, ...(summary.error ? { error: summary.error } : {}) };
    await notify(hooks, summary.status === 'completed' ? 'crawl.completed' : summary.status === 'failed' ? 'crawl.failed' : 'crawl.cancelled', crawlId, { fields });
    return summary;
  };

  try {
    let crawlDelayMs: number | undefined;
    if (!input.resumed) {
      const discovery = await db.discoverCrawl(crawlId);
      if (discovery.finished) return await ending(await db.crawlSummary(crawlId));
      crawlDelayMs = discovery.crawlDelayMs;
      await notify(hooks, 'crawl.started', crawlId);
    } else {
      // Whatever the previous run claimed and did not finish goes back to the queue.
      await db.requeueClaimed(crawlId);
      crawlDelayMs = (await db.discoverCrawl(crawlId)).crawlDelayMs;
    }
    // A Crawl-delay means one page at a time, with the delay between them.
    const window = crawlDelayMs ? 1 : CRAWL_WINDOW;
    // Refill the window once it is half empty: one claim activity per ~16 pages instead of one per
    // page (each is 3 history events and a database round trip). Runs started before this rule
    // replay with the old one (refill whenever a slot is free).
    const refillAt = patched('claim-half-window') ? Math.floor(window / 2) : window - 1;
    let exhausted = false;
    let claims = 0;

    const runPage = async (urlId: string) => {
      try {
        const result = await pages.crawlPage({ crawlId, urlId }).catch(async (err: unknown) => {
          // Cancellation is handled by the main loop; any other final failure is recorded, so the
          // URL does not stay claimed and the crawl can still complete.
          if (isCancellation(err)) throw err;
          return db.recordPageFailure({ crawlId, urlId, error: (err as Error).message });
        });
        if (result.outcome !== 'skipped') pagesDone++;
        if (result.outcome === 'failed') failed++;
        if (result.admitted > 0) exhausted = false;
        if (result.documentId) await notify(hooks, 'crawl.page', `${crawlId}-${urlId}`, { documentId: result.documentId });
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
        if (!('pending' in result)) return await ending(result);
        exhausted = false;
        continue;
      }
      if (inFlight === 0 && wantsNewRun) await continueAsNew<typeof crawl>({ crawlId, hooks, resumed: { pagesDone, failed } });
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
    // The API already marked the row cancelled; report it, then end as cancelled.
    await CancellationScope.nonCancellable(async () => ending(await db.crawlSummary(crawlId)));
    throw err;
  }
}
