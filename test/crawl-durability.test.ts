/**
 * The promises that make crawls worth running here: a worker killed mid-crawl loses nothing and
 * duplicates nothing; two workers share one crawl; page lanes rotating through many runs and
 * continue-as-new lose nothing either; a 10,000-page crawl keeps its history to a few events per
 * hundred pages.
 */
import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, WorkflowClient } from '@temporalio/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { kinds } from '../jobs/kinds.js';
import { freePort } from '../scripts/infra/ready.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { waitFor } from './fixtures/receiver.js';
import { allDocuments, pathsOf, startCrawl, waitForCrawl } from './helpers/crawl.js';
import { startApiOnly, startTestStack, type TestStack } from './helpers/stack.js';
import { spawnWorker, type WorkerProcess } from './helpers/worker-process.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** An API with no in-process worker: the workers are child processes. */
async function apiOnly(env: Record<string, string> = {}): Promise<TestStack> {
  const stack = await startApiOnly(env);
  cleanups.push(() => stack.close());
  return stack;
}

function workerFor(stack: TestStack, env: Record<string, string> = {}): WorkerProcess {
  const w = spawnWorker({ ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: stack.worker.taskQueue, WORKER_CONCURRENCY: '4', ...env });
  cleanups.push(() => w.kill());
  return w;
}

describe('crawl durability', () => {
  it('a worker killed with SIGKILL mid-crawl: another takes over and every page is stored exactly once', async () => {
    const site = await startCrawlSite(treeSite(500, 20));
    cleanups.push(() => site.close());
    const stack = await apiOnly();
    const first = workerFor(stack);
    await first.ready;
    const id = await startCrawl(stack, { url: site.url, limit: 500, maxDepth: 20 });
    await waitFor(() => site.hits.length >= 120, 120_000);
    await first.kill('SIGKILL');
    const before = (await stack.get(`/v1/crawl/${id}?limit=1`)).body as { completed: number; status: string };
    expect(before.status).toBe('scraping');
    expect(before.completed).toBeLessThan(500);

    const second = workerFor(stack);
    await second.ready;
    const status = await waitForCrawl(stack, id, 240_000);
    expect(status).toMatchObject({ status: 'completed', completed: 500, total: 500, failed: 0 });
    const docs = await allDocuments(stack, id, 1000);
    expect(docs).toHaveLength(500);
    expect(new Set(pathsOf(docs)).size).toBe(500);
    // Pages in flight when the worker died were fetched again by the lane's retry: twice at most.
    expect(Math.max(...pathsOf(docs).map((p) => site.pageHits(p)))).toBeLessThanOrEqual(2);
    // Paging order is gap-free: sequences 0..499, one each.
    const sequences = await stack.api.deps.prisma.document.findMany({ where: { jobId: id }, select: { sequence: true }, orderBy: { sequence: 'asc' } });
    expect(sequences.map((d) => d.sequence)).toEqual([...Array(500).keys()]);
  }, 400_000);

  it('two workers on one task queue share a crawl without fetching a stored page twice', async () => {
    const site = await startCrawlSite(treeSite(200, 10));
    cleanups.push(() => site.close());
    const stack = await apiOnly();
    const [a, b] = [workerFor(stack), workerFor(stack)];
    await Promise.all([a.ready, b.ready]);
    const id = await startCrawl(stack, { url: site.url, limit: 200, maxDepth: 20 });
    const status = await waitForCrawl(stack, id, 180_000);
    expect(status).toMatchObject({ status: 'completed', completed: 200, total: 200 });
    const docs = await allDocuments(stack, id, 1000);
    expect(new Set(pathsOf(docs)).size).toBe(200);
    for (const path of pathsOf(docs)) expect(site.pageHits(path)).toBe(1);
    // Both took part: the histories name the worker that started each lane (a worker holds two lanes, the crawl has four).
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    cleanups.push(() => connection.close());
    const client = new WorkflowClient({ connection });
    const identities = new Set<string>();
    for await (const run of client.list({ query: `WorkflowId = '${kinds.crawl.workflowId(id)}'` })) {
      const history = await client.getHandle(run.workflowId, run.runId).fetchHistory();
      for (const e of history.events ?? []) if (e.activityTaskStartedEventAttributes?.identity) identities.add(e.activityTaskStartedEventAttributes.identity);
    }
    expect(identities.size).toBe(2);
    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
  }, 300_000);
});

describe('crawl lanes over many runs', () => {
  it('rotating lanes and continue-as-new store every page exactly once, in gap-free order', async () => {
    // Lanes hand back every 300 ms, and the test Temporal suggests continue-as-new every 60 events.
    const site = await startCrawlSite(treeSite(300, 5));
    cleanups.push(() => site.close());
    const stack = await startTestStack({ CRAWL_LANE_ROTATE_MS: '300', WORKER_CONCURRENCY: '4' });
    cleanups.push(() => stack.close());
    const id = await startCrawl(stack, { url: site.url, limit: 300, maxDepth: 20 });
    const status = await waitForCrawl(stack, id, 240_000);
    expect(status).toMatchObject({ status: 'completed', completed: 300, total: 300, failed: 0 });
    const docs = await allDocuments(stack, id, 1000);
    expect(new Set(pathsOf(docs)).size).toBe(300);
    for (const path of pathsOf(docs)) expect(site.pageHits(path)).toBe(1);
    const sequences = await stack.api.deps.prisma.document.findMany({ where: { jobId: id }, select: { sequence: true }, orderBy: { sequence: 'asc' } });
    expect(sequences.map((d) => d.sequence)).toEqual([...Array(300).keys()]);
    const client = stack.api.deps.temporal;
    const runs: string[] = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = '${kinds.crawl.workflowId(id)}'` })) runs.push(run.status.name);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.filter((r) => r === 'CONTINUED_AS_NEW')).toHaveLength(runs.length - 1);
  }, 300_000);
});

describe('crawl scale', () => {
  it('crawls 10,000 pages into 10,000 distinct documents with a short history', async () => {
    // Its own Temporal dev server with production defaults.
    const dir = mkdtempSync(join(tmpdir(), 'temporal-scale-'));
    chmodSync(dir, 0o755);
    const temporal = await startTemporal({ cliPath: inject('temporalCliPath'), port: await freePort(), logFile: join(dir, 'temporal.log') });
    cleanups.push(() => temporal.stop());
    const site = await startCrawlSite(treeSite(10_000));
    cleanups.push(() => site.close());
    const stack = await apiOnly({ TEMPORAL_ADDRESS: temporal.address });
    const worker = workerFor(stack, { TEMPORAL_ADDRESS: temporal.address, WORKER_CONCURRENCY: '16' });
    await worker.ready;
    const id = await startCrawl(stack, { url: site.url, limit: 10_000, maxDepth: 30 });
    const status = await waitForCrawl(stack, id, 900_000);
    expect(status).toMatchObject({ status: 'completed', completed: 10_000, total: 10_000, failed: 0 });
    const count = await stack.api.deps.prisma.document.count({ where: { jobId: id } });
    expect(count).toBe(10_000);
    const distinct = await stack.api.deps.prisma.document.groupBy({ by: ['urlKey'], where: { jobId: id } });
    expect(distinct).toHaveLength(10_000);

    const connection = await Connection.connect({ address: temporal.address });
    cleanups.push(() => connection.close());
    const client = new WorkflowClient({ connection });
    let events = 0;
    for await (const run of client.list({ query: `WorkflowId = '${kinds.crawl.workflowId(id)}'` })) events += run.historyLength;
    // Page lanes: a few events per lane run, not per page (the target is at most 0.5 per page).
    expect(events).toBeLessThan(5_000);
  }, 1_000_000);
});
