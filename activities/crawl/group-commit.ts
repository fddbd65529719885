/**
 * Group commit on one worker (README "Page lanes"): while a store (or a claim) of a crawl is running,
 * the batches (claims) its other lanes on this worker bring wait, and go in together as ONE
 * statement when it ends. Every store of a crawl holds the crawl's row lock, so lanes storing apart
 * would queue on that lock anyway; together they take one lock, one admission and one statement
 * (bench:frontier). Stores of different crawls go together too once STORES_AT_ONCE of the worker's
 * run: one statement and one transaction for several crawls (a worker holding one lane of each of
 * many crawls would otherwise send a small statement per lane). A claim costs PostgreSQL a fixed part
 * and then a part per URL, and the lanes whose joint store just ended all claim at once. A lane waits
 * no longer than it would for the lock, and an uncontended call runs at once.
 *
 * If a joint call fails, each request in it runs again on its own (the failed transaction was rolled
 * back whole), so a page PostgreSQL refuses fails only its own lane.
 */
import type { ClaimedUrl, OwnedUrl } from './frontier.js';
import type { BatchResult, CrawlBatch, PageOutcome } from './store.js';

/** A request and the crawl it is for. */
interface ForCrawl<Req> {
  crawlId: string;
  request: Req;
}

/**
 * `run`, with the requests that arrive while a call for their crawl runs, or while `atOnce` calls
 * run, made together next, in the order they came: a crawl has one call running at a time. With no
 * limit on calls, a joint call is of one crawl. If a joint call fails, each request in it runs again
 * on its own.
 */
function grouped<Req, Res>(run: (requests: ForCrawl<Req>[]) => Promise<Res[]>, atOnce: number): (crawlId: string, request: Req) => Promise<Res> {
  interface Waiting extends ForCrawl<Req> {
    resolve: (result: Res) => void;
    reject: (err: unknown) => void;
  }
  let waiting: Waiting[] = [];
  /** Crawls with a call running. */
  const busy = new Set<string>();
  let running = 0;

  const runAlone = (w: Waiting) => run([w]).then(([r]) => w.resolve(r), w.reject);

  async function runGroup(group: Waiting[]): Promise<void> {
    if (group.length === 1) return runAlone(group[0]);
    let results: Res[];
    try {
      results = await run(group);
    } catch {
      for (const w of group) await runAlone(w);
      return;
    }
    group.forEach((w, i) => w.resolve(results[i]));
  }

  function startNext(): void {
    while (running < atOnce) {
      const group = waiting.filter((w) => !busy.has(w.crawlId));
      if (group.length === 0) return;
      waiting = waiting.filter((w) => busy.has(w.crawlId));
      const crawls = new Set(group.map((w) => w.crawlId));
      for (const crawlId of crawls) busy.add(crawlId);
      running++;
      void runGroup(group).finally(() => {
        running--;
        for (const crawlId of crawls) busy.delete(crawlId);
        startNext();
      });
    }
  }

  return (crawlId, request) =>
    new Promise<Res>((resolve, reject) => {
      waiting.push({ crawlId, request, resolve, reject });
      startNext();
    });
}

/** The requests by crawl, in the order each crawl first came. */
function byCrawl<Req>(requests: ForCrawl<Req>[]): Map<string, Req[]> {
  const out = new Map<string, Req[]>();
  for (const r of requests) out.set(r.crawlId, [...(out.get(r.crawlId) ?? []), r.request]);
  return out;
}

export type StoreFn = (crawlId: string, outcomes: PageOutcome[]) => Promise<BatchResult>;
/** Stores one batch per crawl (crawls distinct), answering in the same order: storeBatches. */
export type StoresFn = (batches: CrawlBatch[]) => Promise<BatchResult[]>;

/**
 * A worker's stores running at once, at most. Batches that arrive while that many run wait and go
 * in together next, several crawls' in one statement; a crawl has one store running at a time.
 * One store per worker at a time would leave a worker with lanes of two crawls a single stream of
 * statements, one of PostgreSQL's cores (bench:frontier).
 */
export const STORES_AT_ONCE = 2;

/**
 * `store`, with the batches that arrive while STORES_AT_ONCE stores (or one of the same crawl's)
 * run stored together next: those of one crawl as one batch, those of several crawls in one
 * statement (storeBatches, which locks their crawls in order of id).
 */
export function groupedStores(store: StoresFn, atOnce = STORES_AT_ONCE): StoreFn {
  return grouped<PageOutcome[], BatchResult>(async (requests) => {
    const batches = [...byCrawl(requests)].map(([crawlId, outcomes]) => ({ crawlId, outcomes: outcomes.flat() }));
    const results = await store(batches);
    const byId = new Map(batches.map((b, i) => [b.crawlId, results[i]]));
    // Each lane hears of its own documents; links admitted and a stop concern the whole crawl.
    return requests.map(({ crawlId, request }) => {
      const result = byId.get(crawlId)!;
      const mine = new Set(request.map((o) => o.row.id));
      return { ...result, stored: result.stored.filter((s) => mine.has(s.urlId)) };
    });
  }, atOnce);
}

/** A lane's claim: up to `max` URLs for its lane run `token`, past `after` first (claimBatch). */
export interface ClaimRequest {
  token: string;
  max: number;
  after: bigint;
}

/** Claims URLs for `owners` (one lane-run token per URL wanted): `claimFor`. */
export type ClaimForFn = (crawlId: string, owners: string[], after: bigint) => Promise<OwnedUrl[]>;

/**
 * `claim`, with the claims of one crawl's lanes that arrive while one runs made together next (claims
 * of different crawls run at once, apart). The joint claim looks past the furthest lane's last claim,
 * or from the queue's head if any lane claims from there (a lane run's first claim: URLs put back in
 * the queue are found that way).
 */
export function groupedClaims(claim: ClaimForFn): (crawlId: string, request: ClaimRequest) => Promise<ClaimedUrl[]> {
  return grouped<ClaimRequest, ClaimedUrl[]>(async (requests) => {
    const answers = new Map<ClaimRequest, ClaimedUrl[]>();
    await Promise.all(
      [...byCrawl(requests)].map(async ([crawlId, claims]) => {
        const owners = claims.flatMap((r) => Array<string>(r.max).fill(r.token));
        const after = claims.some((r) => r.after === 0n) ? 0n : claims.reduce((a, r) => (r.after > a ? r.after : a), 0n);
        const rows = await claim(crawlId, owners, after);
        for (const r of claims) answers.set(r, rows.filter((row) => row.owner === r.token).map(({ owner: _, ...url }) => url));
      }),
    );
    return requests.map((r) => answers.get(r.request)!);
  }, Infinity);
}
