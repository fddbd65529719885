/**
 * `./scripts/stack up` keeps its infrastructure running as it does its own processes: PostgreSQL,
 * Redis and the Temporal dev server, killed outright, are restarted with backoff on their ports and
 * data (scripts/stack.ts supervises each with scripts/infra/supervise.ts, as here), and the service
 * carries on: a crawl running when Temporal died completes with every page stored once, the API
 * starts crawls again, and the worker says once that Temporal was gone and once that it is back.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectRedis } from '../api/redis.js';
import { createPrisma } from '../prisma/client.js';
import { runOutput, type Child } from '../scripts/infra/child.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { supervise, type Restartable, type Supervisor } from '../scripts/infra/supervise.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { startWorkerProcess } from '../scripts/infra/throwaway.js';
import { loadStackConfig } from '../scripts/stack-config.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { waitFor } from './fixtures/receiver.js';
import { allDocuments, pathsOf, startCrawl, waitForCrawl } from './helpers/crawl.js';
import { testEnv } from './helpers/env.js';
import { pollUntil } from './helpers/poll.js';
import { startApiOnly } from './helpers/stack.js';

const dir = mkdtempSync(join(tmpdir(), 'infra-supervision-'));
chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root.
const pidDir = join(dir, 'run');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** A server supervised as `up` supervises it (default backoff: the first restart after 1 s, unless `initialDelayMs`). */
function supervised(server: Restartable, initialDelayMs?: number): { supervisor: Supervisor; lines: string[] } {
  const lines: string[] = [];
  const supervisor = supervise(server.child(), { restart: server.respawn, log: (l) => lines.push(l), ...(initialDelayMs ? { initialDelayMs } : {}) });
  cleanups.push(() => supervisor.stop());
  return { supervisor, lines };
}

/** SIGKILL the current run; resolves with the next one once it is running. */
async function killAndWaitForRestart(supervisor: Supervisor): Promise<Child> {
  const killed = supervisor.child();
  process.kill(killed.pid!, 'SIGKILL');
  return waitFor(() => supervisor.child() !== killed && supervisor.child().running() && supervisor.child(), 30_000);
}

const summary = (s: Supervisor) => s.restarts.map((r) => ({ code: r.exit.code, signal: r.exit.signal, inARow: r.inARow, delayMs: r.delayMs }));

describe('PostgreSQL and Redis under the stack', () => {
  it('are restarted after a SIGKILL, with their data, and the clients the services use work again', async () => {
    // Durable settings, as `up` runs it (an ephemeral cluster may lose commits younger than its WAL writer's delay).
    const pg = await startPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), binDir: loadStackConfig().STACK_PG_BIN_DIR, pidDir, logFile: join(dir, 'postgres.log') });
    const redis = await startRedis({ port: await freePort(), serverPath: inject('redisServerPath'), dataDir: join(dir, 'redis'), pidDir });
    const [pgRun, redisRun] = [supervised(pg), supervised(redis)];
    const prisma = createPrisma(pg.url);
    const kv = connectRedis(redis.url);
    cleanups.push(() => prisma.$disconnect(), () => kv.quit());
    await prisma.$executeRaw`CREATE TABLE kept (x int)`;
    await prisma.$executeRaw`INSERT INTO kept VALUES (42)`;
    await waitFor(() => kv.status === 'ready', 10_000);

    const [pgNext, redisNext] = await Promise.all([killAndWaitForRestart(pgRun.supervisor), killAndWaitForRestart(redisRun.supervisor)]);
    const rows = await pollUntil(() => prisma.$queryRaw<{ x: number }[]>`SELECT x FROM kept`.catch((err: Error) => err.message), Array.isArray, 'PostgreSQL answering again', 30_000);
    const pong = await pollUntil(() => kv.ping().catch((err: Error) => err.message), (r) => r === 'PONG', 'Redis answering again', 30_000);

    expect(rows).toEqual([{ x: 42 }]);
    expect(pong).toBe('PONG');
    for (const [run, next, name] of [[pgRun, pgNext, 'postgres'], [redisRun, redisNext, 'redis']] as const) {
      expect(summary(run.supervisor)).toEqual([{ code: null, signal: 'SIGKILL', inARow: 1, delayMs: 1000 }]);
      expect(run.lines[0]).toMatch(new RegExp(`^${name} was killed by SIGKILL after .*; restarting it in 1 s \\(log: .*\\)\\n`));
      expect(run.lines[1]).toBe(`${name} restarted (pid ${next.pid})`);
    }
  }, 120_000);
});

describe('the Temporal dev server under the stack', () => {
  it('killed mid-crawl, is restarted; the crawl completes with every page stored once, the API starts crawls again, the worker says so twice', async () => {
    const temporal = await startTemporal({ cliPath: inject('temporalCliPath'), port: await freePort(), dbFile: join(dir, 'temporal', 'temporal.db'), pidDir, logFile: join(dir, 'temporal.log') });
    // Down for 5 s: long enough for the worker to notice. (Back within a second or two, Temporal can
    // return before Core's first retry warning, and then the worker rightly says nothing at all.)
    const { supervisor, lines } = supervised(temporal, 5000);
    const [site, tiny, stack] = await Promise.all([startCrawlSite(treeSite(400, 40)), startCrawlSite(treeSite(3)), startApiOnly({ TEMPORAL_ADDRESS: temporal.address })]);
    cleanups.push(() => site.close(), () => tiny.close(), () => stack.close());
    // Lanes hand back every second, so the crawl needs Temporal again while it is down.
    const env = testEnv({ ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: stack.worker.taskQueue, TEMPORAL_ADDRESS: temporal.address, WORKER_CONCURRENCY: '4', CRAWL_LANE_ROTATE_MS: '1000' });
    const worker = await startWorkerProcess({ env, logFile: join(dir, 'worker.log'), pidDir });
    cleanups.push(() => worker.stop());

    const id = await startCrawl(stack, { url: site.url, limit: 400, maxDepth: 20 });
    await waitFor(() => site.hits.length >= 100, 120_000);
    const next = await killAndWaitForRestart(supervisor);
    // The API's own client finds the server again (informational /ready check, then a crawl start).
    await pollUntil(() => stack.get('/ready'), (r) => (r.body.checks as { temporal?: string } | undefined)?.temporal === 'up', 'the API seeing Temporal again', 60_000);
    const back = Date.now();
    const again = await stack.post('/v1/crawl', { url: tiny.url, limit: 3 });
    expect(again.status).toBe(200);

    const status = await waitForCrawl(stack, id, 180_000);
    expect(status).toMatchObject({ status: 'completed', completed: 400, total: 400, failed: 0 });
    const docs = await allDocuments(stack, id, 1000);
    expect(docs).toHaveLength(400);
    expect(new Set(pathsOf(docs)).size).toBe(400);
    const sequences = await stack.api.deps.prisma.document.findMany({ where: { jobId: id }, select: { sequence: true }, orderBy: { sequence: 'asc' } });
    expect(sequences.map((d) => d.sequence)).toEqual([...Array(400).keys()]);
    // The crawl went on after the restart, not only before the kill.
    expect(site.hits.filter((h) => h.at > back).length).toBeGreaterThan(0);
    expect(await waitForCrawl(stack, again.body.id as string, 60_000)).toMatchObject({ status: 'completed', completed: 3, total: 3 });

    expect(summary(supervisor)).toEqual([{ code: null, signal: 'SIGKILL', inARow: 1, delayMs: 5000 }]);
    expect(lines[0]).toMatch(/^temporal was killed by SIGKILL after .*; restarting it in 5 s \(log: .*temporal\.log\)\n/);
    expect(lines[1]).toBe(`temporal restarted (pid ${next.pid})`);

    // The worker lived through it, and said it once each way instead of at every retry.
    expect(worker.running()).toBe(true);
    const log = () => runOutput(worker);
    const said = (msg: string) => log().split('\n').filter((line) => line.includes(`"msg":"${msg}`)).length;
    await waitFor(() => said('Temporal is reachable again') > 0, 10_000);
    expect([said('Temporal is unreachable'), said('Temporal is reachable again')]).toEqual([1, 1]);
    expect(log()).not.toContain('temporalio_client::retry');
  }, 300_000);
});
