/**
 * One crawl's page work, as lanes (and the per-page activity of older workflow runs) do it: a claimed
 * URL goes through the page pipeline, its links through the crawl's admission rules, and the result
 * becomes an outcome for the batch store (./store.ts). Failures are sorted by their class
 * (core/failures.ts): final ones fail the page, retryable ones come back after a backoff up
 * to PAGE_FETCH_ATTEMPTS, and a site that asks us to slow down pauses the whole crawl.
 * Also sends crawl.page webhook deliveries for stored documents (an outbox: `page_event_sent`).
 */
import { crawlDelivery } from '../../core/job-contracts.js';
import type { ActivityDeps } from '../deps.js';
import { startDeliveryOnce } from '../webhooks.js';
import { PageError, ThrottledError } from '../../core/failures.js';
import { pauseCrawl, type Candidate, type ClaimedUrl } from './frontier.js';
import { jobOf } from './job.js';
import { documentIdFor, type PageOutcome } from './store.js';

/** Each page gets this long (fetch, browser, conversion, extraction). */
export const PAGE_TIMEOUT_MS = 30_000;
/** Tries of a page whose fetch keeps failing (network, every engine failed, timeout) before it is recorded as failed. */
export const PAGE_FETCH_ATTEMPTS = 3;
/** Claims of a page before it is failed without another try: it was in flight each time a worker died. */
export const PAGE_MAX_CLAIMS = 5;
/** Times a site may answer 429 / 503 + Retry-After for one page before the page is failed. */
export const PAGE_MAX_THROTTLES = 10;
/** A throttling site that gives no Retry-After pauses the crawl 2 s, doubling per throttle of that page. */
const THROTTLE_PAUSE_MS = 2_000;
/** Longest pause a Retry-After can impose at once (the page can be throttled again afterwards). */
export const MAX_THROTTLE_PAUSE_MS = 60_000;
/** Backoff of a retryable failure: 1 s, 2 s, 4 s … at most 30 s. */
const retryBackoffMs = (attempts: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempts - 1));
/** A claimed page waits this long at most for a pause to end before it goes back to the queue instead. */
const PAUSE_WAIT_MS = 2_000;

/**
 * Pauses this worker has seen, by crawl: a page about to be fetched waits for them, so no lane on
 * this worker sends a request while the site has asked us to wait. Lanes on other workers see the
 * pause in `crawl.resume_at` when they next claim.
 */
const pausedUntil = new Map<string, number>();

function notePause(crawlId: string, until: number): void {
  if ((pausedUntil.get(crawlId) ?? 0) < until) pausedUntil.set(crawlId, until);
  // Forget ended pauses, so the map holds only crawls paused right now.
  for (const [id, t] of pausedUntil) if (t < Date.now()) pausedUntil.delete(id);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A lane's adaptive width: halved when the site throttles, grown back by one after `width` pages in a row succeed. */
export interface LaneWidth {
  width: number;
  okStreak: number;
}

export interface CrawlPages {
  runRow(row: ClaimedUrl, run: { signal: AbortSignal; lane?: LaneWidth; delayMs: number; widest?: number }): Promise<PageOutcome | undefined>;
  sendPageEvents(stored: { urlId: bigint; documentId: string }[]): Promise<void>;
  /** crawl.page deliveries of pages stored by a lane run that died before starting them. */
  sendPendingPageEvents(): Promise<void>;
}

/** The job's page work, or undefined when it is no longer running. */
export async function loadCrawlPages(deps: ActivityDeps, crawlId: string, taskQueue: string): Promise<CrawlPages | undefined> {
  const { prisma, config, runPage } = deps;
  const row = await prisma.job.findUnique({ where: { id: crawlId }, select: { status: true, kind: true, options: true, robotsTxt: true, apiKeyId: true, payer: true } });
  if (!row || row.status !== 'scraping') return undefined;
  const { pageOptions, rules, hooks, owner } = jobOf(crawlId, row, config.SERVICE_USER_AGENT);
  const pageTimeoutMs = pageOptions.timeout ?? PAGE_TIMEOUT_MS;

  async function onFailure(row: ClaimedUrl, err: unknown, lane?: LaneWidth): Promise<PageOutcome> {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ThrottledError) {
      if (row.throttles + 1 >= PAGE_MAX_THROTTLES) return { kind: 'failed', row, code: err.code, error: `${message}; the site kept asking to slow down (${PAGE_MAX_THROTTLES} times), so this page was given up` };
      const pauseMs = Math.min(MAX_THROTTLE_PAUSE_MS, Math.max(1000, err.retryAfterMs ?? THROTTLE_PAUSE_MS * 2 ** row.throttles));
      const until = new Date(Date.now() + pauseMs);
      notePause(crawlId, until.getTime());
      await pauseCrawl(prisma, crawlId, until);
      if (lane) {
        lane.width = Math.max(1, Math.floor(lane.width / 2));
        lane.okStreak = 0;
      }
      return { kind: 'requeue', row, retryAt: until, why: 'throttled', error: message };
    }
    const code = err instanceof PageError ? err.code : 'internal_error';
    if (err instanceof PageError && !err.retryable) return { kind: 'failed', row, code, error: message };
    // Retryable, or unexpected (a bug must not wedge the crawl): try again later, a bounded number of times.
    if (row.attempts >= PAGE_FETCH_ATTEMPTS) return { kind: 'failed', row, code, error: message };
    return { kind: 'requeue', row, retryAt: new Date(Date.now() + retryBackoffMs(row.attempts)), why: 'tried', error: message };
  }

  async function startDelivery(stored: { urlId: bigint; documentId: string }): Promise<void> {
    const delivery = hooks && crawlDelivery(hooks, 'page', `${crawlId}-${stored.urlId}`, { documentId: stored.documentId });
    if (delivery) await startDeliveryOnce(taskQueue, delivery);
  }

  async function sendPageEvents(stored: { urlId: bigint; documentId: string }[]): Promise<void> {
    if (!hooks || stored.length === 0) return;
    await Promise.all(stored.map(startDelivery));
    await prisma.jobUrl.updateMany({ where: { id: { in: stored.map((s) => s.urlId) } }, data: { pageEventSent: true } });
  }

  return {
    async runRow(row, run) {
      if (row.attempts > PAGE_MAX_CLAIMS) return { kind: 'failed', row, code: 'worker_lost', error: `Given up after ${row.attempts - 1} tries: the worker stopped each time while fetching it.` };
      const pause = (pausedUntil.get(crawlId) ?? 0) - Date.now();
      if (pause > PAUSE_WAIT_MS) return { kind: 'requeue', row, retryAt: new Date(Date.now() + pause), why: 'not_tried', error: 'the crawl is paused' };
      if (pause > 0) await sleep(pause, run.signal);
      let release: () => void;
      try {
        release = await deps.pageSlots.acquire(run.signal);
      } catch {
        return undefined;
      }
      try {
        const out = await runPage({
          url: row.url,
          sourceURL: row.url,
          options: pageOptions,
          deadline: Date.now() + pageTimeoutMs,
          timeoutMs: pageTimeoutMs,
          signal: run.signal,
          crawl: true,
          owner,
          documentId: documentIdFor(crawlId, row.urlKey),
        });
        const candidates: Candidate[] = [];
        const skips: string[] = [];
        const robotsBlocked: string[] = [];
        // A batch scrape follows no links; a crawl admits what its rules allow.
        for (const link of rules ? out.links : []) {
          const verdict = rules!.check(link, row.discoveryDepth);
          if (verdict.admit) candidates.push(verdict.candidate);
          else if (verdict.reason) {
            skips.push(verdict.reason);
            if (verdict.reason === 'robots_blocked') robotsBlocked.push(link);
          }
        }
        if (run.lane && run.widest && run.lane.width < run.widest && ++run.lane.okStreak >= run.lane.width) {
          run.lane.width++;
          run.lane.okStreak = 0;
        }
        return { kind: 'stored', row, document: out.document, candidates, skips, robotsBlocked };
      } catch (err) {
        // Cancelled: nothing to record; the claim is dropped or taken back by whoever runs next.
        if (run.signal.aborted) return undefined;
        return await onFailure(row, err, run.lane);
      } finally {
        // `delay`: the next request starts that long after this one ended, on any lane or worker (`resume_at`).
        if (run.delayMs > 0) {
          const until = Date.now() + run.delayMs;
          notePause(crawlId, until);
          await pauseCrawl(prisma, crawlId, new Date(until));
        }
        release();
      }
    },
    sendPageEvents,
    async sendPendingPageEvents() {
      if (!hooks) return;
      const pending = await prisma.$queryRaw<{ id: bigint; url_key: string }[]>`
        SELECT u.id, u.url_key FROM job_url u
        WHERE u.job_id = ${crawlId} AND u.status = 'done' AND NOT u.page_event_sent
          AND EXISTS (SELECT 1 FROM document d WHERE d.id = ${crawlId} || ':' || u.url_key)`;
      await sendPageEvents(pending.map((p) => ({ urlId: p.id, documentId: documentIdFor(crawlId, p.url_key) })));
    },
  };
}
