/**
 * The crawl frontier in PostgreSQL (`job_url`): admission of new URLs up to the crawl's exact
 * `limit`, with skip counts by reason, and claiming of queued URLs by page lanes.
 * Dedupe is the unique (job_id, url_key): a variant of a known URL is never queued twice.
 */
import { MAX_CRAWL_LIMIT } from '../../core/schemas/crawl.js';
import { Prisma, rawRows, type PrismaClient } from '../../prisma/client.js';

export interface Candidate {
  url: string;
  urlKey: string;
  depth: number;
  discoveryDepth: number;
}

type Tx = Prisma.TransactionClient;

/** Lock the crawl row for the rest of the transaction; every writer takes this lock first, so counters stay exact. */
export async function lockCrawl(tx: Tx, crawlId: string) {
  const rows = await tx.$queryRaw<{ status: string; total: number; limit: number }[]>`
    SELECT status, total, COALESCE((options->>'limit')::int, ${MAX_CRAWL_LIMIT}) AS "limit" FROM job WHERE id = ${crawlId} FOR UPDATE`;
  return rows[0];
}

/** robots_blocked keeps this many URLs at most (the skip count keeps counting): crawl_add_robots_blocked's `max`. */
export const MAX_ROBOTS_BLOCKED = 1000;

/**
 * Admit candidates (already filtered by the crawl rules) into the frontier, within the crawl's
 * limit: `crawl_admit` (prisma/migrations/20261126100000_crawl_store_function), which the batch
 * store calls too. Must run inside a transaction that holds the crawl lock. Returns how many were
 * admitted and how many new ones did not fit (counted as limit_reached); duplicates of known URLs
 * are not counted, and the first spelling of a URL is the one fetched.
 */
export async function admit(tx: Tx, crawlId: string, total: number, limit: number, candidates: Candidate[]): Promise<{ admitted: number; overflow: number }> {
  if (candidates.length === 0) return { admitted: 0, overflow: 0 };
  const rows = await tx.$queryRaw<{ admitted: number; fresh: number }[]>`
    SELECT admitted, fresh FROM crawl_admit(${crawlId}, ${limit - total}, ${candidates.map((c) => c.urlKey)}::text[], ${candidates.map((c) => c.url)}::text[],
      ${candidates.map((c) => c.depth)}::int[], ${candidates.map((c) => c.discoveryDepth)}::int[])`;
  const { admitted, fresh } = rows[0]!;
  return { admitted, overflow: fresh - admitted };
}

/** A claimed URL, as a lane needs it. */
export interface ClaimedUrl {
  id: bigint;
  url: string;
  urlKey: string;
  depth: number;
  discoveryDepth: number;
  /** Claims so far, this one included. */
  attempts: number;
  throttles: number;
}

type ClaimedRow = { id: bigint; url: string; url_key: string; depth: number; discovery_depth: number; attempts: number; throttles: number };
const toClaimed = (r: ClaimedRow): ClaimedUrl => ({ id: r.id, url: r.url, urlKey: r.url_key, depth: r.depth, discoveryDepth: r.discovery_depth, attempts: r.attempts, throttles: r.throttles });

/**
 * A lane claims up to `max` queued URLs, oldest first: only while the crawl is running and not
 * paused (`resume_at`), and only URLs whose backoff (`retry_at`) has passed. The claim is recorded
 * under the lane run's token, so a retry of that lane run (another worker, after a crash) takes the
 * same URLs back with `reclaimOwn` instead of leaving them claimed. It is `crawl_claim_for`
 * (below), as `crawl_claim` was (prisma/migrations/20261127030000_claim_floor).
 *
 * `after`: the highest URL id this lane run has claimed; the claim looks past it first. Every URL
 * claimed leaves a dead ('queued', id) entry in the (job_id, status, id) index until VACUUM, and a
 * scan from the head of the queue walked all of them: on a busy crawl hundreds of index pages per
 * claim, where a seek past `after` reads a handful. URLs behind it are those put back in the queue
 * (a failed try, a dead lane's claims): claimed when the URLs ahead run short, and by every lane
 * run's first claim (lane runs end every CRAWL_LANE_ROTATE_MS). Those claims from the head start
 * at the crawl's queue floor (`job.queue_floor`: no queued URL has a lower id), which they raise to
 * the head they find, so they too walk only the entries of URLs claimed since the last raise, even
 * while a long transaction elsewhere keeps VACUUM from removing them
 * (prisma/migrations/20261127030000_claim_floor). Every requeue lowers the floor.
 *
 * The status is matched as a range (with the id in a row comparison) and ordered by (status, id) on
 * purpose: written `status = 'queued' ORDER BY id`, the planner may walk the primary key from the
 * crawl's first URL and filter, whenever the table's statistics say most rows are queued (a young
 * database, a big crawl since the last ANALYZE): every claim then read every URL already done,
 * 10-20 ms per claim at 20,000 pages. Only the (job_id, status, id) index gives this order, and the
 * function's planner settings keep a bitmap scan and sort out (bench:frontier, bench:scale-out --statements).
 */
export async function claimBatch(prisma: PrismaClient, crawlId: string, token: string, max: number, after = 0n): Promise<ClaimedUrl[]> {
  return (await claimFor(prisma, crawlId, Array<string>(max).fill(token), after)).map(({ owner: _, ...url }) => url);
}

/** A claimed URL and the lane run it was claimed for. */
export type OwnedUrl = ClaimedUrl & { owner: string };

/**
 * `claimBatch` for several lane runs at once (activities/crawl/group-commit.ts): one URL for each
 * token of `owners` at most, handed out in id order, each recorded under its token. It is
 * `crawl_claim_for` (prisma/migrations/20261128020000_claim_for_lanes).
 */
export async function claimFor(prisma: PrismaClient, crawlId: string, owners: string[], after = 0n): Promise<OwnedUrl[]> {
  const rows = await rawRows<Omit<ClaimedRow, 'id'> & { id: string; claimed_by: string }>(prisma, Prisma.sql`
    SELECT id, url, url_key, depth, discovery_depth, attempts, throttles, claimed_by FROM crawl_claim_for(${crawlId}, ${owners}::text[], ${after}::bigint)`, { prepared: true });
  return rows.map((r) => ({ ...toClaimed({ ...r, id: BigInt(r.id) }), owner: r.claimed_by })).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** URLs an earlier attempt of this lane run claimed and did not finish (its worker died): this attempt does them first. */
export async function reclaimOwn(prisma: PrismaClient, crawlId: string, token: string): Promise<ClaimedUrl[]> {
  const rows = await prisma.$queryRaw<ClaimedRow[]>`
    UPDATE job_url SET attempts = attempts + 1, claimed_at = now()
    WHERE job_id = ${crawlId} AND claimed_by = ${token} AND status = 'claimed'
    RETURNING id, url, url_key, depth, discovery_depth, attempts, throttles`;
  return rows.map(toClaimed).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** What a lane with nothing to claim needs to know: whether to wait, for how long, or to stop. */
export interface FrontierState {
  status: string;
  /** URLs queued (claimable now or after their backoff) and claimed by any lane. */
  queued: number;
  claimed: number;
  /** Epoch ms: the crawl's pause ends / the earliest backoff ends (undefined: none). */
  resumeAt?: number;
  nextRetryAt?: number;
}

export async function frontierState(prisma: PrismaClient, crawlId: string): Promise<FrontierState> {
  const rows = await prisma.$queryRaw<{ status: string; resume_at: Date | null; queued: bigint; claimed: bigint; next_retry_at: Date | null }[]>`
    SELECT c.status, c.resume_at,
      (SELECT count(*) FROM job_url WHERE job_id = ${crawlId} AND status = 'queued') AS queued,
      (SELECT count(*) FROM job_url WHERE job_id = ${crawlId} AND status = 'claimed') AS claimed,
      (SELECT min(retry_at) FROM job_url WHERE job_id = ${crawlId} AND status = 'queued') AS next_retry_at
    FROM job c WHERE c.id = ${crawlId}`;
  const r = rows[0];
  if (!r) return { status: 'gone', queued: 0, claimed: 0 };
  return {
    status: r.status,
    queued: Number(r.queued),
    claimed: Number(r.claimed),
    ...(r.resume_at ? { resumeAt: r.resume_at.getTime() } : {}),
    ...(r.next_retry_at ? { nextRetryAt: r.next_retry_at.getTime() } : {}),
  };
}

/** Pause the whole crawl (every lane, every worker) until `until`; never shortens a longer pause. */
export async function pauseCrawl(prisma: PrismaClient, crawlId: string, until: Date): Promise<void> {
  await prisma.$executeRaw`UPDATE job SET resume_at = GREATEST(COALESCE(resume_at, ${until}), ${until}) WHERE id = ${crawlId}`;
}

/**
 * Claim up to `max` queued URLs of a running crawl, oldest first (workflow runs started before page
 * lanes claim this way). Idempotent per `token`: a retried claim activity gets back the rows its
 * first attempt claimed instead of claiming new ones, so no URL is left claimed by an attempt whose
 * answer was lost.
 */
export async function claimUrls(prisma: PrismaClient, crawlId: string, max: number, token: string): Promise<string[]> {
  const again = await prisma.$queryRaw<{ id: bigint }[]>`SELECT id FROM job_url WHERE job_id = ${crawlId} AND claimed_by = ${token} AND status = 'claimed' ORDER BY id`;
  if (again.length) return again.map((r) => r.id.toString());
  const rows = await prisma.$queryRaw<{ id: bigint }[]>`
    UPDATE job_url SET status = 'claimed', claimed_by = ${token}, claimed_at = now()
    WHERE id IN (
      SELECT u.id FROM job_url u
      WHERE u.job_id = ${crawlId} AND u.status = 'queued'
        AND EXISTS (SELECT 1 FROM job c WHERE c.id = ${crawlId} AND c.status = 'scraping')
      ORDER BY u.id LIMIT ${max} FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return rows.map((r) => r.id).sort((a, b) => (a < b ? -1 : 1)).map(String);
}

/**
 * Nothing of the workflow runs any more (a new run, or every lane has ended): whatever is still
 * claimed goes back to the queue, and the crawl's queue floor down to it (see `claimBatch`).
 */
export async function requeueClaimed(prisma: PrismaClient, crawlId: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: bigint }[]>`
    WITH back AS (
      UPDATE job_url SET status = 'queued', claimed_by = NULL, claimed_at = NULL WHERE job_id = ${crawlId} AND status = 'claimed' RETURNING id),
    floor AS (
      UPDATE job SET queue_floor = LEAST(queue_floor, COALESCE((SELECT min(id) FROM back), queue_floor)), requeues = requeues + (SELECT count(*) FROM back)
      WHERE id = ${crawlId})
    SELECT count(*) AS n FROM back`;
  return Number(row!.n);
}
