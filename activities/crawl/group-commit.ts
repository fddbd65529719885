/**
 * Group commit of a crawl's lanes on one worker (README "Page lanes"): while a store (or a claim) of
 * a crawl is running, the batches (claims) its other lanes on this worker bring wait, and go in
 * together as ONE statement when it ends. Every store of a crawl holds the crawl's row lock, so lanes
 * storing apart would queue on that lock anyway; together they take one lock, one admission and one
 * statement (bench:frontier). A claim costs PostgreSQL a fixed part and then a part per URL, and the
 * lanes whose joint store just ended all claim at once. A lane waits no longer than it would for the
 * lock, and an uncontended call runs at once.
 *
 * If a joint call fails, each request in it runs again on its own (the failed transaction was rolled
 * back whole), so a page PostgreSQL refuses fails only its own lane.
 */
import type { ClaimedUrl, OwnedUrl } from './frontier.js';
import type { BatchResult, PageOutcome } from './store.js';

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

/** `store`, with the batches of one crawl that arrive while it runs stored together next. */
export function groupedStores(store: StoreFn): StoreFn {
  return groupedPerCrawl<PageOutcome[], BatchResult>(async (crawlId, batches) => {
    if (batches.length === 1) return [await store(crawlId, batches[0])];
    const result = await store(crawlId, batches.flat());
    // Each lane hears of its own documents; links admitted and a stop concern the whole crawl.
    return batches.map((batch) => {
      const mine = new Set(batch.map((o) => o.row.id));
      return { ...result, stored: result.stored.filter((s) => mine.has(s.urlId)) };
    });
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
