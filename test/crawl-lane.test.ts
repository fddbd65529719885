/**
 * A page lane (activities/crawl/lane.ts) run as Temporal runs it (MockActivityEnvironment: heartbeats
 * and cancellation, no server) on the test PostgreSQL, with a page pipeline that does no work: while
 * its store waits (here, for the crawl's row lock, held by another transaction), the lane goes on
 * fetching up to its bound of finished pages; while its claims come back full it claims a width ahead,
 * never running more than its width at once; every page is stored once in the end.
 */
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { laneActivities } from '../activities/crawl/lane.js';
import { activityDeps } from '../activities/deps.js';
import type { RunPage } from '../activities/pipeline/pipeline.js';
import { fetchOnlyEngineSet } from '../activities/engines/index.js';
import type { LaneInput, LaneResult } from '../core/job-contracts.js';
import { createLogger } from '../core/log.js';
import { createJobRow } from '../jobs/rows.js';
import { createPrisma } from '../prisma/client.js';
import { convertInline } from '../worker/convert-pool.js';
import { testConfig } from './helpers/env.js';

const config = testConfig('worker', { WORKER_CONCURRENCY: '8' });
const prisma = createPrisma(config.DATABASE_URL);
afterAll(() => prisma.$disconnect());

const ORIGIN = 'http://lane.test';
const WIDTH = 4;

/** A running crawl whose frontier holds `pages` queued URLs and nothing else to discover. */
async function crawlOf(pages: number): Promise<string> {
  const id = randomUUID();
  await prisma.$transaction((tx) =>
    createJobRow(tx, { id, kind: 'crawl', seed: new URL(`${ORIGIN}/`), options: { url: `${ORIGIN}/`, limit: pages }, apiKeyId: null, payer: 'crawl-lane-test', ttlSeconds: 3600 }),
  );
  await prisma.$executeRaw`
    INSERT INTO job_url (job_id, url_key, url, depth, discovery_depth)
    SELECT ${id}, 'lane.test/p' || i, ${ORIGIN} || '/p' || i, 1, 1 FROM generate_series(1, ${pages}) AS i`;
  await prisma.$executeRaw`UPDATE job SET total = ${pages}, discovery_done = true WHERE id = ${id}`;
  return id;
}

/** Pages that cost nothing (a small document, no links), each done once `gate` lets it. */
function noOpPages(started: string[], gate: (url: string) => Promise<void> = async () => undefined): RunPage {
  return async (job) => {
    started.push(job.url);
    await gate(job.url);
    return { document: { url: job.url, urlKey: job.url.replace('http://', ''), markdown: '# page', metadata: { sourceURL: job.url, statusCode: 200 }, statusCode: 200 }, links: [] };
  };
}

function lanes(runPage: RunPage) {
  const log = createLogger({ name: 'crawl-lane-test', level: 'warn' });
  const engines = fetchOnlyEngineSet(config);
  return laneActivities({ ...activityDeps({ config, prisma, log, engines, convert: convertInline }), runPage });
}

const runLane = (crawlLane: ReturnType<typeof lanes>['crawlLane'], crawlId: string, token = `test:${randomUUID()}`) =>
  new MockActivityEnvironment({ activityType: 'crawlLane', heartbeatTimeoutMs: 10_000 }).run<[LaneInput], LaneResult, typeof crawlLane>(crawlLane, {
    crawlId,
    token,
    width: WIDTH,
    delayMs: 0,
    maxMs: 60_000,
    taskQueue: '',
  });

/**
 * What `read` gives once it has reached `least` and then not changed for half a second. Waiting
 * for `least` first keeps a busy machine (a lane's step can stall for half a second when the test
 * files share two cores) from reading a lane that paused as one that stopped.
 */
async function settledFrom(least: number, read: () => number | Promise<number>): Promise<number> {
  await vi.waitUntil(async () => (await read()) >= least, { timeout: 30_000, interval: 20 });
  return settled(read);
}

/** What `read` gives once it has not changed for half a second. */
async function settled(read: () => number | Promise<number>): Promise<number> {
  for (let last = -1, since = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
    const now = await read();
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= 500) return now;
  }
}

describe('page lane', () => {
  it('goes on fetching while its store waits, up to four widths of finished pages, and stores each page once', async () => {
    const crawlId = await crawlOf(40);
    const started: string[] = [];
    const { crawlLane } = lanes(noOpPages(started));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction holds the crawl's row lock: every store of the lane waits for it.
    const holder = prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM job WHERE id = ${crawlId} FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 60_000 },
    );
    await lockHeld;

    const run = runLane(crawlLane, crawlId);
    // The first batch waits in its store; the lane fetched on until four widths of finished pages waited
    // besides it (a claim takes at most a width, so it may pass the bound by less than one).
    const fetchedWhileWaiting = await settledFrom(4 * WIDTH + 1, () => started.length);
    expect(fetchedWhileWaiting).toBeGreaterThan(4 * WIDTH);
    expect(fetchedWhileWaiting).toBeLessThan(6 * WIDTH);
    expect(await prisma.document.count({ where: { jobId: crawlId } })).toBe(0);

    release();
    await holder;
    const result = await run;
    expect(result).toMatchObject({ exit: 'drained', stored: 40, completed: 40, failed: 0, total: 40 });
    expect(new Set(started).size).toBe(40);
    expect(started).toHaveLength(40);
    expect(await prisma.document.count({ where: { jobId: crawlId } })).toBe(40);
    const open = await prisma.jobUrl.count({ where: { jobId: crawlId, status: { not: 'done' } } });
    expect(open).toBe(0);
  });

  it('claims a width ahead while its claims come back full, and runs at most its width of pages at once', async () => {
    const crawlId = await crawlOf(40);
    const token = `test:${randomUUID()}`;
    const started: string[] = [];
    const waiting: Array<() => void> = [];
    let open = false;
    let running = 0;
    let mostRunning = 0;
    const gate = async () => {
      mostRunning = Math.max(mostRunning, ++running);
      if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
      running--;
    };
    const { crawlLane } = lanes(noOpPages(started, gate));
    const claimed = () => prisma.jobUrl.count({ where: { jobId: crawlId, claimedBy: token, status: 'claimed' } });
    const run = runLane(crawlLane, crawlId, token);

    // The first claim asks for a width and gets it all: the queue is deep.
    expect(await settledFrom(WIDTH, () => started.length)).toBe(WIDTH);
    expect(await claimed()).toBe(WIDTH);
    // Half the pages end: the next claim takes what frees up and a width ahead, which waits unstarted.
    for (const resolve of waiting.splice(0, WIDTH / 2)) resolve();
    expect(await settledFrom(WIDTH + WIDTH / 2, () => started.length)).toBe(WIDTH + WIDTH / 2);
    expect(await settledFrom(2 * WIDTH, claimed)).toBe(2 * WIDTH);
    expect(await prisma.jobUrl.count({ where: { jobId: crawlId, status: 'done' } })).toBe(WIDTH / 2);

    open = true;
    for (const resolve of waiting.splice(0)) resolve();
    expect(await run).toMatchObject({ exit: 'drained', stored: 40, completed: 40, total: 40 });
    expect(started).toHaveLength(40);
    expect(mostRunning).toBe(WIDTH);
    expect(await prisma.document.count({ where: { jobId: crawlId } })).toBe(40);
  });
});
