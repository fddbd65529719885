/**
 * SIGTERM, as a deploy, a scale-down or `docker compose stop` sends it, to the processes started
 * exactly as `./scripts/stack up` starts them (package.json's start scripts, scripts/infra/apps.ts):
 * a worker hands its crawl lanes back and exits within its grace time; the API answers the
 * requests in flight, refuses new ones, then exits, and cuts what is left once its grace period is over.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { kinds } from '../jobs/kinds.js';
import { createPrisma } from '../prisma/client.js';
import { startApp, waitForHealth } from '../scripts/infra/apps.js';
import { runOutput, spawnChild, type Child } from '../scripts/infra/child.js';
import { freePort } from '../scripts/infra/ready.js';
import { NO_RATE_LIMITS, startWorkerProcess } from '../scripts/infra/throwaway.js';
import { repoRoot } from '../scripts/stack-config.js';
import { SHUTDOWN_GRACE_TIME } from '../worker/main.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { waitFor } from './fixtures/receiver.js';
import { startFixtureServer } from './fixtures/server.js';
import { allDocuments, pathsOf, startCrawl, waitForCrawl } from './helpers/crawl.js';
import { TEST_PEPPER, testEnv } from './helpers/env.js';
import { startApiOnly } from './helpers/stack.js';
import { uniqueTaskQueue } from './helpers/worker.js';

const dir = mkdtempSync(join(tmpdir(), 'graceful-shutdown-'));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** Every worker of this file polls one task queue: the crawl test's second worker also serves the API tests' scrapes. */
const taskQueue = uniqueTaskQueue('shutdown');
/** A worker process as `up` starts it (package.json's start:worker, scripts/infra/worker-launch.ts). */
async function startWorker(name: string): Promise<Child> {
  const env = testEnv({ ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: taskQueue, WORKER_CONCURRENCY: '4' });
  const worker = await startWorkerProcess({ env, logFile: join(dir, `${name}.log`), pidDir: join(dir, 'run'), name });
  cleanups.push(() => worker.stop());
  return worker;
}
let running: Promise<Child> | undefined;
const lastingWorker = () => (running ??= startWorker('worker-b'));

/** This run's part of a child's log, as JSON records (other lines, like the start marker, skipped). */
function records(child: Child): Record<string, unknown>[] {
  return runOutput(child)
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

describe('a worker told to stop (SIGTERM) mid-crawl', () => {
  it('hands its lanes back and exits within its grace time; another worker finishes the crawl, every page fetched and stored once', async () => {
    const site = await startCrawlSite(treeSite(300, 40));
    cleanups.push(() => site.close());
    const stack = await startApiOnly({ TEMPORAL_TASK_QUEUE: taskQueue });
    cleanups.push(() => stack.close());
    const first = await startWorker('worker-a');

    const id = await startCrawl(stack, { url: site.url, limit: 300, maxDepth: 20 });
    await waitFor(() => site.hits.length >= 80, 120_000);
    const signalled = Date.now();
    process.kill(first.pid!, 'SIGTERM');
    const exit = await first.exited;
    const stoppedInMs = Date.now() - signalled;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(stoppedInMs).toBeLessThan(parseInt(SHUTDOWN_GRACE_TIME) * 1000);
    expect(records(first).map((r) => r.msg)).toContain('worker stopped');
    // Handed back: nothing of the crawl is still claimed by the stopped worker's lanes, and the crawl goes on.
    const prisma = stack.api.deps.prisma;
    expect(await prisma.jobUrl.count({ where: { jobId: id, status: 'claimed' } })).toBe(0);
    // ...and every page it fetched is stored: it finished what it held before returning.
    const fetched = site.hits.filter((h) => h.path === '/' || h.path.startsWith('/p/')).length;
    const midway = (await stack.get(`/v1/crawl/${id}?limit=1`)).body as { status: string; completed: number };
    expect(midway.status).toBe('scraping');
    expect(midway.completed).toBe(fetched);
    expect(fetched).toBeGreaterThanOrEqual(78); // of the 80 requests, robots.txt and sitemap.xml may be two
    expect(fetched).toBeLessThan(300);

    await lastingWorker();
    const status = await waitForCrawl(stack, id, 120_000);
    expect(status).toMatchObject({ status: 'completed', completed: 300, total: 300, failed: 0 });
    const docs = await allDocuments(stack, id, 1000);
    expect(docs).toHaveLength(300);
    expect(new Set(pathsOf(docs)).size).toBe(300);
    // Pages in flight at SIGTERM were finished and stored before the lanes returned: none was fetched again.
    expect(pathsOf(docs).filter((p) => site.pageHits(p) !== 1)).toEqual([]);
    const sequences = await prisma.document.findMany({ where: { jobId: id }, select: { sequence: true }, orderBy: { sequence: 'asc' } });
    expect(sequences.map((d) => d.sequence)).toEqual([...Array(300).keys()]);
    // No lane was abandoned: none timed out (a lost heartbeat) or failed, in any run of the crawl.
    const outcomes = { timedOut: 0, failed: 0, completed: 0 };
    const client = stack.api.deps.temporal.workflow;
    for await (const run of client.list({ query: `WorkflowId = '${kinds.crawl.workflowId(id)}'` })) {
      for (const e of (await client.getHandle(run.workflowId, run.runId).fetchHistory()).events ?? []) {
        if (e.activityTaskTimedOutEventAttributes) outcomes.timedOut++;
        if (e.activityTaskFailedEventAttributes) outcomes.failed++;
        if (e.activityTaskCompletedEventAttributes) outcomes.completed++;
      }
    }
    expect(outcomes).toMatchObject({ timedOut: 0, failed: 0 });
    expect(outcomes.completed).toBeGreaterThan(0);
  }, 240_000);
});

describe('the API told to stop (SIGTERM)', () => {
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  /**
   * An API process on a free port, its scrapes served by the file's lasting worker, started as `up`
   * starts it, or through `npm run start:api` as the Docker image and docker-compose.yml do (npm
   * must pass SIGTERM on).
   */
  async function apiProcess(name: string, via: 'stack' | 'npm', env: Record<string, string> = {}) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const settings = testEnv({ API_PORT: String(port), AUTH_URL: url, ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'info', ...NO_RATE_LIMITS, ...env });
    const api =
      via === 'stack'
        ? startApp('api', settings, join(dir, name), join(dir, 'run'), quiet)
        : // Output straight to the file (no pipe): were node left running after npm, its exit would still be seen.
          spawnChild({ name, command: 'npm', args: ['run', '--silent', 'start:api'], cwd: repoRoot, env: { ...settings, PATH: process.env.PATH }, logFile: join(dir, name, 'api.log') });
    cleanups.push(() => api.stop());
    await Promise.all([waitForHealth(url, api, 60_000), lastingWorker()]);
    const prisma = createPrisma(inject('databaseUrl'));
    const { key } = await createKey(prisma, name, TEST_PEPPER);
    await prisma.$disconnect();
    const scrape = (target: string) =>
      fetch(`${url}/v1/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: target, formats: ['markdown'], timeout: 30_000 }) });
    return { api, url, port, scrape };
  }
  const stopping = (api: Child) => records(api).find((r) => r.msg === 'api stopping');

  it('answers the request in flight, refuses new ones (new connections and requests on open ones), then exits', async () => {
    const site = await startFixtureServer({
      '/slow': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Slow page</h1><p>Worth the wait.</p></body></html>'), 4000),
    });
    cleanups.push(() => site.close());
    const { api, url, port, scrape } = await apiProcess('api-drain', 'stack');
    // A connection that is sending a request when the signal comes: the rest of it arrives after.
    const open: Socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => open.once('connect', resolve));
    open.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');

    const answered = scrape(`${site.url}/slow`).then(async (res) => ({ status: res.status, body: (await res.json()) as { success: boolean; data?: { markdown?: string } }, at: Date.now() }));
    await waitFor(() => site.hitsFor('/slow').length === 1, 30_000);
    process.kill(api.pid!, 'SIGTERM');
    const exited = api.exited.then((exit) => ({ exit, at: Date.now() }));
    await waitFor(() => stopping(api), 10_000);

    const refused = await fetch(`${url}/health`).then(
      (res) => `answered ${res.status}`,
      (err: Error) => (err.cause as NodeJS.ErrnoException | undefined)?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
    const reply = new Promise<string>((resolve) => {
      let text = '';
      open.on('data', (chunk) => (text += chunk.toString()));
      open.once('close', () => resolve(text));
    });
    open.write('\r\n');
    const [head, body] = (await reply).split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(head!.toLowerCase()).toContain('\r\nconnection: close');
    expect(head!.toLowerCase()).toContain('\r\nretry-after: 5');
    expect(JSON.parse(body!)).toEqual({ success: false, error: 'The API is shutting down; try again.', code: 'service_unavailable' });

    const scraped = await answered;
    expect(scraped.status).toBe(200);
    expect(scraped.body.success).toBe(true);
    expect(scraped.body.data?.markdown).toContain('Worth the wait.');
    const { exit, at } = await exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(at).toBeGreaterThanOrEqual(scraped.at);
    expect(stopping(api)).toMatchObject({ signal: 'SIGTERM', inFlight: 1, graceMs: 30_000 });
    expect(records(api).map((r) => r.msg)).toContain('api stopped');
    expect(records(api).filter((r) => r.msg === 'api shutdown grace period over: requests cut')).toEqual([]);
  }, 120_000);

  it('started by npm run start:api (the image, compose): cuts a request still running when API_SHUTDOWN_GRACE_MS is over, and exits', async () => {
    const site = await startFixtureServer({
      '/stuck': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Too late</body></html>'), 8000),
    });
    cleanups.push(() => site.close());
    const { api, scrape } = await apiProcess('api-grace', 'npm', { API_SHUTDOWN_GRACE_MS: '1000' });
    const outcome = scrape(`${site.url}/stuck`).then(
      (res) => `answered ${res.status}`,
      (err: Error) => `failed: ${err.message}`,
    );
    await waitFor(() => site.hitsFor('/stuck').length === 1, 30_000);
    const signalled = Date.now();
    process.kill(api.pid!, 'SIGTERM');
    const exit = await api.exited;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(6000);
    expect(await outcome).toBe('failed: fetch failed');
    expect(records(api).find((r) => r.msg === 'api shutdown grace period over: requests cut')).toMatchObject({ cut: 1 });
    expect(records(api).map((r) => r.msg)).toContain('api stopped');
  }, 120_000);
});
