/**
 * Load check: `--clients` concurrent keep-alive clients for `--duration` seconds per round, half of them
 * sending POST /v1/scrape (fetch engine, markdown, a ~20 KB page on loopback), half polling
 * GET /v1/crawl/{id} on crawls started at the beginning (running, then finished with documents to
 * page through). Prints throughput, p50/p99 latency and status counts per endpoint, and the RSS of
 * the API and worker processes before, at peak, right after the load and after `--settle` idle
 * seconds (after the crawls have finished). Fails (exit 1) on any 5xx, network error or unexpected
 * status, or when memory keeps growing: the settled RSS after the last round more than 64 MB above
 * anything seen before that round (with one round: above the warm start).
 *
 *   npm run bench:load [-- --clients 16 --duration 30 --settle 30 --rounds 2 --worker-concurrency 4]
 *
 * Defaults: 60 s of load in two rounds, about 4 minutes in all with start-up and the settling.
 *
 * Like bench/scrape.ts: its own PostgreSQL, Redis and Temporal dev server on free ports with
 * throwaway data (tool paths from STACK_PG_BIN_DIR, STACK_REDIS_SERVER, STACK_TEMPORAL_CLI); unlike
 * it, the API (api/main.ts) and the worker (worker/main.ts) run as processes of their own, as deployed,
 * so each one's memory is its own. Rate limits are off (throwawayEnv): this measures the service,
 * not the limiter. The load comes in rounds because a heap first grows to its working set: a leak
 * keeps climbing round after round, a warm heap levels off.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createKey } from '../api/keys-store.js';
import { createPrisma } from '../prisma/client.js';
import { installSignalCleanup, spawnChild, type Child } from '../scripts/infra/child.js';
import { startWorkerProcess, throwawayEnv } from '../scripts/infra/throwaway.js';
import { readPidFile } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort, waitUntilReady } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { inheritedEnv, loadStackConfig, repoRoot, toolPath } from '../scripts/stack-config.js';
import { articlePage } from './html-fixture.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '16' },
    duration: { type: 'string', default: '30' },
    settle: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '2' },
    crawls: { type: 'string', default: '4' },
    'crawl-pages': { type: 'string', default: '200' },
    'worker-concurrency': { type: 'string', default: '4' },
  },
});
const CLIENTS = Number(args.clients);
const DURATION_MS = Number(args.duration) * 1000;
const SETTLE_MS = Number(args.settle) * 1000;
const ROUNDS = Number(args.rounds);
/** Memory that grew by more than this over the whole run, and stayed, fails the check. */
const GROWTH_LIMIT_MB = 64;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

installSignalCleanup();
const stack = loadStackConfig();
const root = mkdtempSync(join(tmpdir(), 'pagewright-load-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const cleanups: Array<() => Promise<unknown>> = [];

// ---------------------------------------------------------------------------------------------
// The target pages: one ~20 KB article for scrapes, and a small site (a binary tree of tiny pages
// under /site/) for the crawls whose status the pollers read.

const article = Buffer.from(articlePage(20_000));
const sitePage = (i: number, n: number) =>
  `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1><p>${'Some text. '.repeat(40)}</p>${[2 * i + 1, 2 * i + 2]
    .filter((c) => c < n)
    .map((c) => `<a href="/site/${c}">page ${c}</a>`)
    .join(' ')}</body></html>`;
function startFixture(sitePages: number) {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/article') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': article.byteLength }).end(article);
    const m = /^\/site\/(\d*)$/.exec(path);
    const i = m ? Number(m[1] || 0) : NaN;
    if (Number.isInteger(i) && i < sitePages) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(sitePage(i, sitePages));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  return new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))).then((url) => {
    cleanups.push(() => new Promise((r) => server.close(r)));
    return url;
  });
}

// ---------------------------------------------------------------------------------------------
// Memory of a process: its own RSS, and with its children (the worker's convert threads are
// inside it; Chromium, were it started, would be a child).

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds (user + system) used so far by a process, and by its live children when asked (PostgreSQL's backends). */
function cpuSeconds(pid: number, withChildren = false): number {
  const own = (p: number) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
    } catch {
      return undefined;
    }
  };
  let total = own(pid)?.cpu ?? 0;
  if (withChildren) for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) if (own(Number(d))?.ppid === pid) total += own(Number(d))!.cpu;
  return total;
}

interface Sample {
  api: number;
  worker: number;
}

interface EndpointStats {
  latencies: number[];
  statuses: Record<string, number>;
  networkErrors: string[];
}

async function main(): Promise<number> {
  const [pgPort, redisPort, temporalPort, apiPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const pidDir = join(root, 'run');
  const timeoutMs = stack.STACK_READY_TIMEOUT_MS;
  console.log('starting PostgreSQL, Redis and the Temporal dev server ...');
  const [pg, redis, temporal] = await Promise.all([
    startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_load', ephemeral: true, pidDir, timeoutMs }),
    startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
    startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), pidDir, timeoutMs }),
  ]);
  cleanups.push(() => pg.stop(), () => redis.stop(), () => temporal.stop());
  await applyMigrations(pg.url);
  const crawlPages = Number(args['crawl-pages']);
  const fixtureUrl = await startFixture(crawlPages);

  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const env = {
    ...throwawayEnv('load', { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }, apiUrl),
    PATH: inheritedEnv().PATH,
    API_HOST: '127.0.0.1',
    API_PORT: String(apiPort),
    // The fixture is on loopback.
    ALLOW_PRIVATE_ADDRESSES: 'true',
    WORKER_CONCURRENCY: args['worker-concurrency'],
    LOG_LEVEL: 'info',
  };
  console.log('starting worker/main.ts and api/main.ts ...');
  const startApi = async (): Promise<Child> => {
    const child = spawnChild({ name: 'api', command: process.execPath, args: ['--import', 'tsx', 'api/main.ts'], cwd: repoRoot, env, logFile: join(root, 'api.log'), pidDir });
    cleanups.push(() => child.stop());
    await waitUntilReady('api', async () => (await fetch(`${apiUrl}/health`)).ok, { timeoutMs: 180_000, intervalMs: 250, child });
    return child;
  };
  const [worker, api] = await Promise.all([
    startWorkerProcess({ env, logFile: join(root, 'worker.log'), pidDir }).then((child) => {
      cleanups.push(() => child.stop());
      return child;
    }),
    startApi(),
  ]);
  const prisma = createPrisma(pg.url);
  cleanups.push(() => prisma.$disconnect());
  const { key } = await createKey(prisma, 'load', env.API_KEY_PEPPER);

  const agent = new Agent({ connections: CLIENTS + 4, keepAliveTimeout: 30_000 });
  cleanups.push(() => agent.close());
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await request(`${apiUrl}${path}`, { method, dispatcher: agent, headers, body: body === undefined ? undefined : JSON.stringify(body), headersTimeout: 120_000, bodyTimeout: 120_000 });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };
  const scrapeBody = { url: `${fixtureUrl}/article`, formats: ['markdown'] };
  const startCrawls = async (count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const started = await call('POST', '/v1/crawl', { url: `${fixtureUrl}/site/`, limit: crawlPages, maxDepth: 20 });
      if (started.status !== 200) throw new Error(`POST /v1/crawl answered ${started.status}: ${JSON.stringify(started.body)}`);
      ids.push(started.body.id as string);
    }
    return ids;
  };
  // Warm-up, so "before" is a warm process (code loaded, pools and caches filled), not a cold one:
  // scrapes, and one crawl polled to its end.
  console.log('warming up ...');
  for (let i = 0; i < 20; i++) {
    const warm = await call('POST', '/v1/scrape', scrapeBody);
    if (warm.status !== 200) throw new Error(`warm-up scrape answered ${warm.status}: ${JSON.stringify(warm.body)}`);
  }
  const [warmCrawl] = await startCrawls(1);
  for (let deadline = Date.now() + 120_000; (await call('GET', `/v1/crawl/${warmCrawl}`)).body.status === 'scraping'; ) {
    if (Date.now() > deadline) throw new Error('warm-up crawl did not finish within 120 s');
    await sleep(250);
  }
  await sleep(5000);
  const sample = (): Sample => ({ api: rssMb(api.pid!), worker: rssMb(worker.pid!) });
  const memory: { label: string; at: Sample }[] = [{ label: 'before', at: sample() }];

  const stats: Record<'scrape' | 'status', EndpointStats> = {
    scrape: { latencies: [], statuses: {}, networkErrors: [] },
    status: { latencies: [], statuses: {}, networkErrors: [] },
  };
  const expected = { scrape: 200, status: 200 };
  let measuredMs = 0;
  const pidOf = (name: string) => readPidFile(pidDir, name)?.pid ?? -1;
  const cpuNow = () => {
    const self = process.cpuUsage();
    return { api: cpuSeconds(api.pid!), worker: cpuSeconds(worker.pid!), postgres: cpuSeconds(pidOf('postgres'), true), temporal: cpuSeconds(pidOf('temporal')), bench: (self.user + self.system) / 1e6 };
  };
  const cpuUsed = { api: 0, worker: 0, postgres: 0, temporal: 0, bench: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const crawlIds = await startCrawls(Number(args.crawls));
    let peak = sample();
    const sampler = setInterval(() => {
      const s = sample();
      peak = { api: Math.max(peak.api, s.api), worker: Math.max(peak.worker, s.worker) };
    }, 500);
    const cpuBefore = cpuNow();
    const began = performance.now();
    const until = began + DURATION_MS;
    const timedCall = async (which: 'scrape' | 'status', fn: () => Promise<{ status: number }>) => {
      const t = performance.now();
      try {
        const { status } = await fn();
        stats[which].latencies.push(performance.now() - t);
        stats[which].statuses[status] = (stats[which].statuses[status] ?? 0) + 1;
      } catch (err) {
        stats[which].networkErrors.push((err as Error).message);
      }
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let n = 0; performance.now() < until; n++) {
          if (c % 2 === 0) await timedCall('scrape', () => call('POST', '/v1/scrape', scrapeBody));
          else await timedCall('status', () => call('GET', `/v1/crawl/${crawlIds[(c + n) % crawlIds.length]}`));
        }
      }),
    );
    measuredMs += performance.now() - began;
    const cpuAfter = cpuNow();
    for (const k of Object.keys(cpuUsed) as (keyof typeof cpuUsed)[]) cpuUsed[k] += cpuAfter[k] - cpuBefore[k];
    clearInterval(sampler);
    memory.push({ label: `peak in round ${round}`, at: peak }, { label: `after round ${round}`, at: sample() });
    // Idle means idle: the crawls finish first (the worker keeps crawling after the load stops).
    const drained = performance.now();
    const states = async () => Promise.all(crawlIds.map(async (id) => (await call('GET', `/v1/crawl/${id}?limit=1`)).body.status as string));
    while ((await states()).includes('scraping') && performance.now() - drained < 300_000) await sleep(1000);
    console.log(`round ${round}: crawls ${(await states()).join(', ')} ${((performance.now() - drained) / 1000).toFixed(0)} s after the load stopped`);
    await sleep(SETTLE_MS);
    memory.push({ label: `after round ${round} + ${SETTLE_MS / 1000} s idle`, at: sample() });
  }

  // -------------------------------------------------------------------------------------------
  console.log(`\n${CLIENTS} clients (${Math.ceil(CLIENTS / 2)} scraping, ${Math.floor(CLIENTS / 2)} polling), ${ROUNDS} x ${DURATION_MS / 1000} s, WORKER_CONCURRENCY ${args['worker-concurrency']}, page ${(article.byteLength / 1024).toFixed(1)} KiB`);
  console.log(`\n${'endpoint'.padEnd(22)}${'requests'.padStart(9)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}  statuses / network errors`);
  let failures = 0;
  for (const [name, label] of [['scrape', 'POST /v1/scrape'], ['status', 'GET /v1/crawl/{id}']] as const) {
    const s = stats[name];
    const unexpected = Object.entries(s.statuses).filter(([code]) => Number(code) !== expected[name]).reduce((a, [, n]) => a + n, 0);
    const serverErrors = Object.entries(s.statuses).filter(([code]) => Number(code) >= 500).reduce((a, [, n]) => a + n, 0);
    failures += unexpected + s.networkErrors.length;
    console.log(
      `${label.padEnd(22)}${String(s.latencies.length).padStart(9)}${(s.latencies.length / (measuredMs / 1000)).toFixed(1).padStart(8)}${pct(s.latencies, 50).toFixed(1).padStart(9)}${pct(s.latencies, 99).toFixed(1).padStart(9)}${Math.max(...s.latencies).toFixed(1).padStart(9)}  ${JSON.stringify(s.statuses)} / ${s.networkErrors.length}; 5xx: ${serverErrors}`,
    );
    for (const e of [...new Set(s.networkErrors)].slice(0, 5)) console.log(`    network error: ${e}`);
  }
  const wall = measuredMs / 1000;
  console.log(`\nCPU under load, in cores (2 = both cores of this machine busy): ${Object.entries(cpuUsed).map(([k, v]) => `${k} ${(v / wall).toFixed(2)}`).join(', ')}`);
  console.log(`\nRSS (MB)${''.padEnd(30)}${'API'.padStart(8)}${'worker'.padStart(8)}`);
  for (const { label, at } of memory) {
    console.log(`  ${label.padEnd(36)}${at.api.toFixed(0).padStart(8)}${at.worker.toFixed(0).padStart(8)}`);
  }
  // A heap grows to its working set, then swings within it as the collector runs (about 100 MB
  // here); a leak keeps setting new highs. So the settled value after the last round is compared
  // with the highest value seen before that round (the warm start, earlier peaks and settles).
  const last = memory[memory.length - 1]!;
  const earlier = memory.slice(0, -3);
  const high = { api: Math.max(...earlier.map((m) => m.at.api)), worker: Math.max(...earlier.map((m) => m.at.worker)) };
  const grew = (['api', 'worker'] as const).filter((p) => last.at[p] - high[p] > GROWTH_LIMIT_MB);
  console.log(
    `\nRSS "${last.label}" above the highest before round ${ROUNDS}: API ${(last.at.api - high.api).toFixed(0)} MB, worker ${(last.at.worker - high.worker).toFixed(0)} MB (limit +${GROWTH_LIMIT_MB} MB): ${grew.length ? `GREW: ${grew.join(', ')}` : 'settled'}`,
  );
  console.log(failures || grew.length ? `\nFAIL: ${failures} failed requests${grew.length ? ', memory grew' : ''}` : '\nPASS: no 5xx, no errors, memory settled');
  return failures || grew.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(err);
} finally {
  for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => console.error('teardown:', err));
  rmSync(root, { recursive: true, force: true });
}
process.exit(code);
