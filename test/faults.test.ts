/**
 * What callers see while a dependency is down, and that crawls survive it. Each fault is applied to
 * a server of the test's own (never the shared ones other files use): a PostgreSQL stopped and
 * restarted on the same port and data, a Temporal dev server with a SQLite file stopped and
 * restarted, and the browser service killed. Timings are printed so the report can quote them.
 * About 2–3 minutes in all, most of it the two crawls.
 */
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { spawnChild, type Child } from '../scripts/infra/child.js';
import { startPostgres, type PostgresOptions } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort, waitUntilReady } from '../scripts/infra/ready.js';
import { startTemporal, testDynamicConfig, type TemporalOptions } from '../scripts/infra/temporal.js';
import { loadStackConfig, repoRoot } from '../scripts/stack-config.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { waitFor } from './fixtures/receiver.js';
import { startFixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { startCrawl, waitForCrawl } from './helpers/crawl.js';
import { testEnv } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when we are root.
  return dir;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  ms: number;
}

/** One call with a hard client-side bound, so a hanging server fails the test instead of stalling it. */
async function call(stack: TestStack, method: string, path: string, options: { body?: unknown; auth?: boolean; boundMs?: number; headers?: Record<string, string> } = {}): Promise<Answer> {
  const start = performance.now();
  const res = await fetch(stack.api.url + path, {
    method,
    signal: AbortSignal.timeout(options.boundMs ?? 60_000),
    headers: {
      ...(options.auth === false ? {} : { authorization: `Bearer ${stack.key}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: performance.now() - start };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every page of the crawl stored exactly once, in gap-free sequence order. */
async function expectEveryPageOnce(stack: TestStack, id: string, pages: number): Promise<void> {
  const prisma = stack.api.deps.prisma;
  expect(await prisma.document.count({ where: { jobId: id } })).toBe(pages);
  expect(await prisma.document.groupBy({ by: ['urlKey'], where: { jobId: id } })).toHaveLength(pages);
  const sequences = await prisma.document.findMany({ where: { jobId: id }, select: { sequence: true }, orderBy: { sequence: 'asc' } });
  expect(sequences.map((d) => d.sequence)).toEqual([...Array(pages).keys()]);
}

const report = (what: string, values: Record<string, unknown>) => console.info(`[faults] ${what}: ${JSON.stringify(values)}`);

describe('PostgreSQL stopped and restarted', () => {
  const databaseDown = {
    success: false,
    error: 'The database is unavailable; try again shortly.',
    code: 'service_unavailable',
    details: [{ field: 'database', message: 'PostgreSQL cannot be reached' }],
  };

  it('answers 503 naming the database while it is down, recovers after, and a crawl running through it stores every page once', async () => {
    const dir = tempDir('pagewright-faults-pg-');
    const options: PostgresOptions = { dataDir: join(dir, 'pg'), port: await freePort(), binDir: loadStackConfig().STACK_PG_BIN_DIR, database: 'pagewright_faults', ephemeral: true };
    let pg = await startPostgres(options);
    cleanups.push(() => pg.stop());
    await applyMigrations(pg.url);
    const PAGES = 150;
    const site = await startCrawlSite(treeSite(PAGES, 30));
    cleanups.push(() => site.close());
    const stack = await startTestStack({ DATABASE_URL: pg.url, WORKER_CONCURRENCY: '4' });
    cleanups.push(() => stack.close());

    const id = await startCrawl(stack, { url: site.url, limit: PAGES, maxDepth: 20 });
    await waitFor(() => site.hits.length >= 30, 60_000);
    await pg.stop();
    const downAt = Date.now();

    const answers = {
      status: await call(stack, 'GET', `/v1/crawl/${id}`),
      scrape: await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/p/1` } }),
      crawl: await call(stack, 'POST', '/v1/crawl', { body: { url: site.url } }),
      cancel: await call(stack, 'DELETE', `/v1/crawl/${id}`),
      map: await call(stack, 'POST', '/v1/map', { body: { url: site.url } }),
    };
    for (const answer of Object.values(answers)) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(databaseDown);
      expect(answer.retryAfter).toBe('5');
      expect(answer.ms).toBeLessThan(5000);
    }
    // No key needs no database: still a plain 401.
    expect((await call(stack, 'POST', '/v1/scrape', { body: { url: site.url }, auth: false })).status).toBe(401);
    const ready = await call(stack, 'GET', '/ready', { auth: false });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ success: false, code: 'service_unavailable', error: 'Not ready: database (PostgreSQL) down.' });
    expect((ready.body.details as { field: string }[]).map((d) => d.field)).toEqual(['database']);
    expect((await call(stack, 'GET', '/health', { auth: false })).status).toBe(200);
    const hitsWhileDown = site.hits.length;

    // Long enough for page and database activities to fail and back off a few times.
    await new Promise((r) => setTimeout(r, Math.max(0, 8000 - (Date.now() - downAt))));
    pg = await startPostgres(options);
    const downMs = Date.now() - downAt;
    const readyAfterMs = await until(async () => (await call(stack, 'GET', '/ready', { auth: false })).status === 200, 30_000);
    const statusAfterMs = await until(async () => (await call(stack, 'GET', `/v1/crawl/${id}`)).status === 200, 30_000);

    const crawlStart = Date.now();
    const status = await waitForCrawl(stack, id, 180_000);
    expect(status).toMatchObject({ status: 'completed', completed: PAGES, total: PAGES, failed: 0 });
    await expectEveryPageOnce(stack, id, PAGES);
    report('postgres', {
      answerMs: Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, Math.round(a.ms)])),
      downMs,
      readyAfterRestartMs: readyAfterMs,
      statusAfterRestartMs: statusAfterMs,
      crawlDoneAfterRestartMs: Date.now() - crawlStart + statusAfterMs,
      pageFetches: site.hits.filter((h) => h.path !== '/robots.txt').length,
      fetchesBeforeStop: hitsWhileDown,
    });
  }, 300_000);
});

describe('Temporal stopped and restarted', () => {
  it('answers 503 to crawl starts within a bound while it is down, and scrapes still work (they do not go through Temporal); the running crawl completes with every page once', async () => {
    const dir = tempDir('pagewright-faults-temporal-');
    // A SQLite file keeps workflows across the restart; continue-as-new comes early, as in the other tests.
    const options: TemporalOptions = { cliPath: inject('temporalCliPath'), port: await freePort(), dbFile: join(dir, 'temporal.db'), extraArgs: testDynamicConfig };
    let temporal = await startTemporal(options);
    cleanups.push(() => temporal.stop());
    const PAGES = 150;
    const site = await startCrawlSite(treeSite(PAGES, 30));
    cleanups.push(() => site.close());
    const stack = await startTestStack({ TEMPORAL_ADDRESS: temporal.address, WORKER_CONCURRENCY: '4' });
    cleanups.push(() => stack.close());

    const id = await startCrawl(stack, { url: site.url, limit: PAGES, maxDepth: 20 });
    await waitFor(() => site.hits.length >= 30, 60_000);
    await temporal.stop();
    const downAt = Date.now();

    const scrape = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/p/1`, timeout: 10_000 } });
    expect(scrape.status).toBe(200);
    expect((scrape.body.data as { metadata: { statusCode: number } }).metadata.statusCode).toBe(200);
    // A scrape with webhooks needs Temporal for their durable delivery: 503, saying the page itself was scraped.
    const hooked = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/p/1`, timeout: 10_000, webhookUrls: [`${site.url}/hook`] } });
    expect(hooked.status).toBe(503);
    expect(hooked.body.error).toMatch(/^The page was scraped \(scrape_id [0-9a-f-]{36}\), but its webhook deliveries could not be scheduled \(Temporal\)/);
    // With an idempotency key: the failed start frees it, so the same request retried later runs.
    const retryKey = { 'x-idempotency-key': `faults-${Date.now()}` };
    const crawl = await call(stack, 'POST', '/v1/crawl', { body: { url: site.url, limit: 5 }, headers: retryKey });
    expect(crawl.status).toBe(503);
    expect(crawl.body).toMatchObject({ success: false, code: 'service_unavailable' });
    expect(crawl.body.error).toMatch(/Temporal/);
    expect(crawl.retryAfter).toBe('5');
    expect(crawl.ms).toBeLessThan(8_000);
    // Status reads come from PostgreSQL only, so polling keeps working.
    const polled = await call(stack, 'GET', `/v1/crawl/${id}?limit=1`);
    expect(polled.status).toBe(200);
    expect(polled.body.status).toBe('scraping');

    await new Promise((r) => setTimeout(r, Math.max(0, 5000 - (Date.now() - downAt))));
    temporal = await startTemporal(options);
    const downMs = Date.now() - downAt;
    const restartedAt = Date.now();
    const status = await waitForCrawl(stack, id, 240_000);
    expect(status).toMatchObject({ status: 'completed', completed: PAGES, total: PAGES, failed: 0 });
    await expectEveryPageOnce(stack, id, PAGES);
    const scrapeAfter = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/p/1` } });
    expect(scrapeAfter.status).toBe(200);
    const retried = await call(stack, 'POST', '/v1/crawl', { body: { url: site.url, limit: 5 }, headers: retryKey });
    expect(retried.status).toBe(200);
    expect(await waitForCrawl(stack, retried.body.id as string, 120_000)).toMatchObject({ status: 'completed', completed: 5, total: 5 });
    report('temporal', {
      scrapeWhileDownMs: Math.round(scrape.ms),
      crawl503Ms: Math.round(crawl.ms),
      downMs,
      crawlDoneAfterRestartMs: Date.now() - restartedAt,
      pageFetches: site.hits.filter((h) => h.path !== '/robots.txt').length,
    });
  }, 400_000);
});

describe('browser service killed or hung', () => {
  const TOKEN = 'faults-browser-token-0123456789';

  async function startBrowserService(port: number, logFile: string): Promise<Child> {
    const child = spawnChild({
      name: 'browser',
      command: process.execPath,
      args: ['--import', 'tsx', 'browser-service/main.ts'],
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', ...testEnv({ PORT: String(port), BROWSER_ENGINE_TOKEN: TOKEN, ALLOW_PRIVATE_ADDRESSES: 'true', LOG_LEVEL: 'info' }) },
      logFile,
      stopSignal: 'SIGKILL', // stop() is a crash: no draining
    });
    await waitUntilReady('browser service', async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, { timeoutMs: 60_000, intervalMs: 250, child });
    return child;
  }

  it('a scrape that needs a browser falls back to the worker’s own Chromium (local_browser)', async () => {
    const port = await freePort();
    const service = await startBrowserService(port, join(tempDir('pagewright-faults-browser-'), 'browser.log'));
    cleanups.push(() => service.stop());
    const site = await startSite();
    cleanups.push(() => site.close());
    const stack = await startTestStack({ BROWSER_ENGINE_URL: `http://127.0.0.1:${port}`, BROWSER_ENGINE_TOKEN: TOKEN });
    cleanups.push(() => stack.close());

    const engineOf = (a: Answer) => (a.body.data as { metadata: { engine: string } } | undefined)?.metadata.engine;
    const before = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/spa` } });
    expect(before.status).toBe(200);
    expect(engineOf(before)).toBe('remote');

    await service.stop();
    const spa = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/spa` } });
    expect(spa.status).toBe(200);
    expect(engineOf(spa)).toBe('local_browser');
    expect((spa.body.data as { markdown: string }).markdown).toContain('# Rendered by script');
    const shot = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/tall`, formats: ['screenshot'] } });
    expect(shot.status).toBe(200);
    expect(engineOf(shot)).toBe('local_browser');
    expect((shot.body.data as { screenshot: string }).screenshot.length).toBeGreaterThan(1000);
    report('browser', { remoteMs: Math.round(before.ms), fallbackSpaMs: Math.round(spa.ms), fallbackScreenshotMs: Math.round(shot.ms) });
  }, 180_000);

  it('a browser service that accepts the request but never answers still leaves local_browser time to render', async () => {
    // Takes the render request and holds it open forever, like a wedged service behind a load balancer.
    // Without a share of the budget, remote would hold all 40 s and the answer would be 408.
    const hung = await startFixtureServer({ '/render': () => undefined });
    cleanups.push(() => hung.close());
    const site = await startSite();
    cleanups.push(() => site.close());
    const stack = await startTestStack({ BROWSER_ENGINE_URL: hung.url, BROWSER_ENGINE_TOKEN: TOKEN });
    cleanups.push(() => stack.close());

    const answer = await call(stack, 'POST', '/v1/scrape', { body: { url: `${site.url}/tall`, formats: ['screenshot'], timeout: 40_000 } });
    expect(answer.body.error).toBeUndefined();
    expect(answer.status).toBe(200);
    expect((answer.body.data as { metadata: { engine: string } }).metadata.engine).toBe('local_browser');
    expect(hung.hitsFor('/render')).toHaveLength(1);
    report('browser-hung', { ms: Math.round(answer.ms) });
  }, 120_000);
});
