/**
 * End-to-end scrape latency: `POST /v1/scrape` (fetch engine, `formats: ['markdown']`, a ~20 KB
 * page on loopback) through the real API, a real worker (called directly on its scrape endpoint,
 * README "Scrape path"), Redis and PostgreSQL, beside the floor any service has to pay: one bare
 * undici GET of the same page plus turndown, in one process. Targets (issue 15): the service adds
 * at most 10 ms at p50 and 25 ms at p95 over that baseline; at the concurrency given (16 for the
 * target) it serves at least half the baseline's requests per second at most twice its CPU.
 * Also converter throughput on the same page: our pipeline (processPage) against plain turndown;
 * page cache hits against `GET /health` on the same stack (issue 24: within 5 ms at p50); and a
 * page read with five browser actions through local_browser, beside the same page in the browser
 * without them and bare Playwright doing the same actions on the same Chromium.
 *
 *   npm run bench:scrape [-- --requests 200 --concurrency 4 --convert pool|inline --worker inprocess|process]
 *
 * Starts its own PostgreSQL, Redis and Temporal dev server on free ports with throwaway data
 * (tool paths as for the tests: STACK_PG_BIN_DIR, STACK_REDIS_SERVER, STACK_TEMPORAL_CLI), runs
 * the API in this process and the worker in it too (or, with `--worker process`, as worker/main.ts in
 * a process of its own, as deployed), and removes everything when done. Where the service's
 * time goes comes from timers around the worker's fetch and conversion; the rest is the API, the
 * call to the worker and the store.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import TurndownService from 'turndown';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { ConvertPage } from '../core/html/types.js';
import { convertInline, createConvertPool, defaultConvertThreads } from '../worker/convert-pool.js';
import { createEngineSet } from '../activities/engines/index.js';
import { startBrowserRuntime } from '../browser/runtime.js';
import { createApp } from '../api/app.js';
import { createApiDeps } from '../api/deps.js';
import { createKey } from '../api/keys-store.js';
import { loadConfig, type RequiredFor } from '../core/config.js';
import { SCRAPE_ENDPOINT_PATH, scrapeWorkersKey } from '../core/contracts.js';
import { processPage } from '../core/html/index.js';
import { createLogger } from '../core/log.js';
import { createPrisma } from '../prisma/client.js';
import { installSignalCleanup } from '../scripts/infra/child.js';
import { startWorkerProcess, throwawayEnv } from '../scripts/infra/throwaway.js';
import { readPidFile } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { loadStackConfig, toolPath } from '../scripts/stack-config.js';
import { createWorker } from '../worker/main.js';
import { threadCpuByTid, threadCpuSince } from './crawl-measure.js';
import { articlePage } from './html-fixture.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '30' },
    convert: { type: 'string', default: 'pool' },
    /** `inprocess`: the worker runs in this process; `process`: `node --import tsx worker/main.ts`, as deployed. */
    worker: { type: 'string', default: 'inprocess' },
    /** Extra Temporal dynamic config, KEY=VALUE, repeatable (e.g. system.enableActivityEagerExecution=true). */
    'temporal-config': { type: 'string', multiple: true, default: [] },
    /** Whole-run budget in seconds: the measured phases stop early (and say so) past it. */
    budget: { type: 'string', default: '300' },
  },
});
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const WARMUP = Number(args.warmup);
const deadline = Date.now() + Number(args.budget) * 1000;
const TARGET_P50_MS = 10;
const TARGET_P95_MS = 25;
const TARGET_CACHE_HIT_MS = 5;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

// ---------------------------------------------------------------------------------------------
// Infrastructure: the same services and settings as the vitest global setup, on free ports.

Runtime.install({ logger: new DefaultLogger('WARN') });
installSignalCleanup();
const stack = loadStackConfig();
const root = mkdtempSync(join(tmpdir(), 'pagewright-bench-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const cleanups: Array<() => Promise<unknown>> = [];
const teardown = async () => {
  for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => console.error('teardown:', err));
  rmSync(root, { recursive: true, force: true });
};

const html = articlePage(20_000);
const page = Buffer.from(html);
/** The page the actions phase reads: the article, with a button that adds a paragraph. */
const actionsPage = Buffer.from(
  html.replace('</body>', '<button id="more" type="button">More</button><script>document.getElementById("more").onclick = () => document.body.insertAdjacentHTML("beforeend", "<p id=added>Added by the button.</p>");</script></body>'),
);
const fixture: Server = createServer((req, res) => {
  const body = req.url === '/actions' ? actionsPage : page;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.byteLength });
  res.end(body);
});

async function main(): Promise<void> {
  const [pgPort, redisPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const timeoutMs = stack.STACK_READY_TIMEOUT_MS;
  console.log('starting PostgreSQL, Redis and the Temporal dev server ...');
  const pidDir = join(root, 'run');
  const extraArgs = args['temporal-config'].flatMap((kv) => ['--dynamic-config-value', kv]);
  const [pg, redis, temporal] = await Promise.all([
    startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_bench', ephemeral: true, pidDir, timeoutMs }),
    startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
    startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), extraArgs, pidDir, timeoutMs }),
  ]);
  cleanups.push(() => pg.stop(), () => redis.stop(), () => temporal.stop());
  await applyMigrations(pg.url);

  fixture.listen(0, '127.0.0.1');
  await new Promise((resolve) => fixture.once('listening', resolve));
  cleanups.push(() => new Promise((resolve) => fixture.close(resolve)));
  const pageUrl = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}/article`;

  const env = {
    ...throwawayEnv('bench', { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }),
    // The fixture page is on loopback.
    ALLOW_PRIVATE_ADDRESSES: 'true',
  };

  const workerConfig = loadConfig('worker', { env });
  const stages = { fetch: [] as number[], convert: [] as number[] };
  let convertMode = `in a separate worker process (worker/main.ts main(): a pool of ${defaultConvertThreads(workerConfig.WORKER_CONCURRENCY)} thread(s))`;
  if (args.worker === 'process') {
    const worker = await startWorkerProcess({ env, logFile: join(root, 'worker.log'), pidDir });
    cleanups.push(() => worker.stop());
  }
  else convertMode = await startWorkerInProcess(workerConfig, stages);
  const cpu = cpuMeter(pidDir);

  // The API, as api/main.ts builds it.
  const apiConfig = loadConfig('api', { env });
  const deps = createApiDeps(apiConfig, createLogger({ name: 'bench-api', level: 'warn' }));
  const { prisma: apiPrisma } = deps;
  const server = createApp(deps).app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await deps.close();
  });
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createKey(apiPrisma, 'bench', apiConfig.API_KEY_PEPPER);

  // One keep-alive client for both sides, so client overhead is the same in each.
  const agent = new Agent({ connections: CONCURRENCY + 2 });
  cleanups.push(() => agent.close());
  const turndown = new TurndownService();
  const scrape = async (): Promise<number> => {
    const start = performance.now();
    const res = await request(`${apiUrl}/v1/scrape`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl, formats: ['markdown'] }),
    });
    const body = (await res.body.json()) as { success?: boolean; scrape_id?: string; data?: { markdown?: string }; error?: string };
    const took = performance.now() - start;
    if (res.statusCode !== 200 || !body.success || !body.data?.markdown) throw new Error(`scrape answered ${res.statusCode}: ${body.error ?? JSON.stringify(body).slice(0, 200)}`);
    return took;
  };
  // The worker's scrape endpoint called directly, as the API calls it: the service minus this is the API's share.
  const [announced] = await deps.redis.zrangebyscore(scrapeWorkersKey(apiConfig.TEMPORAL_TASK_QUEUE), Date.now(), '+inf');
  const workerUrl = announced?.split(' ')[0]; // `<url> <until> <signature>` (core/scrape-announcement.ts)
  if (!workerUrl) throw new Error('no worker announced its scrape endpoint');
  const direct = async (): Promise<number> => {
    const start = performance.now();
    const timeoutMs = 30_000;
    const input = { scrapeId: randomUUID(), url: pageUrl, options: { formats: ['markdown'] }, timeoutMs, deadline: Date.now() + timeoutMs, owner: 'key:bench' };
    const res = await request(`${workerUrl}${SCRAPE_ENDPOINT_PATH}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${apiConfig.SCRAPE_SERVICE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    await res.body.json();
    if (res.statusCode !== 200) throw new Error(`worker endpoint answered ${res.statusCode}`);
    return performance.now() - start;
  };
  const baseline = async (): Promise<number> => {
    const start = performance.now();
    const res = await request(pageUrl, { dispatcher: agent });
    const markdown = turndown.turndown(await res.body.text());
    if (res.statusCode !== 200 || !markdown) throw new Error(`baseline fetch answered ${res.statusCode}`);
    return performance.now() - start;
  };

  console.log(`warming up (${WARMUP} requests each) ...`);
  for (let i = 0; i < WARMUP; i++) {
    await scrape();
    await baseline();
  }
  stages.fetch.length = stages.convert.length = 0;

  // Sequential, alternating service, worker endpoint and baseline, so a change in machine load hits all alike.
  const seq = { service: [] as number[], direct: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < REQUESTS && Date.now() < deadline; i++) {
    seq.service.push(await scrape());
    seq.direct.push(await direct());
    seq.baseline.push(await baseline());
  }
  const seqStages = { fetch: [...stages.fetch], convert: [...stages.convert] };

  // Concurrent: CONCURRENCY requests in flight, REQUESTS in all, each side on its own.
  const concurrent = async (call: () => Promise<number>) => {
    const out: number[] = [];
    let next = 0;
    const [, wall] = await timed(() =>
      Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < REQUESTS && Date.now() < deadline) {
            next++;
            out.push(await call());
          }
        }),
      ),
    );
    return { latencies: out, perSec: out.length / (wall / 1000) };
  };
  const cpuBefore = cpu();
  // The process the worker runs in: this one, or its own (--worker process).
  const workerPid = args.worker === 'process' ? readPidFile(pidDir, 'worker')!.pid : process.pid;
  const threadsBefore = threadCpuByTid(workerPid);
  const concService = await concurrent(scrape);
  const cpuPerRequest = cpu().map(([name, used], i) => [name, (used - cpuBefore[i][1]) / concService.latencies.length] as const);
  const threadsPerRequest = threadCpuSince(workerPid, threadsBefore, threadCpuByTid(workerPid), concService.latencies.length, defaultConvertThreads(workerConfig.WORKER_CONCURRENCY));
  const cpuBaselineBefore = process.cpuUsage();
  const concBaseline = await concurrent(baseline);
  const baselineCpu = process.cpuUsage(cpuBaselineBefore);
  const conc = { service: concService, baseline: concBaseline };

  // Converter throughput on the same page, after the runs above have warmed both up.
  const throughput = async (fn: () => unknown) => {
    let runs = 0;
    const start = performance.now();
    while (performance.now() - start < 2000 || runs < 50) {
      await fn();
      runs++;
    }
    const perPage = (performance.now() - start) / runs;
    return { perPage, mbPerSec: page.byteLength / 1e6 / (perPage / 1000) };
  };
  const cacheHits = await cachePhase(apiUrl, key, pageUrl, agent);
  const actionsRun = await actionsPhase(apiUrl, key, pageUrl.replace('/article', '/actions'), agent, stack.STACK_CHROMIUM_PATH);

  const ours = await throughput(() => processPage({ body: page, contentType: 'text/html; charset=utf-8', url: pageUrl, formats: new Set(['markdown']) }));
  const plain = await throughput(() => turndown.turndown(html));


  // -------------------------------------------------------------------------------------------
  const p50s = pct(seq.service, 50);
  const p50b = pct(seq.baseline, 50);
  const partial = Date.now() >= deadline ? ` (stopped early at the ${args.budget} s budget)` : '';
  console.log(`\npage ${(page.byteLength / 1024).toFixed(1)} KiB; conversion ${convertMode}; WORKER_CONCURRENCY ${workerConfig.WORKER_CONCURRENCY}${partial}`);
  console.log(`\n${''.padEnd(34)}${'n'.padStart(6)} ${'p50'.padStart(10)} ${'p95'.padStart(10)} ${'req/s'.padStart(8)}`);
  const line = (label: string, xs: number[], perSec?: number) =>
    console.log(`${label.padEnd(34)}${String(xs.length).padStart(6)} ${ms(pct(xs, 50))} ${ms(pct(xs, 95))} ${perSec === undefined ? '' : perSec.toFixed(1).padStart(8)}`);
  line('service POST /v1/scrape, sequential', seq.service);
  line('worker scrape endpoint, seq.', seq.direct);
  line('baseline undici + turndown, seq.', seq.baseline);
  line(`service, concurrency ${CONCURRENCY}`, conc.service.latencies, conc.service.perSec);
  line(`baseline, concurrency ${CONCURRENCY}`, conc.baseline.latencies, conc.baseline.perSec);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const p95Over = pct(seq.service, 95) - pct(seq.baseline, 95);
  console.log(`\nsequential p50: service/baseline x${(p50s / p50b).toFixed(1)}, service adds ${(p50s - p50b).toFixed(1)} ms (target <= ${TARGET_P50_MS} ms: ${verdict(p50s - p50b <= TARGET_P50_MS)})`);
  console.log(`p95: service adds ${p95Over.toFixed(1)} ms (target <= ${TARGET_P95_MS} ms: ${verdict(p95Over <= TARGET_P95_MS)})`);
  const throughputRatio = conc.service.perSec / conc.baseline.perSec;
  console.log(`concurrency ${CONCURRENCY}: service/baseline throughput x${throughputRatio.toFixed(2)} (target >= 0.50: ${verdict(throughputRatio >= 0.5)})`);
  console.log(`\nmarkdown conversion of the page: processPage ${ours.mbPerSec.toFixed(2)} MB/s (${ours.perPage.toFixed(2)} ms/page), turndown ${plain.mbPerSec.toFixed(2)} MB/s (${plain.perPage.toFixed(2)} ms/page), ours/turndown x${(ours.mbPerSec / plain.mbPerSec).toFixed(2)}`);

  const hitOver = pct(cacheHits.hit, 50) - pct(cacheHits.health, 50);
  console.log(`\npage cache (issue 24), sequential, alternating:`);
  line('GET /health', cacheHits.health);
  line('POST /v1/scrape, cache hit (maxAge)', cacheHits.hit);
  console.log(`a cache hit adds ${hitOver.toFixed(1)} ms at p50 over /health (target <= ${TARGET_CACHE_HIT_MS} ms: ${verdict(hitOver <= TARGET_CACHE_HIT_MS)}); the live scrape above adds ${(p50s - pct(cacheHits.health, 50)).toFixed(1)} ms`);
  console.log(`\nbrowser actions (issue 24): the same page, 5 actions (click, wait for the selector, scroll, executeJavascript, scrape), sequential:`);
  line('service, local_browser, 5 actions', actionsRun.service);
  line('service, local_browser, no actions', actionsRun.plain);
  line('bare Playwright: goto + the 5 actions', actionsRun.bare);
  const actionsOver = pct(actionsRun.service, 50) - pct(actionsRun.plain, 50);
  console.log(`the actions add ${actionsOver.toFixed(1)} ms at p50 to the service's browser scrape; the same actions in bare Playwright take ${(pct(actionsRun.bare, 50) - pct(actionsRun.bareGoto, 50)).toFixed(1)} ms over its goto (${pct(actionsRun.bareGoto, 50).toFixed(1)} ms)`);

  const totalCpu = cpuPerRequest.reduce((a, [, v]) => a + v, 0);
  const baselineCpuMs = (baselineCpu.user + baselineCpu.system) / 1000 / concBaseline.latencies.length;
  console.log(`\nCPU per request in the concurrency-${CONCURRENCY} run (all cores): service ${totalCpu.toFixed(1)} ms = ${cpuPerRequest.map(([n, v]) => `${n} ${v.toFixed(1)}`).join(' + ')}; baseline ${baselineCpuMs.toFixed(1)} ms; x${(totalCpu / baselineCpuMs).toFixed(2)} (target <= 2: ${verdict(totalCpu / baselineCpuMs <= 2)})`);
  console.log(`  the worker's process by thread: main ${threadsPerRequest.main.toFixed(1)} ms, the busiest others (the conversion threads) ${threadsPerRequest.top.map((v) => v.toFixed(1)).join(' + ')} ms, the rest (V8's GC and compiler helpers, the libuv pool) ${threadsPerRequest.rest.toFixed(1)} ms`);
  if (seqStages.fetch.length) {
    const fetchMs = pct(seqStages.fetch, 50);
    const convertMs = pct(seqStages.convert, 50);
    console.log(`\nwhere a sequential request's time goes (medians):`);
    console.log(`  ${'the fetch engine (worker-side timer)'.padEnd(58)} ${ms(fetchMs)}`);
    console.log(`  ${'conversion (worker-side timer)'.padEnd(58)} ${ms(convertMs)}`);
    const directMs = pct(seq.direct, 50);
    console.log(`  ${'the worker’s rest: its HTTP, the pipeline around fetch and conversion, the store'.padEnd(58)} ${ms(directMs - fetchMs - convertMs)}`);
    console.log(`  ${'the API’s share: its HTTP, auth, rate limit, validation, the call'.padEnd(58)} ${ms(p50s - directMs)}`);
  }
}

/** POST a scrape; its latency, after checking it succeeded (and, with `cacheState`, that it was a hit or a miss). */
async function timedScrape(apiUrl: string, key: string, agent: Agent, body: Record<string, unknown>, cacheState?: string): Promise<number> {
  const start = performance.now();
  const res = await request(`${apiUrl}/v1/scrape`, { method: 'POST', dispatcher: agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.body.json()) as { data?: { metadata?: { cacheState?: string } }; error?: string };
  const took = performance.now() - start;
  if (res.statusCode !== 200) throw new Error(`scrape answered ${res.statusCode}: ${answer.error}`);
  if (cacheState && answer.data?.metadata?.cacheState !== cacheState) throw new Error(`expected a cache ${cacheState}, got ${answer.data?.metadata?.cacheState}`);
  return took;
}

/** Cache hits against GET /health on the same stack, alternating (issue 24's target: within 5 ms at p50). */
async function cachePhase(apiUrl: string, key: string, pageUrl: string, agent: Agent): Promise<{ health: number[]; hit: number[] }> {
  const body = { url: pageUrl, formats: ['markdown'], maxAge: 3_600_000 };
  await timedScrape(apiUrl, key, agent, body);
  const health = async () => {
    const start = performance.now();
    const res = await request(`${apiUrl}/health`, { dispatcher: agent });
    await res.body.json();
    return performance.now() - start;
  };
  for (let i = 0; i < WARMUP; i++) await Promise.all([health(), timedScrape(apiUrl, key, agent, body, 'hit')]);
  const out = { health: [] as number[], hit: [] as number[] };
  for (let i = 0; i < REQUESTS && Date.now() < deadline; i++) {
    out.health.push(await health());
    out.hit.push(await timedScrape(apiUrl, key, agent, body, 'hit'));
  }
  return out;
}

/** Five actions through local_browser, the same page in the browser without actions, and bare Playwright doing the same on the same Chromium. */
async function actionsPhase(apiUrl: string, key: string, url: string, agent: Agent, chromiumPath: string) {
  const actions = [
    { type: 'click', selector: '#more' },
    { type: 'wait', selector: '#added' },
    { type: 'scroll', direction: 'down' },
    { type: 'executeJavascript', script: 'document.querySelectorAll("p").length' },
    { type: 'scrape' },
  ];
  const { chromium } = await import('playwright');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const bare = async (withActions: boolean) => {
    const start = performance.now();
    const tab = await context.newPage();
    await tab.goto(url, { waitUntil: 'load' });
    if (withActions) {
      await tab.click('#more');
      await tab.locator('#added').waitFor({ state: 'visible' });
      await tab.evaluate(() => window.scrollBy(0, window.innerHeight));
      await tab.evaluate('document.querySelectorAll("p").length');
      await tab.content();
    }
    await tab.content();
    await tab.close();
    return performance.now() - start;
  };
  const rounds = Math.max(5, Math.min(30, Math.floor(REQUESTS / 10)));
  const out = { service: [] as number[], plain: [] as number[], bare: [] as number[], bareGoto: [] as number[] };
  try {
    for (let i = 0; i < 3; i++) await timedScrape(apiUrl, key, agent, { url, actions });
    for (let i = 0; i < rounds && Date.now() < deadline; i++) {
      out.service.push(await timedScrape(apiUrl, key, agent, { url, actions }));
      out.plain.push(await timedScrape(apiUrl, key, agent, { url, waitFor: 1 }));
      out.bare.push(await bare(true));
      out.bareGoto.push(await bare(false));
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** The worker in this process, wired as worker/main.ts main() wires it, plus timers around fetch and conversion. */
async function startWorkerInProcess(workerConfig: RequiredFor<'worker'>, stages: { fetch: number[]; convert: number[] }): Promise<string> {
  const workerPrisma = createPrisma(workerConfig.DATABASE_URL);
  const browser = await startBrowserRuntime(workerConfig);
  const pool = args.convert === 'pool' ? createConvertPool({ threads: defaultConvertThreads(workerConfig.WORKER_CONCURRENCY) }) : undefined;
  const baseConvert: ConvertPage = pool ? pool.convert : convertInline;
  const engines = createEngineSet(workerConfig, browser.pool);
  const fetchEngine = engines.fetch;
  const nativeConnection = await NativeConnection.connect({ address: workerConfig.TEMPORAL_ADDRESS });
  const worker = await createWorker({
    config: workerConfig,
    connection: nativeConnection,
    deps: {
      config: workerConfig,
      prisma: workerPrisma,
      log: createLogger({ name: 'bench-worker', level: 'warn' }),
      engines: { ...engines, fetch: { ...fetchEngine, fetch: async (r) => stage(stages.fetch, () => fetchEngine.fetch(r)) } },
      convert: async (input) => stage(stages.convert, () => baseConvert(input)),
    },
  });
  const running = worker.run();
  cleanups.push(async () => {
    worker.shutdown();
    await running;
    await pool?.close();
    await nativeConnection.close();
    await browser.close();
    await workerPrisma.$disconnect();
  });

  return pool ? `in-process worker, on a pool of ${pool.size} thread(s)` : 'in-process worker, inline';
}

/**
 * CPU time (ms, user + system, all threads) used so far by this process and by each service the
 * bench started, from /proc; PostgreSQL counts its server processes (one per connection) too.
 * Unlike latency on a shared machine, this does not depend on what else is running.
 */
function cpuMeter(pidDir: string): () => Array<[string, number]> {
  const TICK_MS = 10; // CLK_TCK is 100 on Linux.
  const stat = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime, stime; cutime, cstime (children that exited and were waited for).
      return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) * TICK_MS, waited: (Number(fields[13]) + Number(fields[14])) * TICK_MS };
    } catch {
      return undefined;
    }
  };
  const tree = (root: number) => {
    const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
    const children = all.map((pid) => [pid, stat(pid)] as const).filter(([, s]) => s?.ppid === root);
    const own = stat(root);
    return (own ? own.cpu + own.waited : 0) + children.reduce((a, [, s]) => a + (s?.cpu ?? 0), 0);
  };
  const names = ['temporal', 'postgres', 'redis', 'worker'].filter((n) => readPidFile(pidDir, n));
  return () => {
    const self = process.cpuUsage();
    return [
      [args.worker === 'process' ? 'api+client' : 'api+worker+client', (self.user + self.system) / 1000],
      ...names.map((n) => [n, tree(readPidFile(pidDir, n)?.pid ?? -1)] as [string, number]),
    ];
  };
}

/** Runs `fn`, appending its duration (ms) to `into`. */
async function stage<T>(into: number[], fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    into.push(performance.now() - start);
  }
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await teardown();
}
// Nothing should be left running; exit now rather than wait on a stray handle.
process.exit(process.exitCode ?? 0);
