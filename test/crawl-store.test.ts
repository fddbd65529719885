/**
 * The crawl's batch store (activities/crawl/store.ts, crawl_store_batch in PostgreSQL) on the test
 * PostgreSQL, outcome by outcome: documents with gap-free sequences, links admitted once within the
 * exact limit, skips counted, URLs settled once, failed and requeued URLs, a stopped crawl; and the
 * lanes' claims, which look past the lane run's last claim first and start from the head at the
 * crawl's queue floor.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { storeBatch, storeBatches, type PageOutcome } from '../activities/crawl/store.js';
import { KnownUrls } from '../activities/crawl/known-urls.js';
import { claimBatch, claimFor, requeueClaimed, type Candidate, type ClaimedUrl } from '../activities/crawl/frontier.js';
import { createJobRow } from '../jobs/rows.js';
import { createPrisma } from '../prisma/client.js';
import { usageAccount } from './helpers/usage.js';

const prisma = createPrisma(inject('databaseUrl'));
afterAll(() => prisma.$disconnect());

const ORIGIN = 'http://store.test';
const key = (path: string) => `store.test${path}`;
const candidate = (path: string, spelling = path): Candidate => ({ url: `${ORIGIN}${spelling}`, urlKey: key(path), depth: 1, discoveryDepth: 1 });

/** A running crawl (limit `limit`) whose frontier holds `paths`, all claimed (or all `status`). */
async function crawlWith(paths: string[], limit: number, status = 'claimed', apiKeyId: string | null = null): Promise<{ id: string; rows: Map<string, ClaimedUrl> }> {
  const id = randomUUID();
  await prisma.$transaction((tx) =>
    createJobRow(tx, { id, kind: 'crawl', seed: new URL(`${ORIGIN}/`), options: { url: `${ORIGIN}/`, limit }, apiKeyId, payer: apiKeyId ? null : 'crawl-store-test', ttlSeconds: 3600 }),
  );
  await prisma.$executeRaw`
    INSERT INTO job_url (job_id, url_key, url, depth, discovery_depth, status, attempts)
    SELECT ${id}, k, u, 0, 0, ${status}, ${status === 'claimed' ? 1 : 0} FROM unnest(${paths.map(key)}::text[], ${paths.map((p) => `${ORIGIN}${p}`)}::text[]) AS t(k, u)`;
  await prisma.$executeRaw`UPDATE job SET total = ${paths.length}, discovery_done = true WHERE id = ${id}`;
  const found = await prisma.jobUrl.findMany({ where: { jobId: id } });
  const rows = new Map(found.map((r) => [r.urlKey, { id: r.id, url: r.url, urlKey: r.urlKey, depth: r.depth, discoveryDepth: r.discoveryDepth, attempts: r.attempts, throttles: r.throttles }]));
  return { id, rows };
}

function stored(row: ClaimedUrl, candidates: Candidate[] = [], skips: string[] = [], robotsBlocked: string[] = []): PageOutcome {
  return { kind: 'stored', row, document: { url: row.url, urlKey: row.urlKey, markdown: `# ${row.url}`, metadata: { sourceURL: row.url, statusCode: 200 }, statusCode: 200 }, candidates, skips, robotsBlocked };
}

const row = (crawl: { rows: Map<string, ClaimedUrl> }, path: string) => crawl.rows.get(key(path))!;
const job = (id: string) => prisma.job.findUniqueOrThrow({ where: { id } });
const urls = async (id: string) => Object.fromEntries((await prisma.jobUrl.findMany({ where: { jobId: id }, orderBy: { id: 'asc' } })).map((u) => [u.urlKey, u]));

describe('crawl batch store', () => {
  it('stores documents in gap-free order, admits each new link once (first spelling) and counts skips', async () => {
    const crawl = await crawlWith(['/', '/a', '/b'], 100);
    const first = await storeBatch(prisma, crawl.id, [
      stored(row(crawl, '/'), [candidate('/a'), candidate('/c', '/c?utm=1'), candidate('/c'), candidate('/d')], ['external', 'external'], [`${ORIGIN}/private`]),
      stored(row(crawl, '/a'), [candidate('/d'), candidate('/e')], ['robots_blocked'], [`${ORIGIN}/private`, `${ORIGIN}/secret`]),
    ], 3600);
    expect(first).toMatchObject({ stopped: false, admitted: 3 });
    expect(first.stored.map((s) => s.documentId)).toEqual([`${crawl.id}:${key('/')}`, `${crawl.id}:${key('/a')}`]);
    const second = await storeBatch(prisma, crawl.id, [stored(row(crawl, '/b'), [candidate('/e'), candidate('/f')])], 3600);
    expect(second.admitted).toBe(1);

    const docs = await prisma.document.findMany({ where: { jobId: crawl.id }, orderBy: { sequence: 'asc' } });
    expect(docs.map((d) => [d.sequence, d.urlKey])).toEqual([[0, key('/')], [1, key('/a')], [2, key('/b')]]);
    const after = await job(crawl.id);
    expect(after).toMatchObject({ total: 7, completed: 3, failed: 0, nextSequence: 3, creditsUsed: 3 });
    expect(after.skipped).toEqual({ external: 2, robots_blocked: 1 });
    expect(after.robotsBlocked).toEqual([`${ORIGIN}/private`, `${ORIGIN}/secret`]);
    const frontier = await urls(crawl.id);
    expect(frontier[key('/c')]).toMatchObject({ url: `${ORIGIN}/c?utm=1`, status: 'queued' });
    expect(Object.values(frontier).map((u) => u.status).sort()).toEqual(['done', 'done', 'done', 'queued', 'queued', 'queued', 'queued']);
  });

  it('admits no more than the limit and counts the rest as limit_reached', async () => {
    const crawl = await crawlWith(['/', '/a'], 4);
    const result = await storeBatch(prisma, crawl.id, [stored(row(crawl, '/'), [candidate('/a'), candidate('/x'), candidate('/y'), candidate('/z')])], 3600);
    expect(result.admitted).toBe(2);
    const after = await job(crawl.id);
    expect(after).toMatchObject({ total: 4, completed: 1 });
    expect(after.skipped).toEqual({ limit_reached: 1 });
    expect(Object.keys(await urls(crawl.id))).toEqual([key('/'), key('/a'), key('/x'), key('/y')]);
  });

  it("with a worker's known URL keys: admits and counts exactly what it admits without, and learns only what a store proved", async () => {
    const plain = await crawlWith(['/', '/a', '/b', '/c'], 6);
    const cached = await crawlWith(['/', '/a', '/b', '/c'], 6);
    const known = new KnownUrls();
    const batches = (crawl: typeof plain) => [
      [stored(row(crawl, '/'), [candidate('/a'), candidate('/x'), candidate('/b')], ['external'])],
      [stored(row(crawl, '/a'), [candidate('/'), candidate('/x'), candidate('/y')])],
      // The limit (6) leaves /z2 out: this store proves nothing about its links.
      [stored(row(crawl, '/b'), [candidate('/x'), candidate('/z1'), candidate('/z2')])],
      [stored(row(crawl, '/c'), [candidate('/y'), candidate('/z2')])],
    ];
    const results: Array<Array<{ admitted: number }>> = [[], []];
    for (const [i, batch] of batches(plain).entries()) {
      results[0].push(await storeBatch(prisma, plain.id, batch, 3600));
      results[1].push(await storeBatch(prisma, cached.id, batches(cached)[i], 3600, undefined, known));
    }
    expect(results[1].map((r) => r.admitted)).toEqual(results[0].map((r) => r.admitted));
    expect(results[0].map((r) => r.admitted)).toEqual([1, 1, 0, 0]);
    const frontier = async (id: string) => Object.values(await urls(id)).map((u) => [u.urlKey, u.status]);
    expect(await frontier(cached.id)).toEqual(await frontier(plain.id));
    const [a, b] = [await job(plain.id), await job(cached.id)];
    expect(b).toMatchObject({ total: a.total, completed: a.completed, skipped: a.skipped });
    expect(a).toMatchObject({ total: 6, completed: 4, skipped: { external: 1, limit_reached: 3 } });
    // Learnt: the batches' URLs and the links of stores that left nothing out; not the links of those that did.
    for (const path of ['/', '/a', '/b', '/c', '/x', '/y']) expect(known.has(cached.id, key(path))).toBe(true);
    for (const path of ['/z1', '/z2']) expect(known.has(cached.id, key(path))).toBe(false);
    expect(known.has(plain.id, key('/a'))).toBe(false);
  });

  it('does not send links to URL keys the worker knows: they are not admitted again', async () => {
    const crawl = await crawlWith(['/'], 100);
    const known = new KnownUrls();
    // Known, wrongly here, to show the link never reaches PostgreSQL.
    known.learn(crawl.id, [key('/ghost')]);
    const result = await storeBatch(prisma, crawl.id, [stored(row(crawl, '/'), [candidate('/ghost'), candidate('/new')])], 3600, undefined, known);
    expect(result.admitted).toBe(1);
    expect(Object.keys(await urls(crawl.id))).toEqual([key('/'), key('/new')]);
  });

  it('leaves a URL another attempt settled alone: nothing is stored or counted twice', async () => {
    const crawl = await crawlWith(['/', '/a'], 100);
    const batch = [stored(row(crawl, '/'), [candidate('/n')], ['external']), stored(row(crawl, '/a'))];
    expect((await storeBatch(prisma, crawl.id, batch, 3600)).stored).toHaveLength(2);
    const again = await storeBatch(prisma, crawl.id, batch, 3600);
    expect(again).toEqual({ stored: [], admitted: 0, stopped: false });
    expect(await prisma.document.count({ where: { jobId: crawl.id } })).toBe(2);
    const after = await job(crawl.id);
    expect(after).toMatchObject({ total: 3, completed: 2, nextSequence: 2, creditsUsed: 2 });
    expect(after.skipped).toEqual({ external: 1 });
  });

  it('settles an open URL whose document exists without storing, counting or billing it again', async () => {
    const crawl = await crawlWith(['/', '/a'], 100);
    expect((await storeBatch(prisma, crawl.id, [stored(row(crawl, '/'))], 3600)).stored).toHaveLength(1);
    await prisma.jobUrl.update({ where: { id: row(crawl, '/').id }, data: { status: 'claimed' } });
    const again = await storeBatch(prisma, crawl.id, [stored(row(crawl, '/')), stored(row(crawl, '/a'))], 3600);
    expect(again.stored.map((s) => s.documentId)).toEqual([`${crawl.id}:${key('/a')}`]);
    expect(await prisma.document.count({ where: { jobId: crawl.id } })).toBe(2);
    expect(await job(crawl.id)).toMatchObject({ completed: 2, nextSequence: 2, creditsUsed: 2 });
    expect((await urls(crawl.id))[key('/')].status).toBe('done');
  });

  it('settles failed URLs with their error and requeued ones by why they came back', async () => {
    const crawl = await crawlWith(['/', '/f', '/t', '/h', '/p'], 100);
    const retryAt = new Date(Date.now() + 60_000);
    await storeBatch(prisma, crawl.id, [
      stored(row(crawl, '/')),
      { kind: 'failed', row: row(crawl, '/f'), code: 'fetch_failed', error: 'connection refused' },
      { kind: 'requeue', row: row(crawl, '/t'), retryAt, why: 'tried', error: '500' },
      { kind: 'requeue', row: row(crawl, '/h'), retryAt, why: 'throttled', error: '429' },
      { kind: 'requeue', row: row(crawl, '/p'), retryAt, why: 'not_tried', error: 'paused' },
    ], 3600);
    const frontier = await urls(crawl.id);
    expect(frontier[key('/f')]).toMatchObject({ status: 'failed', errorCode: 'fetch_failed', error: 'connection refused', attempts: 1 });
    expect(frontier[key('/t')]).toMatchObject({ status: 'queued', claimedBy: null, retryAt, attempts: 1, throttles: 0 });
    expect(frontier[key('/h')]).toMatchObject({ status: 'queued', retryAt, attempts: 0, throttles: 1 });
    expect(frontier[key('/p')]).toMatchObject({ status: 'queued', retryAt, attempts: 0, throttles: 0 });
    expect(await job(crawl.id)).toMatchObject({ completed: 2, failed: 1, nextSequence: 1 });
  });

  it('stores nothing for a crawl that no longer runs, and drops its URLs', async () => {
    const crawl = await crawlWith(['/', '/a'], 100);
    await prisma.job.update({ where: { id: crawl.id }, data: { status: 'cancelled' } });
    const result = await storeBatch(prisma, crawl.id, [stored(row(crawl, '/'), [candidate('/n')]), stored(row(crawl, '/a'))], 3600);
    expect(result).toEqual({ stored: [], admitted: 0, stopped: true });
    expect(await prisma.document.count({ where: { jobId: crawl.id } })).toBe(0);
    expect(Object.values(await urls(crawl.id)).map((u) => u.status)).toEqual(['dropped', 'dropped']);
    expect(await job(crawl.id)).toMatchObject({ total: 2, completed: 0 });
  });

  it("stores several crawls' batches in one transaction, each as on its own, metered per account and key", async () => {
    const a = await usageAccount(prisma, 2);
    const b = await usageAccount(prisma, 1);
    const c1 = await crawlWith(['/', '/a'], 100, 'claimed', a.keys[0].id);
    const c2 = await crawlWith(['/', '/a'], 100, 'claimed', a.keys[1].id);
    const c3 = await crawlWith(['/', '/a'], 100, 'claimed', b.keys[0].id);
    const gone = await crawlWith(['/'], 100, 'claimed', a.keys[0].id);
    await prisma.job.update({ where: { id: gone.id }, data: { status: 'cancelled' } });
    const results = await storeBatches(prisma, [
      { crawlId: c3.id, outcomes: [stored(row(c3, '/'), [candidate('/n')]), stored(row(c3, '/a'))] },
      { crawlId: gone.id, outcomes: [stored(row(gone, '/'))] },
      { crawlId: c1.id, outcomes: [stored(row(c1, '/'), [candidate('/a'), candidate('/x'), candidate('/y')], ['external'])] },
      { crawlId: c2.id, outcomes: [stored(row(c2, '/')), { kind: 'failed', row: row(c2, '/a'), error: 'HTTP 500', code: 'http_error' }] },
      { crawlId: randomUUID(), outcomes: [] },
    ], 3600);
    // Answers in the order asked, whatever order the crawls were locked in.
    expect(results.map((r) => [r.stopped, r.admitted, r.stored.length])).toEqual([[false, 1, 2], [true, 0, 0], [false, 2, 1], [false, 0, 1], [false, 0, 0]]);
    expect(results[0].stored.map((s) => s.documentId)).toEqual([`${c3.id}:${key('/')}`, `${c3.id}:${key('/a')}`]);
    expect(await job(c1.id)).toMatchObject({ total: 4, completed: 1, failed: 0, nextSequence: 1, creditsUsed: 1, skipped: { external: 1 } });
    expect(await job(c2.id)).toMatchObject({ total: 2, completed: 2, failed: 1, nextSequence: 1, creditsUsed: 1 });
    expect(await job(c3.id)).toMatchObject({ total: 3, completed: 2, nextSequence: 2, creditsUsed: 2 });
    expect(await job(gone.id)).toMatchObject({ completed: 0, creditsUsed: 0 });
    expect((await urls(gone.id))[key('/')]).toMatchObject({ status: 'dropped' });
    expect((await urls(c2.id))[key('/a')]).toMatchObject({ status: 'failed', error: 'HTTP 500', errorCode: 'http_error' });
    // One transaction: every document carries the same inserting transaction id.
    const xids = await prisma.$queryRaw<{ xid: string }[]>`SELECT DISTINCT xmin::text AS xid FROM document WHERE job_id IN (${c1.id}, ${c2.id}, ${c3.id})`;
    expect(xids).toHaveLength(1);
    // Metered once per page, summed per account and per key.
    const day = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const accountPages = async (accountId: string) => (await prisma.usageDay.findUniqueOrThrow({ where: { accountId_day: { accountId, day } } })).pages;
    const keyPages = async (apiKeyId: string) => (await prisma.usageKeyDay.findUniqueOrThrow({ where: { apiKeyId_day: { apiKeyId, day } } })).pages;
    expect([await accountPages(a.accountId), await accountPages(b.accountId)]).toEqual([2, 2]);
    expect([await keyPages(a.keys[0].id), await keyPages(a.keys[1].id), await keyPages(b.keys[0].id)]).toEqual([1, 1, 2]);
  });

  it('claims past the lane run\'s last claim first, and URLs put back behind it when those run short', async () => {
    const paths = Array.from({ length: 10 }, (_, i) => `/q${i}`);
    const crawl = await crawlWith(paths, 100, 'queued');
    const ids = paths.map((p) => row(crawl, p).id);
    const claim = async (max: number, after: bigint) => (await claimBatch(prisma, crawl.id, 'lane-run-1', max, after)).map((u) => ids.indexOf(u.id));
    expect(await claim(3, 0n)).toEqual([0, 1, 2]);
    // A failed try puts /q1 back in the queue, behind the lane's last claim.
    const past = new Date(Date.now() - 1000);
    await storeBatch(prisma, crawl.id, [{ kind: 'requeue', row: { ...row(crawl, '/q1'), attempts: 1 }, retryAt: past, why: 'tried', error: '500' }], 3600);
    expect(await claim(3, ids[2])).toEqual([3, 4, 5]);
    expect(await claim(3, ids[5])).toEqual([6, 7, 8]);
    expect(await claim(3, ids[8])).toEqual([1, 9]);
    expect(await claim(3, ids[9])).toEqual([]);
    const claimed = await prisma.jobUrl.findMany({ where: { jobId: crawl.id }, orderBy: { id: 'asc' } });
    expect(claimed.map((u) => [u.status, u.claimedBy, u.attempts])).toEqual(paths.map((_, i) => ['claimed', 'lane-run-1', i === 1 ? 2 : 1]));
  });

  it('claims for several lane runs at once: URLs in id order, one per owner token, each recorded under its token', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => `/o${i}`);
    const crawl = await crawlWith(paths, 100, 'queued');
    const ids = paths.map((p) => row(crawl, p).id);
    const got = await claimFor(prisma, crawl.id, ['run-a', 'run-a', 'run-b', 'run-c', 'run-c'], 0n);
    expect(got.map((u) => [ids.indexOf(u.id), u.owner, u.attempts])).toEqual([[0, 'run-a', 1], [1, 'run-a', 1], [2, 'run-b', 1], [3, 'run-c', 1], [4, 'run-c', 1]]);
    // One URL left for three owners: the first token gets it; the others get nothing.
    const rest = await claimFor(prisma, crawl.id, ['run-d', 'run-e', 'run-e'], ids[4]);
    expect(rest.map((u) => [ids.indexOf(u.id), u.owner])).toEqual([[5, 'run-d']]);
    const frontier = await prisma.jobUrl.findMany({ where: { jobId: crawl.id }, orderBy: { id: 'asc' } });
    expect(frontier.map((u) => [u.status, u.claimedBy])).toEqual([['claimed', 'run-a'], ['claimed', 'run-a'], ['claimed', 'run-b'], ['claimed', 'run-c'], ['claimed', 'run-c'], ['claimed', 'run-d']]);
    expect(await claimFor(prisma, crawl.id, [], 0n)).toEqual([]);
  });

  it('claims from the head start at the queue floor: raised to the head found, lowered by every requeue', async () => {
    const paths = Array.from({ length: 10 }, (_, i) => `/f${i}`);
    const crawl = await crawlWith(paths, 100, 'queued');
    const ids = paths.map((p) => row(crawl, p).id);
    const claim = async (max: number, after: bigint) => (await claimBatch(prisma, crawl.id, 'lane-run-1', max, after)).map((u) => ids.indexOf(u.id));
    const floor = async () => (await job(crawl.id)).queueFloor;
    expect(await floor()).toBe(0n);
    expect(await claim(3, 0n)).toEqual([0, 1, 2]);
    expect(await floor()).toBe(ids[0]);
    // A new lane run's first claim starts from the head: the floor follows it.
    expect(await claim(3, 0n)).toEqual([3, 4, 5]);
    expect(await floor()).toBe(ids[3]);
    // While a store holds the crawl's row, a claim does not wait for it and leaves the floor alone.
    await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM job WHERE id = ${crawl.id} FOR UPDATE`;
      expect(await claim(2, 0n)).toEqual([6, 7]);
    });
    expect(await floor()).toBe(ids[3]);
    // Failed tries put /f1 (below the floor) and /f4 back: the floor goes down to the lowest, and each counts.
    const back = (path: string): PageOutcome => ({ kind: 'requeue', row: { ...row(crawl, path), attempts: 1 }, retryAt: new Date(Date.now() - 1000), why: 'tried', error: '500' });
    await storeBatch(prisma, crawl.id, [back('/f4'), back('/f1')], 3600);
    expect(await job(crawl.id)).toMatchObject({ queueFloor: ids[1], requeues: 2n });
    expect(await claim(2, 0n)).toEqual([1, 4]);
    expect(await floor()).toBe(ids[1]);
    expect(await claim(2, 0n)).toEqual([8, 9]);
    expect(await floor()).toBe(ids[8]);
    // Everything claimed goes back when the workflow starts anew: the floor goes down to the first.
    expect(await requeueClaimed(prisma, crawl.id)).toBe(10);
    expect(await job(crawl.id)).toMatchObject({ queueFloor: ids[0], requeues: 12n });
    expect(await claim(10, 0n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
