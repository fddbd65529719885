/**
 * Page lanes (README "Architecture", "Page lanes"): a lane is one long-running activity that claims
 * batches of URLs from its crawl's frontier, runs them through the page pipeline concurrently (up to
 * its width, within the worker's page slots), stores what they produced in batches and heartbeats.
 * Temporal sees one activity per lane run instead of one per page; PostgreSQL holds the progress.
 *
 * A lane run ends when the crawl has nothing queued or in flight (`drained`), after `maxMs` so lanes
 * of several crawls take turns on a worker and the workflow refreshes what the Temporal UI shows
 * (`rotate`), when nothing can be fetched for a while (`wait`: the workflow sleeps on a timer), or
 * when the crawl stopped (`stopped`). If its worker dies, Temporal retries the lane run elsewhere
 * after the heartbeat timeout; the retry takes back the URLs the dead attempt had claimed (same
 * token) and fetches them again: a page may be fetched twice, never stored twice.
 */
import { Context } from '@temporalio/activity';
import type { LaneInput, LaneResult } from '../../core/job-contracts.js';
import type { ActivityDeps } from '../deps.js';
import { claimFor, frontierState, reclaimOwn, type ClaimedUrl } from './frontier.js';
import { loadCrawlPages, type CrawlPages } from './page-work.js';
import { storeBatches, type PageOutcome } from './store.js';
import { groupedClaims, groupedStores } from './group-commit.js';
import { KnownUrls } from './known-urls.js';
import { onCrawlProgress, waitForCrawlProgress } from './wake.js';
import { creditCheck } from '../../core/billing-settings.js';
import { lanesRunning } from '../../telemetry/metrics.js';

/** A lane with nothing to fetch for longer than this returns (`wait`) instead of holding a worker's lane slot. */
export const LANE_MAX_SLEEP_MS = 2_000;
/** Finished pages are stored once this many wait, or the oldest has waited FLUSH_MS, or nothing else is in flight. */
const FLUSH_MS = 100;
/**
 * A lane's finished pages not yet stored, at most, in lane widths: while a store runs the lane goes on
 * fetching, so the next store takes what finished meanwhile (the slower PostgreSQL answers, the larger
 * its batches: bench:frontier).
 */
const UNSTORED_WIDTHS = 4;
/** An idle lane (others still in flight) looks at the frontier again this often, or sooner when a lane on its worker admits links. */
const IDLE_POLL_MS = 250;
const HEARTBEAT_MS = 1_000;

export function laneActivities(deps: ActivityDeps) {
  const { prisma, config } = deps;
  // The lanes of one crawl on this worker store, and claim, together while a store (claim) of theirs runs (group-commit.ts).
  const known = new KnownUrls();
  const store = groupedStores((batches) => storeBatches(prisma, batches, config.CRAWL_TTL_SECONDS, creditCheck(config), known));
  const claim = groupedClaims((crawlId, owners, after) => claimFor(prisma, crawlId, owners, after));

  async function counters(crawlId: string): Promise<Pick<LaneResult, 'completed' | 'failed' | 'total'>> {
    const c = await prisma.job.findUnique({ where: { id: crawlId }, select: { completed: true, failed: true, total: true } });
    return { completed: c?.completed ?? 0, failed: c?.failed ?? 0, total: c?.total ?? 0 };
  }

  /**
   * A stopped crawl's URLs still claimed by this lane run are dropped. While the crawl runs they stay
   * claimed (a shutdown, a lost heartbeat): the retry of this lane run, or the workflow once every
   * lane has ended, puts them back.
   */
  async function dropOwnClaims(crawlId: string, token: string): Promise<void> {
    await prisma.$executeRaw`
      UPDATE job_url SET status = 'dropped' WHERE job_id = ${crawlId} AND claimed_by = ${token} AND status = 'claimed'
        AND EXISTS (SELECT 1 FROM job WHERE id = ${crawlId} AND status <> 'scraping')`;
  }

  return {
    async crawlLane(input: LaneInput): Promise<LaneResult> {
      const ctx = Context.current();
      const cancelled = ctx.cancellationSignal;
      const { crawlId, token } = input;
      const crawl: CrawlPages | undefined = await loadCrawlPages(deps, crawlId, input.taskQueue);
      if (!crawl) {
        await dropOwnClaims(crawlId, token);
        return { exit: 'stopped', stored: 0, ...(await counters(crawlId)) };
      }
      await crawl.sendPendingPageEvents();

      const widest = Math.max(1, Math.min(input.width, config.WORKER_CONCURRENCY));
      const lane = { width: widest, okStreak: 0 };
      const inFlight = new Set<Promise<void>>();
      let buffer: PageOutcome[] = [];
      let bufferSince = 0;
      let stored = 0;
      let exit: LaneResult['exit'] | undefined;
      let waitMs: number | undefined;
      const started = Date.now();
      const heartbeat = setInterval(() => ctx.heartbeat({ stored }), HEARTBEAT_MS);
      lanesRunning.inc();

      /** The store running, if any: the lane goes on fetching while it runs, and what finishes meanwhile goes in the next one. */
      let storing: Promise<void> | undefined;
      let storeError: unknown;
      const storeBuffered = async () => {
        if (!buffer.length) return;
        const batch = buffer;
        buffer = [];
        bufferSince = 0;
        // One span per batch (README "Traces"): the pages it settles, and the documents among them.
        const result = await deps.tracing.span(
          'page.store',
          async (span) => {
            const out = await store(crawlId, batch);
            span.setAttribute('pagewright.documents', out.stored.length);
            return out;
          },
          { attributes: { 'pagewright.pages': batch.length } },
        );
        if (result.stopped) exit = 'stopped';
        stored += result.stored.length;
        if (result.admitted > 0) onCrawlProgress(crawlId);
        await crawl.sendPageEvents(result.stored);
      };
      /** Starts storing what is buffered, unless a store runs (one at a time: a lane's pages are stored in order). */
      const flushSoon = () => {
        if (storing || !buffer.length) return;
        storing = storeBuffered()
          .catch((err: unknown) => void (storeError ??= err))
          .finally(() => (storing = undefined));
      };
      /** Everything finished, stored: after the running store, the rest. A failed store fails the lane run. */
      const flush = async () => {
        await storing;
        if (storeError === undefined) await storeBuffered().catch((err: unknown) => void (storeError ??= err));
        if (storeError !== undefined) throw storeError;
      };
      const start = (row: ClaimedUrl) => {
        const running: Promise<void> = crawl
          .runRow(row, { signal: cancelled, lane, widest, delayMs: input.delayMs })
          .then((outcome) => {
            if (!outcome) return;
            buffer.push(outcome);
            bufferSince ||= Date.now();
          })
          .finally(() => inFlight.delete(running));
        inFlight.add(running);
      };

      /** The highest URL id this lane run claimed: its next claim looks past it first (claimFor). */
      let claimedUpTo = 0n;
      /** Claimed, not started yet: a lane runs at most its width of pages at once. */
      const ready: ClaimedUrl[] = [];
      const startReady = () => {
        while (ready.length && inFlight.size < lane.width) start(ready.shift()!);
      };
      /** The last claim got all it asked for: the queue is deep, and the next claim takes a width ahead. */
      let fullClaims = false;
      try {
        ready.push(...(await reclaimOwn(prisma, crawlId, token)));
        while (exit === undefined && !cancelled.aborted) {
          if (storeError !== undefined) throw storeError;
          // Past its time, or its worker is shutting down: stop claiming, finish what it holds, return.
          const timeUp = Date.now() - started >= input.maxMs || deps.stopping.aborted;
          const unstoredMax = UNSTORED_WIDTHS * lane.width;
          startReady();
          if (!timeUp && inFlight.size <= Math.floor(lane.width / 2) && buffer.length < unstoredMax) {
            // Here nothing is ready (it was started above). A claim costs PostgreSQL about as much for one URL as for a
            // width of them: while the queue is deep, a lane claims a width ahead (a sibling lane waits for them at most a page's time).
            const max: number = (fullClaims ? 2 : 1) * lane.width - inFlight.size;
            const rows = await claim(crawlId, { token, max, after: claimedUpTo });
            fullClaims = rows.length === max;
            for (const row of rows) if (row.id > claimedUpTo) claimedUpTo = row.id;
            ready.push(...rows);
            startReady();
            if (rows.length === 0 && inFlight.size === 0) {
              await flush();
              if (exit) break;
              const state = await frontierState(prisma, crawlId);
              if (state.status !== 'scraping') exit = 'stopped';
              else if (state.queued === 0 && state.claimed === 0) exit = 'drained';
              else {
                // Something is queued but not claimable yet (a pause, a backoff), or other lanes hold URLs that may add links.
                const until = Math.max(state.resumeAt ?? 0, state.claimed === 0 ? (state.nextRetryAt ?? 0) : 0);
                const wait = until - Date.now();
                if (state.claimed === 0 && wait > LANE_MAX_SLEEP_MS) {
                  exit = 'wait';
                  waitMs = wait;
                } else await waitForCrawlProgress(crawlId, wait > 0 ? Math.min(wait, LANE_MAX_SLEEP_MS) : IDLE_POLL_MS, cancelled);
              }
              continue;
            }
          }
          if (timeUp && inFlight.size === 0) {
            exit = 'rotate';
            break;
          }
          if (inFlight.size) await Promise.race([...inFlight, delay(FLUSH_MS)]);
          // Finished pages waiting for a running store hold claims and memory: at their bound, the lane waits for it.
          if (storing && buffer.length >= unstoredMax) await storing;
          if (buffer.length && (buffer.length >= Math.ceil(lane.width / 2) || inFlight.size === 0 || Date.now() - bufferSince >= FLUSH_MS)) flushSoon();
        }
        // Stopped or cancelled: pages in flight end (aborted when cancelled); what they finished is still settled.
        await Promise.allSettled(inFlight);
        await flush();
      } finally {
        // A lane run that failed leaves no store running behind it (its retry takes back its URLs).
        await storing;
        clearInterval(heartbeat);
        lanesRunning.dec();
      }
      if (cancelled.aborted || exit === 'stopped') await dropOwnClaims(crawlId, token);
      if (cancelled.aborted) throw cancelled.reason;
      return { exit: exit ?? 'stopped', ...(waitMs !== undefined ? { waitMs } : {}), stored, ...(await counters(crawlId)) };
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
