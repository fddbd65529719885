/**
 * Scale-out on one machine (issue 26): the same crawl through 1 API, then 2 API replicas behind a
 * round-robin proxy (bench/round-robin.ts), with 1, 2 and 4 worker processes, every service process
 * as deployed (bench/scale-stack.ts). On 2 cores this measures what coordination costs, not speed.
 * Targets: from 1 to 4 workers, total CPU per page grows by at most 15 %, and no worker idles while
 * pages are queued.
 *
 *   npm run bench:scale-out [-- --pages 20000 --warmup-pages 500 --workers 1,2,4 --apis 1,2
 *                                --concurrency 16 --convert-threads N --worker-env NAME=value --rounds 1 --timeout 1200 --statements]
 *
 * Each configuration crawls `--pages` pages of bench/crawl-site.ts's site (8.5 KB, loopback) after an
 * untimed `--warmup-pages` crawl, with maxConcurrency = `--concurrency` × workers, so every worker's
 * lane slots (WORKER_CONCURRENCY = `--concurrency`: two lanes of 8) are filled. Printed per
 * configuration: pages/s, CPU per page of every service process (from /proc: workers, APIs and proxy,
 * PostgreSQL with its backends, Temporal, Redis) and PostgreSQL's share, the workers' CPU by thread (main
 * thread against conversion and V8's helpers), the fixture site's own CPU
 * (not counted: it stands for the internet), the rest of the machine's load, and each worker's pages
 * (its GET /metrics) with the seconds it idled while URLs were queued (and how many of those began
 * with fewer URLs queued than the crawl's lanes take at once). Every crawl must store each
 * page once, and fetch each once.
 *
 * `--rounds N` measures the worker counts N times per API count, every other round in reverse order
 * (1, 4, then 4, 1), and gives each round's growth and their median: on these machines one round's
 * growth moves by 15 points from run to run, and the first configuration always meets the emptiest
 * database.
 *
 * The processes share the host's network namespace: each in a namespace of its own would add a veth
 * hop per connection but change nothing that is measured here, since every process still shares the
 * same two cores, and they already share nothing but PostgreSQL, Redis and Temporal.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installSignalCleanup } from '../scripts/infra/child.js';
import { cpuMs, machineCpuMs, threadCpuDelta, threadCpuMs } from './crawl-measure.js';
import { startSite } from './crawl-site.js';
import { startRoundRobin } from './round-robin.js';
import { printStatements, resetStatements, topStatements, watchPostgres } from './pg-watch.js';
import { checkStored, describeIdle, idleTicks, watchCrawl } from './scale-crawl.js';
import { startScaleStack, type ServiceProcess } from './scale-stack.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '20000' },
    'warmup-pages': { type: 'string', default: '500' },
    workers: { type: 'string', default: '1,2,4' },
    apis: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', default: '16' },
    /** WORKER_CONVERT_THREADS for every worker (unset: one per core, the default). */
    'convert-threads': { type: 'string' },
    /** More settings for every worker, `NAME=value`, repeatable (NODE_OPTIONS, UV_THREADPOOL_SIZE, ...). */
    'worker-env': { type: 'string', multiple: true, default: [] },
    rounds: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '1200' },
    /** PostgreSQL with pg_stat_statements: print the statements that took its time in each measured crawl. */
    statements: { type: 'boolean', default: false },
  },
});
const PAGES = Number(args.pages);
const WARMUP = Number(args['warmup-pages']);
const WORKERS = args.workers.split(',').map(Number);
const APIS = args.apis.split(',').map(Number);
const CONCURRENCY = Number(args.concurrency);
const TIMEOUT_MS = Number(args.timeout) * 1000;
const ROUNDS = Number(args.rounds);
const WORKER_ENV: Record<string, string> = Object.fromEntries(args['worker-env'].map((kv) => {
  const at = kv.indexOf('=');
  if (at < 1) throw new Error(`--worker-env takes NAME=value, got ${kv}`);
  return [kv.slice(0, at), kv.slice(at + 1)];
}));
if (args['convert-threads']) WORKER_ENV.WORKER_CONVERT_THREADS = args['convert-threads'];
for (const [name, v] of [['pages', PAGES], ['warmup-pages', WARMUP], ['concurrency', CONCURRENCY], ['rounds', ROUNDS], ['timeout', TIMEOUT_MS], ...WORKERS.map((n) => ['workers', n] as const), ...APIS.map((n) => ['apis', n] as const)] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
}

interface Result {
  round: number;
  apis: number;
  workers: number;
  load1: number;
  /** PostgreSQL's WAL written and transactions committed, per page. */
  walBytesPerPage: number;
  commitsPerPage: number;
  pagesPerSec: number;
  wallMs: number;
  /** CPU ms per page by group, services only. */
  cpu: Record<'workers' | 'api' | 'postgres' | 'temporal' | 'redis', number>;
  /** The workers' CPU ms per page by thread name, summed over workers (main thread, `node`: convert and V8 helper threads, `tokio-…`: Temporal's core). */
  workerThreads: Array<[string, number]>;
  siteCpu: number;
  otherCores: number;
  perWorker: Array<{ name: string; pages: number; idleS: number; shortS: number; idleWhen: string }>;
}

const total = (r: Result) => Object.values(r.cpu).reduce((a, b) => a + b, 0);

function print(r: Result): void {
  const c = r.cpu;
  const perWorker = r.perWorker.map((w) => `${w.name} ${w.pages}${w.idleS > 0 ? ` (idle ${w.idleS.toFixed(0)} s while queued, ${w.shortS.toFixed(0)} s of it with fewer URLs queued than the lanes take: ${w.idleWhen})` : ''}`).join(', ');
  console.log(
    `${r.apis} API${r.apis > 1 ? 's + proxy' : '        '} ${r.workers} worker(s): ${r.pagesPerSec.toFixed(1)} pages/s (${(r.wallMs / 1000).toFixed(1)} s); CPU ${total(r).toFixed(2)} ms/page ` +
      `(workers ${c.workers.toFixed(2)}, API ${c.api.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)} = ${((100 * c.postgres) / total(r)).toFixed(1)} %, Temporal ${c.temporal.toFixed(2)}, Redis ${c.redis.toFixed(2)}); PostgreSQL wrote ${(r.walBytesPerPage / 1024).toFixed(1)} KiB of WAL and committed ${r.commitsPerPage.toFixed(2)} transactions per page; ` +
      `site ${r.siteCpu.toFixed(2)} ms/page; other load ${r.otherCores.toFixed(2)} cores; load average ${r.load1.toFixed(1)} at start\n` +
      `    workers by thread (ms/page): ${r.workerThreads.filter(([, ms]) => ms >= 0.005).map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ')}\n    pages by worker: ${perWorker}`,
  );
}

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-scale-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const site = await startSite({ '/site/': PAGES, '/warm/': WARMUP });
let failed = false;
try {
  console.log(`scale-out: ${PAGES} pages per configuration (after a ${WARMUP}-page warm-up), WORKER_CONCURRENCY ${CONCURRENCY}, worker settings ${JSON.stringify(WORKER_ENV)}, crawl maxConcurrency ${CONCURRENCY} × workers; ${availableParallelism()} cores`);
  const stack = await startScaleStack({ root, workerConcurrency: CONCURRENCY, statements: args.statements, workerEnv: WORKER_ENV });
  try {
    const watch = await watchPostgres(stack.databaseUrl, stack.infra.postgres);
    const apis: ServiceProcess[] = [];
    const workers: ServiceProcess[] = [];
    const results: Result[] = [];
    for (const apiCount of APIS) {
      while (apis.length < apiCount) apis.push(await stack.startApi(`api-${apis.length}`));
      while (apis.length > apiCount) await apis.pop()!.child.stop();
      const proxy = apiCount > 1 ? await startRoundRobin(apis.map((a) => a.url)) : undefined;
      const apiUrl = proxy?.url ?? apis[0].url;
      for (const [round, workerCount] of Array.from({ length: ROUNDS }, (_, r) => (r % 2 ? [...WORKERS].reverse() : WORKERS).map((n) => [r, n] as const)).flat()) {
        while (workers.length < workerCount) workers.push(await stack.startWorker(`worker-${workers.length}`));
        while (workers.length > workerCount) await workers.pop()!.child.stop();
        const request = { apiUrl, limit: WARMUP, maxConcurrency: CONCURRENCY * workerCount, timeoutMs: TIMEOUT_MS };
        await watchCrawl(stack, { ...request, seed: `${site.origin}/warm/` }, () => workers);
        await site.resetHits();
        const processes: Array<[keyof Result['cpu'] | 'site', () => number]> = [
          ...workers.map((w) => ['workers', () => cpuMs(w.child.pid!)] as [keyof Result['cpu'], () => number]),
          ...apis.map((a) => ['api', () => cpuMs(a.child.pid!)] as [keyof Result['cpu'], () => number]),
          ...(proxy ? [['api', () => cpuMs(proxy.pid)] as [keyof Result['cpu'], () => number]] : []),
          ['postgres', () => cpuMs(stack.infra.postgres, true)],
          ['temporal', () => cpuMs(stack.infra.temporal, true)],
          ['redis', () => cpuMs(stack.infra.redis)],
          ['site', () => cpuMs(site.pid)],
        ];
        const selfCpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
        const load1 = loadavg()[0];
        if (args.statements) await resetStatements(stack.databaseUrl);
        const threadsBefore = workers.map((w) => threadCpuMs(w.child.pid!));
        const before = { cpu: processes.map(([, read]) => read()), machine: machineCpuMs().busy, self: selfCpu(), pg: await watch.read() };
        const crawl = await watchCrawl(stack, { ...request, limit: PAGES, seed: `${site.origin}/site/` }, () => workers);
        const after = { cpu: processes.map(([, read]) => read()), machine: machineCpuMs().busy, self: selfCpu(), pg: await watch.read() };
        const workerThreads = new Map<string, number>();
        workers.forEach((w, i) => {
          for (const [name, ms] of threadCpuDelta(threadsBefore[i], threadCpuMs(w.child.pid!))) workerThreads.set(name, (workerThreads.get(name) ?? 0) + ms / PAGES);
        });
        const check = await checkStored(stack, crawl.id);
        const hits = (await site.hits())['/site/'];
        if (check.documents !== PAGES || check.lost !== 0 || check.storedTwice !== 0 || !check.gapFree || check.failed !== 0) throw new Error(`crawl ${crawl.id}: ${JSON.stringify(check)}; expected ${PAGES} pages stored once each`);
        if (hits.distinct !== PAGES || hits.total !== PAGES) throw new Error(`the site served ${hits.total} requests for ${hits.distinct} pages; expected ${PAGES}, each once`);
        const cpu = { workers: 0, api: 0, postgres: 0, temporal: 0, redis: 0 };
        let siteCpu = 0;
        processes.forEach(([group, ], i) => {
          const ms = (after.cpu[i] - before.cpu[i]) / PAGES;
          if (group === 'site') siteCpu = ms;
          else cpu[group] += ms;
        });
        const counted = after.cpu.reduce((a, v, i) => a + v - before.cpu[i], 0) + after.self - before.self;
        const idle = idleTicks(crawl.ticks, request.maxConcurrency);
        const last = crawl.ticks.at(-1);
        const result: Result = {
          round,
          apis: apiCount,
          workers: workerCount,
          load1,
          walBytesPerPage: (after.pg.walBytes - before.pg.walBytes) / PAGES,
          commitsPerPage: (after.pg.commits - before.pg.commits) / PAGES,
          pagesPerSec: PAGES / (crawl.wallMs / 1000),
          wallMs: crawl.wallMs,
          cpu,
          workerThreads: [...workerThreads].sort((a, b) => b[1] - a[1]),
          siteCpu,
          otherCores: Math.max(0, after.machine - before.machine - counted) / crawl.wallMs,
          perWorker: workers.map((w) => {
            const { seconds, shortSeconds, when } = describeIdle(idle.get(w.name) ?? []);
            return { name: w.name, pages: (last?.pages.get(w.name) ?? 0) - (crawl.ticks[0].pages.get(w.name) ?? 0), idleS: seconds, shortS: shortSeconds, idleWhen: when };
          }),
        };
        print(result);
        if (args.statements) printStatements(await topStatements(stack.databaseUrl, PAGES, 8));
        results.push(result);
      }
      proxy?.stop();
    }
    await watch.close();
    console.log('\nCPU per page against 1 worker (target: at most +15 % at 4 workers), and idling (target: none while pages are queued):');
    const growth = (r: Result) => {
      const base = results.find((b) => b.apis === r.apis && b.round === r.round && b.workers === Math.min(...WORKERS));
      return base ? (100 * total(r)) / total(base) - 100 : NaN;
    };
    for (const apiCount of APIS) {
      for (const r of results.filter((x) => x.apis === apiCount)) {
        const idleS = r.perWorker.reduce((a, w) => a + w.idleS, 0);
        const shortS = r.perWorker.reduce((a, w) => a + w.shortS, 0);
        console.log(`  ${apiCount} API(s), round ${r.round + 1}, ${r.workers} worker(s): ${total(r).toFixed(2)} ms/page, ${growth(r).toFixed(1)} % against ${Math.min(...WORKERS)} worker(s) in the round; worker-seconds idle while queued: ${idleS.toFixed(0)} (${(idleS - shortS).toFixed(0)} with at least maxConcurrency URLs queued)`);
      }
      if (ROUNDS > 1) {
        for (const n of WORKERS) {
          const g = results.filter((r) => r.apis === apiCount && r.workers === n).map(growth).sort((a, b) => a - b);
          console.log(`  ${apiCount} API(s), ${n} worker(s): median growth over ${ROUNDS} rounds ${((g[Math.floor((g.length - 1) / 2)] + g[Math.ceil((g.length - 1) / 2)]) / 2).toFixed(1)} % (rounds: ${g.map((x) => x.toFixed(1)).join(', ')})`);
        }
      }
    }
  } finally {
    await stack.stop();
  }
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
