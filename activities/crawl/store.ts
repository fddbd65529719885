/**
 * Where a lane's finished pages land: ONE statement per batch (the batches of a worker's lanes that
 * finish while its stores run go together, several crawls' in one statement, crawl_store_batches:
 * group-commit.ts), the call of
 * `crawl_store_batch` (prisma/migrations/20261126100000_crawl_store_function; its current text is the
 * last migration that replaces it, 20261128040000_store_skip_empty_settlements). Holding the crawl row
 * lock, it stores the documents with the next gap-free sequence numbers, admits the batch's new
 * links within the exact `limit`, counts skips, updates the counters and settles each URL: done,
 * failed (with its error) or back to the queue with a backoff (lowering the crawl's queue floor). A
 * URL already settled by someone else (a zombie attempt, a retried lane) is left alone, and a page
 * whose document exists is never stored twice: the lock makes "check, then insert" safe, and the
 * document's primary key (`documentIdFor`) backs it up. The same statement meters the documents (prisma/usage.ts).
 *
 * Every lane of the crawl waits for that lock, so it is held only while PostgreSQL works: sent as
 * one statement, the store commits as it ends, with no round trip to this process in between
 * (bench:frontier, README "How far one PostgreSQL frontier goes"). With billing on, or with
 * screenshots, action results or change-tracking snapshots to write, the call runs in a transaction
 * that reads the credits first or writes those after.
 */
import type { StoredPage } from '../documents.js';
import { writeSnapshot } from '../pipeline/change-tracking.js';
import { lockCrawlCredits } from '../../prisma/billing.js';
import { meteringCtes } from '../../prisma/usage.js';
import { MAX_CRAWL_LIMIT } from '../../core/schemas/crawl.js';
import { creditsMetered, since, storeDuration } from '../../telemetry/metrics.js';
import { Prisma, rawRows, type PrismaClient } from '../../prisma/client.js';
import { lockCrawl, MAX_ROBOTS_BLOCKED, type Candidate, type ClaimedUrl } from './frontier.js';
import type { KnownUrls } from './known-urls.js';

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

/** A job's document id; crawl_store_batch and sendPendingPageEvents find documents by it too (`<job id>:<url key>`). */
export const documentIdFor = (crawlId: string, urlKey: string) => `${crawlId}:${urlKey}`;

const ERROR_MAX_CHARS = 2000;

type Tx = Prisma.TransactionClient;
type StoredOutcome = Extract<PageOutcome, { kind: 'stored' }>;

/** The groups of crawl_store_batch's arrays: one entry per outcome, stored page, link, skip, robots block, failure, requeue. */
type ArrayGroup = 'outcomes' | 'pages' | 'links' | 'skips' | 'blocked' | 'failed' | 'requeued';
const ARRAY_GROUPS: ArrayGroup[] = ['outcomes', 'pages', 'links', 'skips', 'blocked', 'failed', 'requeued'];
interface StoreArray {
  group: ArrayGroup;
  type: 'bigint' | 'text' | 'int' | 'timestamptz';
  values: unknown[];
}

/** crawl_store_batch's arrays for these outcomes, in its order (prisma/migrations/20261126100000_crawl_store_function). */
function storeArrays(crawlId: string, outcomes: PageOutcome[], known: KnownUrls | undefined): StoreArray[] {
  const pages = outcomes.filter((o): o is StoredOutcome => o.kind === 'stored');
  const failed = outcomes.filter((o) => o.kind === 'failed');
  const requeued = outcomes.filter((o) => o.kind === 'requeue');
  const docs = pages.map((p) => p.document);
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  // Per page (its index in the pages, from 1) what it found: links, skips, URLs robots.txt kept it from.
  const byPage = <T>(each: (p: StoredOutcome) => T[]) => pages.flatMap((p, i) => each(p).map((value) => ({ page: i + 1, value })));
  const links = byPage((p) => (known ? p.candidates.filter((c) => !known.has(crawlId, c.urlKey)) : p.candidates));
  const skips = byPage((p) => p.skips);
  const blocked = byPage((p) => p.robotsBlocked);
  const a = (group: ArrayGroup, type: StoreArray['type'], values: unknown[]): StoreArray => ({ group, type, values });
  return [
    a('outcomes', 'bigint', outcomes.map((o) => o.row.id)),
    a('pages', 'bigint', pages.map((p) => p.row.id)), a('pages', 'text', pages.map((p) => documentIdFor(crawlId, p.row.urlKey))),
    a('pages', 'text', pages.map((p) => p.row.urlKey)), a('pages', 'text', docs.map((d) => d.url)),
    a('pages', 'text', docs.map((d) => d.markdown ?? null)), a('pages', 'text', docs.map((d) => d.html ?? null)), a('pages', 'text', docs.map((d) => d.rawHtml ?? null)),
    a('pages', 'text', docs.map((d) => json(d.links))), a('pages', 'text', docs.map((d) => json(d.images))), a('pages', 'text', docs.map((d) => json(d.attributes))),
    a('pages', 'text', docs.map((d) => d.summary ?? null)), a('pages', 'text', docs.map((d) => JSON.stringify(d.metadata))), a('pages', 'text', docs.map((d) => json(d.extract))),
    a('pages', 'text', docs.map((d) => json(d.changeTracking))), a('pages', 'text', docs.map((d) => d.warning ?? null)), a('pages', 'int', docs.map((d) => d.statusCode ?? null)),
    a('links', 'int', links.map((l) => l.page)), a('links', 'text', links.map((l) => l.value.urlKey)), a('links', 'text', links.map((l) => l.value.url)),
    a('links', 'int', links.map((l) => l.value.depth)), a('links', 'int', links.map((l) => l.value.discoveryDepth)),
    a('skips', 'int', skips.map((k) => k.page)), a('skips', 'text', skips.map((k) => k.value)),
    a('blocked', 'int', blocked.map((b) => b.page)), a('blocked', 'text', blocked.map((b) => b.value)),
    a('failed', 'bigint', failed.map((o) => o.row.id)),
    a('failed', 'text', failed.map((o) => (o.kind === 'failed' ? o.error.slice(0, ERROR_MAX_CHARS) : ''))), a('failed', 'text', failed.map((o) => (o.kind === 'failed' ? o.code : ''))),
    a('requeued', 'bigint', requeued.map((o) => o.row.id)),
    a('requeued', 'timestamptz', requeued.map((o) => (o.kind === 'requeue' ? o.retryAt.toISOString() : ''))), a('requeued', 'text', requeued.map((o) => (o.kind === 'requeue' ? o.why : ''))),
  ];
}

const arrayArgs = (arrays: StoreArray[]) => Prisma.join(arrays.map((x) => Prisma.sql`${x.values}::${Prisma.raw(x.type)}[]`));

/** The call of crawl_store_batch for one crawl's outcomes, with the metering of the documents it inserts in the same statement. */
function storeStatement(crawlId: string, outcomes: PageOutcome[], ttlSeconds: number, left: number | undefined, known: KnownUrls | undefined): Prisma.Sql {
  const fresh = Prisma.sql`(SELECT (r->>'fresh')::int FROM r)`;
  return Prisma.sql`
    WITH r AS MATERIALIZED (SELECT crawl_store_batch(
      ${crawlId}, ${ttlSeconds}, ${MAX_CRAWL_LIMIT}, ${MAX_ROBOTS_BLOCKED}, ${left ?? null}::int, ${CREDITS_EXHAUSTED}, ${CREDITS_EXHAUSTED_ERROR},
      ${arrayArgs(storeArrays(crawlId, outcomes, known))}
    ) AS r),
    owner AS (SELECT k.account_id, k.id AS api_key_id, ${fresh} AS pages FROM job c JOIN api_key k ON k.id = c.api_key_id WHERE c.id = ${crawlId} AND ${fresh} > 0),
    ${meteringCtes}
    SELECT r FROM r`;
}

/**
 * The call of crawl_store_batches (prisma/migrations/20261128060000_store_several_crawls) for the
 * batches of several crawls, in the order given, with the metering of every crawl's documents.
 */
function severalStatement(batches: CrawlBatch[], ttlSeconds: number, known: KnownUrls | undefined): Prisma.Sql {
  const parts = batches.map((b) => storeArrays(b.crawlId, b.outcomes, known));
  const counts = ARRAY_GROUPS.map((group) => parts.map((arrays) => arrays.find((x) => x.group === group)!.values.length));
  const merged = parts[0].map((x, i) => ({ ...x, values: parts.flatMap((arrays) => arrays[i].values) }));
  const crawlIds = batches.map((b) => b.crawlId);
  return Prisma.sql`
    WITH r AS MATERIALIZED (SELECT crawl_store_batches(
      ${crawlIds}::text[], ${ttlSeconds}, ${MAX_CRAWL_LIMIT}, ${MAX_ROBOTS_BLOCKED}, ${CREDITS_EXHAUSTED}, ${CREDITS_EXHAUSTED_ERROR},
      ${Prisma.join(counts.map((c) => Prisma.sql`${c}::int[]`))},
      ${arrayArgs(merged)}
    ) AS out),
    per AS (SELECT j.id, (e.x->>'fresh')::int AS fresh FROM r CROSS JOIN LATERAL jsonb_array_elements(r.out) WITH ORDINALITY AS e(x, n)
      JOIN unnest(${crawlIds}::text[]) WITH ORDINALITY AS j(id, n) ON j.n = e.n),
    owner AS (SELECT k.account_id, k.id AS api_key_id, per.fresh AS pages FROM per JOIN job c ON c.id = per.id JOIN api_key k ON k.id = c.api_key_id WHERE per.fresh > 0),
    ${meteringCtes}
    SELECT out FROM r`;
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
/** The crawl's error when the account's credits ran out: its unpaid and queued URLs are dropped (counted as `credits_exhausted` skips). */
const CREDITS_EXHAUSTED_ERROR = "Stopped early: the account has no credits left. An admin can upgrade the plan on the dashboard's Billing page.";

/** One crawl's outcomes to store. */
export interface CrawlBatch {
  crawlId: string;
  outcomes: PageOutcome[];
}

/** `known`: the worker's URL keys known to be in the frontier; links to them are not sent, and it learns what this store proves. */
export async function storeBatch(prisma: PrismaClient, crawlId: string, outcomes: PageOutcome[], ttlSeconds: number, credits?: CreditCheck, known?: KnownUrls): Promise<BatchResult> {
  return (await storeBatches(prisma, [{ crawlId, outcomes }], ttlSeconds, credits, known))[0];
}

/**
 * The batches of several crawls (one each), in one statement when it can: crawls sorted by id, so
 * that two such statements lock crawls in the same order. With billing on, or with screenshots,
 * action results or change-tracking snapshots to write, each crawl is stored on its own.
 */
export async function storeBatches(prisma: PrismaClient, batches: CrawlBatch[], ttlSeconds: number, credits?: CreditCheck, known?: KnownUrls): Promise<BatchResult[]> {
  const started = performance.now();
  const results = new Map<string, StoreResult>();
  const work = batches.filter((b) => b.outcomes.length > 0).sort((a, b) => (a.crawlId < b.crawlId ? -1 : a.crawlId > b.crawlId ? 1 : 0));
  const extras = (b: CrawlBatch) => b.outcomes.some((o) => o.kind === 'stored' && (o.document.screenshot || o.document.actions || o.document.snapshot));
  if (work.length > 1 && !credits && !work.some(extras)) {
    const rows = await rawRows<{ out: StoreRow['r'][] }>(prisma, severalStatement(work, ttlSeconds, known), { prepared: true });
    work.forEach((b, i) => results.set(b.crawlId, readStore(rows[0]!.out[i]!)));
  } else {
    for (const b of work) results.set(b.crawlId, await storeOne(prisma, b, ttlSeconds, credits, known, extras(b)));
  }
  if (work.length) storeDuration.observe({ kind: 'crawl' }, since(started));
  return batches.map((b) => {
    const result = results.get(b.crawlId);
    if (!result || result.stopped) return { stored: [], admitted: 0, stopped: result?.stopped ?? false };
    if (result.fresh) creditsMetered.inc({ source: 'crawl' }, result.fresh);
    const pages = b.outcomes.filter((o): o is StoredOutcome => o.kind === 'stored');
    if (known) learn(known, b.crawlId, b.outcomes, pages, result);
    const urlKeys = new Map(pages.map((p) => [p.row.id.toString(), p.row.urlKey]));
    return { stored: result.stored.map((id) => ({ urlId: BigInt(id), documentId: documentIdFor(b.crawlId, urlKeys.get(id)!) })), admitted: result.admitted, stopped: false };
  });
}

async function storeOne(prisma: PrismaClient, { crawlId, outcomes }: CrawlBatch, ttlSeconds: number, credits: CreditCheck | undefined, known: KnownUrls | undefined, extras: boolean): Promise<StoreResult> {
  if (!credits && !extras) {
    // The common case: one statement, committed as it ends; the crawl's lock is held only while PostgreSQL
    // works. Sent by node-postgres (rawRows): through Prisma its arrays cost the lanes 3-4 times the CPU.
    return readStore((await rawRows<StoreRow>(prisma, storeStatement(crawlId, outcomes, ttlSeconds, undefined, known), { prepared: true }))[0]!.r);
  }
  // Credits are read with the crawl and the account locked (in that order, as everywhere); extras land with their documents.
  return prisma.$transaction(async (tx) => {
    const left = credits && (await lockCrawl(tx, crawlId)) ? await lockCrawlCredits(tx, crawlId, credits.freeCredits) : undefined;
    const stored = readStore((await tx.$queryRaw<StoreRow[]>(storeStatement(crawlId, outcomes, ttlSeconds, left, known)))[0]!.r);
    const ids = new Set(stored.stored);
    await documentExtras(tx, crawlId, outcomes.filter((o): o is StoredOutcome => o.kind === 'stored' && ids.has(o.row.id.toString())));
    return stored;
  });
}

/** What this store proved is in the frontier: its URLs, and the links of the pages it stored if none was left out. */
function learn(known: KnownUrls, crawlId: string, outcomes: PageOutcome[], pages: StoredOutcome[], result: StoreResult): void {
  known.learn(crawlId, outcomes.map((o) => o.row.urlKey));
  if (!result.linksAdmitted) return;
  const stored = new Set(result.stored);
  known.learn(crawlId, pages.filter((p) => stored.has(p.row.id.toString())).flatMap((p) => p.candidates.map((c) => c.urlKey)));
}

/** What crawl_store_batch answers: URL ids (as text) of the documents it inserted. */
interface StoreResult {
  stopped: boolean;
  stored: string[];
  admitted: number;
  fresh: number;
  /** Every link of the pages it stored is now in the frontier (none left out by the limit or the credits). */
  linksAdmitted: boolean;
}

type StoreRow = { r: Partial<Omit<StoreResult, 'linksAdmitted'>> & { links_admitted?: boolean } };

function readStore(r: StoreRow['r']): StoreResult {
  return { stopped: r.stopped === true, stored: r.stored ?? [], admitted: r.admitted ?? 0, fresh: r.fresh ?? 0, linksAdmitted: r.links_admitted === true };
}
