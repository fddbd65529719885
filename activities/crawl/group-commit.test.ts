import { describe, expect, it } from 'vitest';
import type { BatchResult, CrawlBatch, PageOutcome } from './store.js';
import type { OwnedUrl } from './frontier.js';
import { groupedClaims, groupedStores, STORES_AT_ONCE } from './group-commit.js';

/** A stored page's outcome for URL id `id` (only the row's id matters to the queue). */
const page = (id: number): PageOutcome => ({
  kind: 'stored',
  row: { id: BigInt(id), url: `http://site.test/${id}`, urlKey: `site.test/${id}`, depth: 0, discoveryDepth: 0, attempts: 1, throttles: 0 },
  document: { url: `http://site.test/${id}`, urlKey: `site.test/${id}`, metadata: { sourceURL: `http://site.test/${id}`, url: `http://site.test/${id}`, statusCode: 200 } },
  candidates: [],
  skips: [],
  robotsBlocked: [],
});

/**
 * A store of several crawls' batches that records each call (per crawl: its URL ids) and finishes only
 * when told, storing every page and admitting one link per page; a call whose pages include `refuse` fails.
 */
function heldStore(refuse?: number) {
  const calls: Array<Array<{ crawlId: string; ids: number[] }>> = [];
  const release: Array<() => void> = [];
  const store = (batches: CrawlBatch[]) => {
    const call = batches.map((b) => ({ crawlId: b.crawlId, ids: b.outcomes.map((o) => Number(o.row.id)) }));
    calls.push(call);
    return new Promise<BatchResult[]>((resolve, reject) => {
      release.push(() => {
        if (refuse !== undefined && call.some((c) => c.ids.includes(refuse))) reject(new Error(`page ${refuse} refused`));
        else resolve(call.map(({ crawlId, ids }) => ({ stored: ids.map((id) => ({ urlId: BigInt(id), documentId: `${crawlId}:${id}` })), admitted: ids.length, stopped: false })));
      });
    });
  };
  /** Lets the oldest running store finish, then lets the queue start the next one. */
  const finishNext = async () => {
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { store, calls, finishNext };
}

const ids = (r: BatchResult) => r.stored.map((s) => Number(s.urlId));

describe('groupedStores', () => {
  it('stores a batch at once when no store of its crawl is running', async () => {
    const { store, calls, finishNext } = heldStore();
    const grouped = groupedStores(store);
    const done = grouped('c1', [page(1), page(2)]);
    expect(calls).toEqual([[{ crawlId: 'c1', ids: [1, 2] }]]);
    await finishNext();
    expect(await done).toEqual({ stored: [{ urlId: 1n, documentId: 'c1:1' }, { urlId: 2n, documentId: 'c1:2' }], admitted: 2, stopped: false });
  });

  it('stores the batches that arrive while a store of the crawl runs together, and gives each lane its own documents', async () => {
    const { store, calls, finishNext } = heldStore();
    const grouped = groupedStores(store);
    const first = grouped('c1', [page(1)]);
    const second = grouped('c1', [page(2), page(3)]);
    const third = grouped('c1', [page(4)]);
    expect(calls).toHaveLength(1);
    await finishNext();
    expect(calls).toEqual([[{ crawlId: 'c1', ids: [1] }], [{ crawlId: 'c1', ids: [2, 3, 4] }]]);
    expect(ids(await first)).toEqual([1]);
    await finishNext();
    const [b, c] = await Promise.all([second, third]);
    expect(ids(b)).toEqual([2, 3]);
    expect(ids(c)).toEqual([4]);
    // Links admitted are the joint store's: each lane hears that the frontier grew.
    expect([b.admitted, c.admitted]).toEqual([3, 3]);
    // Once the queue is empty, the next batch is stored at once again.
    const fourth = grouped('c1', [page(5)]);
    expect(calls).toHaveLength(3);
    await finishNext();
    expect(ids(await fourth)).toEqual([5]);
  });

  it(`runs up to ${STORES_AT_ONCE} stores of different crawls at once, then stores the crawls that wait in one call`, async () => {
    const { store, calls, finishNext } = heldStore();
    const grouped = groupedStores(store);
    const a = grouped('c1', [page(1)]);
    const b = grouped('c2', [page(2)]);
    const c = grouped('c3', [page(3)]);
    const d = grouped('c1', [page(4)]);
    const e = grouped('c3', [page(5)]);
    expect(calls).toEqual([[{ crawlId: 'c1', ids: [1] }], [{ crawlId: 'c2', ids: [2] }]]);
    await finishNext();
    // c1's store ended: c3's two batches and c1's next go in together, one call for both crawls.
    expect(calls[2]).toEqual([{ crawlId: 'c3', ids: [3, 5] }, { crawlId: 'c1', ids: [4] }]);
    expect(ids(await a)).toEqual([1]);
    await finishNext();
    await finishNext();
    expect((await Promise.all([b, c, d, e])).map(ids)).toEqual([[2], [3], [4], [5]]);
    expect(calls).toHaveLength(3);
  });

  it('stores each batch of a failed joint store on its own, so only the refused page\'s lane fails', async () => {
    const { store, calls, finishNext } = heldStore(3);
    const grouped = groupedStores(store, 1);
    const first = grouped('c1', [page(1)]);
    const good = grouped('c2', [page(2)]);
    const bad = grouped('c1', [page(3), page(4)]);
    const badSettled = bad.then(
      () => 'stored',
      (err: Error) => err.message,
    );
    await finishNext();
    expect(ids(await first)).toEqual([1]);
    await finishNext(); // the joint store of c2 [2] and c1 [3, 4] fails
    expect(calls.map((c) => c.map((b) => b.ids))).toEqual([[[1]], [[2], [3, 4]], [[2]]]);
    await finishNext();
    expect(ids(await good)).toEqual([2]);
    expect(calls.map((c) => c.map((b) => b.ids))).toEqual([[[1]], [[2], [3, 4]], [[2]], [[3, 4]]]);
    await finishNext();
    expect(await badSettled).toBe('page 3 refused');
  });
});

describe('groupedClaims', () => {
  /** A claim of ids from 1 up, past `after`, that records each call and finishes only when told. */
  function heldClaims(available: number) {
    const calls: { crawlId: string; owners: string[]; after: bigint }[] = [];
    const release: Array<() => void> = [];
    let next = 1;
    const claim = (crawlId: string, owners: string[], after: bigint) => {
      calls.push({ crawlId, owners, after });
      return new Promise<OwnedUrl[]>((resolve) => {
        release.push(() => {
          const out: OwnedUrl[] = [];
          for (const owner of owners) if (next <= available) out.push({ ...page(next++).row, owner });
          resolve(out);
        });
      });
    };
    const finishNext = async () => {
      release.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { claim, calls, finishNext };
  }
  const urlIds = (urls: { id: bigint }[]) => urls.map((u) => Number(u.id));

  it('claims at once when no claim of the crawl runs, and together for the lanes that ask meanwhile', async () => {
    const { claim, calls, finishNext } = heldClaims(100);
    const grouped = groupedClaims(claim);
    const a = grouped('c1', { token: 'a', max: 2, after: 0n });
    const b = grouped('c1', { token: 'b', max: 3, after: 40n });
    const c = grouped('c1', { token: 'c', max: 1, after: 70n });
    const other = grouped('c2', { token: 'd', max: 1, after: 5n });
    expect(calls).toEqual([{ crawlId: 'c1', owners: ['a', 'a'], after: 0n }, { crawlId: 'c2', owners: ['d'], after: 5n }]);
    await finishNext();
    expect(urlIds(await a)).toEqual([1, 2]);
    // The lanes that asked while it ran claim together, past the furthest lane's last claim.
    expect(calls[2]).toEqual({ crawlId: 'c1', owners: ['b', 'b', 'b', 'c'], after: 70n });
    await finishNext();
    expect(urlIds(await other)).toEqual([3]);
    await finishNext();
    const [gotB, gotC] = await Promise.all([b, c]);
    expect(urlIds(gotB)).toEqual([4, 5, 6]);
    expect(urlIds(gotC)).toEqual([7]);
    expect(gotB[0]).not.toHaveProperty('owner');
  });

  it('claims from the head when any lane in the group does, and shares out what a short queue has', async () => {
    const { claim, calls, finishNext } = heldClaims(3);
    const grouped = groupedClaims(claim);
    const first = grouped('c1', { token: 'a', max: 1, after: 9n });
    const b = grouped('c1', { token: 'b', max: 2, after: 30n });
    const c = grouped('c1', { token: 'c', max: 2, after: 0n });
    await finishNext();
    expect(urlIds(await first)).toEqual([1]);
    expect(calls[1]).toEqual({ crawlId: 'c1', owners: ['b', 'b', 'c', 'c'], after: 0n });
    await finishNext();
    expect(urlIds(await b)).toEqual([2, 3]);
    expect(await c).toEqual([]);
  });
});
