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

/** `run`, with the requests of one crawl that arrive while a call of it runs made together next. */
export function groupedPerCrawl<Req, Res>(run: (crawlId: string, requests: Req[]) => Promise<Res[]>): (crawlId: string, request: Req) => Promise<Res> {
  interface Waiting {
    request: Req;
    resolve: (result: Res) => void;
    reject: (err: unknown) => void;
  }
  /** Per crawl with a call running: the requests waiting for the next one. */
  const waiting = new Map<string, Waiting[]>();

  const runAlone = (crawlId: string, w: Waiting) => run(crawlId, [w.request]).then(([r]) => w.resolve(r), w.reject);

  async function runGroup(crawlId: string, group: Waiting[]): Promise<void> {
    if (group.length === 1) return runAlone(crawlId, group[0]);
    let results: Res[];
    try {
      results = await run(crawlId, group.map((w) => w.request));
    } catch {
      for (const w of group) await runAlone(crawlId, w);
      return;
    }
    group.forEach((w, i) => w.resolve(results[i]));
  }

  async function drain(crawlId: string, first: Waiting): Promise<void> {
    for (let group = [first]; group.length; ) {
      const next: Waiting[] = [];
      waiting.set(crawlId, next);
      await runGroup(crawlId, group);
      group = next;
    }
    waiting.delete(crawlId);
  }

  return (crawlId, request) =>
    new Promise<Res>((resolve, reject) => {
      const entry = { request, resolve, reject };
      const queue = waiting.get(crawlId);
      if (queue) queue.push(entry);
      else void drain(crawlId, entry);
    });
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
  interface Waiting {
    batch: CrawlBatch;
    resolve: (result: BatchResult) => void;
    reject: (err: unknown) => void;
  }
  let waiting: Waiting[] = [];
  /** Crawls with a store running. */
  const busy = new Set<string>();
  let running = 0;

  const runAlone = (w: Waiting) => store([w.batch]).then(([r]) => w.resolve(r), w.reject);

  async function runGroup(group: Waiting[]): Promise<void> {
    if (group.length === 1) return runAlone(group[0]);
    const byCrawl = new Map<string, PageOutcome[]>();
    for (const w of group) byCrawl.set(w.batch.crawlId, [...(byCrawl.get(w.batch.crawlId) ?? []), ...w.batch.outcomes]);
    const crawls = [...byCrawl.keys()];
    let results: BatchResult[];
    try {
      results = await store(crawls.map((crawlId) => ({ crawlId, outcomes: byCrawl.get(crawlId)! })));
    } catch {
      for (const w of group) await runAlone(w);
      return;
    }
    const byId = new Map(crawls.map((crawlId, i) => [crawlId, results[i]]));
    // Each lane hears of its own documents; links admitted and a stop concern the whole crawl.
    for (const w of group) {
      const result = byId.get(w.batch.crawlId)!;
      const mine = new Set(w.batch.outcomes.map((o) => o.row.id));
      w.resolve({ ...result, stored: result.stored.filter((s) => mine.has(s.urlId)) });
    }
  }

  function startNext(): void {
    while (running < atOnce) {
      const group = waiting.filter((w) => !busy.has(w.batch.crawlId));
      if (group.length === 0) return;
      waiting = waiting.filter((w) => busy.has(w.batch.crawlId));
      const crawls = new Set(group.map((w) => w.batch.crawlId));
      for (const crawlId of crawls) busy.add(crawlId);
      running++;
      void runGroup(group).finally(() => {
        running--;
        for (const crawlId of crawls) busy.delete(crawlId);
        startNext();
      });
    }
  }

  return (crawlId, outcomes) =>
    new Promise<BatchResult>((resolve, reject) => {
      waiting.push({ batch: { crawlId, outcomes }, resolve, reject });
      startNext();
    });
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
 * `claim`, with the claims of one crawl's lanes that arrive while one runs made together next. The
 * joint claim looks past the furthest lane's last claim, or from the queue's head if any lane claims
 * from there (a lane run's first claim: URLs put back in the queue are found that way).
 */
export function groupedClaims(claim: ClaimForFn): (crawlId: string, request: ClaimRequest) => Promise<ClaimedUrl[]> {
  return groupedPerCrawl<ClaimRequest, ClaimedUrl[]>(async (crawlId, requests) => {
    const owners = requests.flatMap((r) => Array<string>(r.max).fill(r.token));
    const after = requests.some((r) => r.after === 0n) ? 0n : requests.reduce((a, r) => (r.after > a ? r.after : a), 0n);
    const rows = await claim(crawlId, owners, after);
    return requests.map((r) => rows.filter((row) => row.owner === r.token).map(({ owner: _, ...url }) => url));
  });
}
