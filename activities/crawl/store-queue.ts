/**
 * Group commit of a crawl's batches on one worker (README "Page lanes"): while a store of a crawl is
 * running, the batches its other lanes on this worker finish wait, and go in together as ONE
 * transaction when it ends. Every store of a crawl holds the crawl's row lock, so lanes storing apart
 * would queue on that lock anyway; together they take one lock, one admission and one statement
 * (bench:frontier). A lane waits no longer than it would for the lock, and an uncontended batch is
 * stored at once.
 *
 * If a joint store fails, each batch in it is stored again on its own (the failed transaction was
 * rolled back whole), so a page PostgreSQL refuses fails only its own lane.
 */
import type { BatchResult, PageOutcome } from './store.js';

export type StoreFn = (crawlId: string, outcomes: PageOutcome[]) => Promise<BatchResult>;

interface Waiting {
  outcomes: PageOutcome[];
  resolve: (result: BatchResult) => void;
  reject: (err: unknown) => void;
}

/** `store`, with the batches of one crawl that arrive while it runs stored together next. */
export function groupedStores(store: StoreFn): StoreFn {
  /** Per crawl with a store running: the batches waiting for the next one. */
  const waiting = new Map<string, Waiting[]>();

  const storeAlone = (crawlId: string, w: Waiting) => store(crawlId, w.outcomes).then(w.resolve, w.reject);

  async function storeGroup(crawlId: string, group: Waiting[]): Promise<void> {
    if (group.length === 1) return storeAlone(crawlId, group[0]);
    let result: BatchResult;
    try {
      result = await store(crawlId, group.flatMap((w) => w.outcomes));
    } catch {
      for (const w of group) await storeAlone(crawlId, w);
      return;
    }
    // Each lane hears of its own documents; links admitted and a stop concern the whole crawl.
    for (const w of group) {
      const mine = new Set(w.outcomes.map((o) => o.row.id));
      w.resolve({ ...result, stored: result.stored.filter((s) => mine.has(s.urlId)) });
    }
  }

  async function run(crawlId: string, first: Waiting): Promise<void> {
    for (let group = [first]; group.length; ) {
      const next: Waiting[] = [];
      waiting.set(crawlId, next);
      await storeGroup(crawlId, group);
      group = next;
    }
    waiting.delete(crawlId);
  }

  return (crawlId, outcomes) =>
    new Promise<BatchResult>((resolve, reject) => {
      const entry = { outcomes, resolve, reject };
      const queue = waiting.get(crawlId);
      if (queue) queue.push(entry);
      else void run(crawlId, entry);
    });
}
