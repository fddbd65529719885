/**
 * Where a lane's finished pages land: ONE transaction per batch (the batches of a crawl's lanes on
 * one worker that finish while a store runs go together: store-queue.ts), holding the crawl row lock, stores
 * the documents with the next gap-free sequence numbers (multi-row insert), admits the batch's new
 * links within the exact `limit`, counts skips, updates the counters and settles each URL: done,
 * failed (with its error) or back to the queue with a backoff. A URL already settled by someone else
 * (a zombie attempt, a retried lane) is left alone, and a page whose document exists is never stored
 * twice: the lock makes "check, then insert" safe, and unique (job_id, url_key) backs it up.
 *
 * The lock is held from the first statement to the commit, and every lane of the crawl waits for it,
 * so a batch takes few round trips: lock, the open check, admission, then one statement that inserts
 * the documents, meters them, updates the counters and marks the stored URLs done (bench:frontier,
 * README "Scaling out"). Failed and requeued URLs, screenshots and action results follow, one
 * statement each; crawls rarely have them.
 */
import type { StoredPage } from '../documents.js';
import { writeSnapshot } from '../pipeline/change-tracking.js';
import { lockCrawlCredits } from '../../prisma/billing.js';
import { crawlMeteringCtes } from '../../prisma/usage.js';
import { creditsMetered, since, storeDuration } from '../../telemetry/metrics.js';
import { Prisma, type PrismaClient } from '../../prisma/client.js';
import { addRobotsBlocked, addSkips, admit, lockCrawl, type Candidate, type ClaimedUrl } from './frontier.js';

export type PageOutcome =
  | { kind: 'stored'; row: ClaimedUrl; document: StoredPage; candidates: Candidate[]; skips: string[]; robotsBlocked: string[] }
  /** `code`: the failure's class (core/failures.ts), or `gave_up` / `internal_error`. */
  | { kind: 'failed'; row: ClaimedUrl; error: string; code: string }
  /**
   * Back to the queue, claimable again at `retryAt`. `tried`: a failed try (counts as an attempt);
   * `throttled`: the site asked us to slow down (counts as a throttle, not an attempt); `not_tried`:
   * the crawl was paused before it was fetched (counts as nothing).
   */
  | { kind: 'requeue'; row: ClaimedUrl; retryAt: Date; why: 'tried' | 'throttled' | 'not_tried'; error: string };

export interface BatchResult {
  /** Documents stored by this batch: their URL ids and document ids. */
  stored: { urlId: bigint; documentId: string }[];
  admitted: number;
  /** The crawl was no longer running: nothing was stored, the batch's URLs were dropped. */
  stopped: boolean;
}

export const documentIdFor = (crawlId: string, urlKey: string) => `${crawlId}:${urlKey}`;

const ERROR_MAX_CHARS = 2000;

type Tx = Prisma.TransactionClient;

/** Failed (with its error), or back to the queue: the URLs this batch settles besides those done. */
async function settleOthers(tx: Tx, outcomes: PageOutcome[]): Promise<void> {
  for (const o of outcomes) {
    if (o.kind === 'failed') await tx.$executeRaw`UPDATE job_url SET status = 'failed', error = ${o.error.slice(0, ERROR_MAX_CHARS)}, error_code = ${o.code}, failed_at = now() WHERE id = ${o.row.id}`;
    else if (o.kind === 'requeue') {
      await tx.$executeRaw`
        UPDATE job_url SET status = 'queued', claimed_by = NULL, claimed_at = NULL, retry_at = ${o.retryAt},
          throttles = throttles + ${o.why === 'throttled' ? 1 : 0}, attempts = attempts - ${o.why === 'tried' ? 0 : 1}
        WHERE id = ${o.row.id}`;
    }
  }
}

type StoredOutcome = Extract<PageOutcome, { kind: 'stored' }>;

/**
 * The documents as one multi-row insert, for a CTE of the batch's statement; sequences continue from
 * the crawl's next_sequence as the statement began (the caller holds the lock and advances it in the
 * same statement: every part of one statement sees the same snapshot).
 */
function documentRows(crawlId: string, pages: StoredOutcome[], ttlSeconds: number): Prisma.Sql {
  const docs = pages.map((p) => p.document);
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  return Prisma.sql`
    INSERT INTO document (id, job_id, sequence, url_key, url, markdown, html, raw_html, links, images, attributes, summary, metadata, extract, change_tracking, warning, status_code, expires_at)
    SELECT t.id, ${crawlId}, c.next_sequence + t.ord - 1, t.url_key, t.url, t.markdown, t.html, t.raw_html, t.links::jsonb, t.images::jsonb, t.attributes::jsonb, t.summary, t.metadata::jsonb, t.extract::jsonb, t.change_tracking::jsonb, t.warning, t.status_code,
      now() + make_interval(secs => ${ttlSeconds})
    FROM unnest(
      ${pages.map((p) => documentIdFor(crawlId, p.row.urlKey))}::text[], ${pages.map((p) => p.row.urlKey)}::text[], ${docs.map((d) => d.url)}::text[],
      ${docs.map((d) => d.markdown ?? null)}::text[], ${docs.map((d) => d.html ?? null)}::text[], ${docs.map((d) => d.rawHtml ?? null)}::text[],
      ${docs.map((d) => json(d.links))}::text[], ${docs.map((d) => json(d.images))}::text[], ${docs.map((d) => json(d.attributes))}::text[], ${docs.map((d) => d.summary ?? null)}::text[],
      ${docs.map((d) => JSON.stringify(d.metadata))}::text[], ${docs.map((d) => json(d.extract))}::text[],
      ${docs.map((d) => json(d.changeTracking))}::text[], ${docs.map((d) => d.warning ?? null)}::text[], ${docs.map((d) => d.statusCode ?? null)}::int[]
    ) WITH ORDINALITY AS t(id, url_key, url, markdown, html, raw_html, links, images, attributes, summary, metadata, extract, change_tracking, warning, status_code, ord),
    job c WHERE c.id = ${crawlId}
    RETURNING 1`;
}

/** What the documents carry besides their row, once they are inserted. */
async function documentExtras(tx: Tx, crawlId: string, pages: StoredOutcome[]): Promise<void> {
  // Screenshots and action results are rare in crawls and large: one update each rather than arrays.
  for (const p of pages) {
    if (p.document.screenshot) await tx.$executeRaw`UPDATE document SET screenshot = ${new Uint8Array(p.document.screenshot)} WHERE id = ${documentIdFor(crawlId, p.row.urlKey)}`;
    if (p.document.actions) await tx.$executeRaw`UPDATE document SET actions = ${JSON.stringify(p.document.actions)}::jsonb WHERE id = ${documentIdFor(crawlId, p.row.urlKey)}`;
    // Change tracking's snapshot lands with its document: a page fetched again after a crash compares with the same old version.
    if (p.document.snapshot) await writeSnapshot(tx, p.document.snapshot);
  }
}

/** With billing on: the free allowance, for rolling over an account's period (prisma/billing.ts). */
export interface CreditCheck {
  freeCredits: number;
}

export const CREDITS_EXHAUSTED = 'credits_exhausted';

/**
 * The account has no credits left: the crawl's unpaid and queued URLs are dropped (counted as
 * `credits_exhausted` skips) and its status says why; with nothing left to fetch it completes.
 */
async function stopForCredits(tx: Tx, crawlId: string, unpaid: bigint[]): Promise<number> {
  const dropped = await tx.$executeRaw`
    UPDATE job_url SET status = 'dropped' WHERE job_id = ${crawlId} AND (status = 'queued' OR id = ANY(${unpaid}::bigint[]))`;
  await tx.$executeRaw`
    UPDATE job SET error = 'Stopped early: the account has no credits left. An admin can upgrade the plan on the dashboard''s Billing page.'
    WHERE id = ${crawlId} AND error IS NULL`;
  return dropped;
}

export async function storeBatch(prisma: PrismaClient, crawlId: string, outcomes: PageOutcome[], ttlSeconds: number, credits?: CreditCheck): Promise<BatchResult> {
  if (outcomes.length === 0) return { stored: [], admitted: 0, stopped: false };
  const started = performance.now();
  const result = await storeInTransaction(prisma, crawlId, outcomes, ttlSeconds, credits);
  storeDuration.observe({ kind: 'crawl' }, since(started));
  if (result.stored.length) creditsMetered.inc({ source: 'crawl' }, result.stored.length);
  return result;
}

function storeInTransaction(prisma: PrismaClient, crawlId: string, outcomes: PageOutcome[], ttlSeconds: number, credits?: CreditCheck): Promise<BatchResult> {
  return prisma.$transaction(async (tx) => {
    const crawl = await lockCrawl(tx, crawlId);
    const ids = outcomes.map((o) => o.row.id);
    if (!crawl || crawl.status !== 'scraping') {
      await tx.$executeRaw`UPDATE job_url SET status = 'dropped' WHERE id = ANY(${ids}::bigint[]) AND status IN ('queued', 'claimed')`;
      return { stored: [], admitted: 0, stopped: true };
    }
    // Only URLs still open are settled here (one settled meanwhile by another attempt stays as it is),
    // and a page whose document exists is not stored again.
    const open = await tx.$queryRaw<{ id: bigint; stored: boolean }[]>`
      SELECT u.id, EXISTS (SELECT 1 FROM document d WHERE d.job_id = u.job_id AND d.url_key = u.url_key) AS stored
      FROM job_url u WHERE u.id = ANY(${ids}::bigint[]) AND u.status IN ('queued', 'claimed')`;
    const openIds = new Set(open.map((r) => r.id));
    const alreadyStored = new Set(open.filter((r) => r.stored).map((r) => r.id));
    let mine = outcomes.filter((o) => openIds.has(o.row.id));
    let pages = mine.filter((o): o is StoredOutcome => o.kind === 'stored');
    let fresh = pages.filter((p) => !alreadyStored.has(p.row.id));
    // Billing: pages past the account's credits are not stored, and the crawl stops as if its limit were reached.
    const left = credits ? await lockCrawlCredits(tx, crawlId, credits.freeCredits) : undefined;
    const unpaid = left === undefined ? [] : fresh.slice(Math.max(0, left));
    const exhausted = left !== undefined && left - fresh.length <= 0;
    if (unpaid.length) {
      const cut = new Set(unpaid.map((p) => p.row.id));
      mine = mine.filter((o) => !cut.has(o.row.id));
      pages = pages.filter((p) => !cut.has(p.row.id));
      fresh = fresh.filter((p) => !cut.has(p.row.id));
    }
    const { admitted, overflow } = exhausted ? { admitted: 0, overflow: 0 } : await admit(tx, crawlId, crawl.total, crawl.limit, pages.flatMap((p) => p.candidates));
    const failed = mine.filter((o) => o.kind === 'failed').length;
    const dropped = exhausted ? await stopForCredits(tx, crawlId, unpaid.map((p) => p.row.id)) : 0;
    const skips = [...pages.flatMap((p) => p.skips), ...Array<string>(overflow).fill('limit_reached'), ...Array<string>(dropped).fill(CREDITS_EXHAUSTED)];
    const robotsBlocked = addRobotsBlocked(crawl.robotsBlocked, pages.flatMap((p) => p.robotsBlocked));
    const done = pages.map((p) => p.row.id);
    // One statement: the documents, their metering, the URLs stored done, and the counters.
    const ctes = [
      ...(fresh.length ? [Prisma.sql`docs AS (${documentRows(crawlId, fresh, ttlSeconds)})`, crawlMeteringCtes(crawlId, fresh.length)] : []),
      ...(done.length ? [Prisma.sql`done AS (UPDATE job_url SET status = 'done' WHERE id = ANY(${done}::bigint[]) RETURNING 1)`] : []),
    ];
    await tx.$executeRaw`
      ${ctes.length ? Prisma.sql`WITH ${Prisma.join(ctes, ', ')}` : Prisma.empty}
      UPDATE job SET next_sequence = next_sequence + ${fresh.length}, completed = completed + ${fresh.length + failed}, failed = failed + ${failed},
        credits_used = credits_used + ${fresh.length}, total = total + ${admitted - dropped}, skipped = ${JSON.stringify(addSkips(crawl.skipped, skips))}::jsonb,
        robots_blocked = ${JSON.stringify(robotsBlocked)}::jsonb, updated_at = now()
      WHERE id = ${crawlId}`;
    await settleOthers(tx, mine);
    await documentExtras(tx, crawlId, fresh);
    return { stored: fresh.map((p) => ({ urlId: p.row.id, documentId: documentIdFor(crawlId, p.row.urlKey) })), admitted, stopped: false };
  });
}
