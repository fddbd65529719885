/**
 * Crawl throughput: our durable crawl against Crawlee's CheerioCrawler, on the same generated site.
 * Targets (issue 10): throughput at least 1.5x Crawlee's (at the very least 1.0x), total CPU per page
 * (every process) at most 8 ms, at most 0.5 history events per page, worker peak RSS at most 400 MiB.
 *
 *   npm run bench:crawl [-- --pages 2000 --concurrency 16 --warmup-pages 100 --timeout 300 --pg-fsync --only ours|baseline --worker-profile DIR]
 *
 * - The site: `--pages` pages of ~8.5 KB (bench/crawl-site.ts: a binary tree plus cross links, so
 *   every page is reachable and links repeat), served on loopback by a process of its own.
 * - Ours: `POST /v1/crawl` (`limit` = pages, `maxConcurrency` = `--concurrency`, sitemap and
 *   robots.txt ignored, markdown; plain HTML, so the fetch engine) through the real API, the
 *   Temporal dev server, PostgreSQL and ONE worker/main.ts process with WORKER_CONCURRENCY =
 *   `--concurrency` (bench/crawl-stack.ts). Timed from
 *   the POST to `GET /v1/crawl/{id}?limit=1` (polled every 200 ms) answering `completed`; then
 *   every page must be stored once, and fetched once.
 * - Baseline: CheerioCrawler at a fixed concurrency (min = max = `--concurrency`), our processPage
 *   for markdown + links on every page, in-memory storage (bench/crawl-baseline.ts), in a process
 *   of its own, run first, while none of our services run.
 * - Each side first crawls a `--warmup-pages` site of its own (JIT, connections), untimed.
 * - Memory: peak RSS of the worker process and of the baseline process, sampled every 200 ms,
 *   with the kernel's high-water mark (VmHWM). CPU per page: each process's CPU time over the
 *   measured crawl, from /proc. Where our crawl's time goes: its Temporal histories
 *   (bench/crawl-history.ts).
 *
 * Exits 0 when both crawls complete and check out (whatever the ratio), non-zero otherwise.
 */
import { fork } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultConvertThreads } from '../worker/convert-pool.js';
import { kinds } from '../jobs/kinds.js';
import { processPage } from '../core/html/index.js';
import type { CrawlStatusBody } from '../core/schemas/crawl.js';
import { installSignalCleanup, logTail } from '../scripts/infra/child.js';
import type { BaselineReport, BaselineRequest } from './crawl-baseline.js';
import { crawlBreakdown, type CrawlBreakdown } from './crawl-history.js';
import { cpuMs, machineCpuMs, median, mib, sampleRss, threadCpuDelta, threadCpuMs } from './crawl-measure.js';
import { PAGE_BYTES, sitePage, startSite, type SiteProcess } from './crawl-site.js';
import { startCrawlStack, type CrawlStack } from './crawl-stack.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    'warmup-pages': { type: 'string', default: '100' },
    /** Longest a crawl may take, seconds; past it the run fails. */
    timeout: { type: 'string', default: '300' },
    'pg-fsync': { type: 'boolean', default: false },
    only: { type: 'string' },
    /** Write CPU profiles of the worker process (main and convert threads) into this directory. */
    'worker-profile': { type: 'string' },
    /** Both sides prune to the main content (as v2 clients get by default) instead of v1's whole page. */
    'only-main-content': { type: 'boolean', default: false },
  },
});
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);
const WARMUP = Number(args['warmup-pages']);
const TIMEOUT_MS = Number(args.timeout) * 1000;
const POLL_MS = 200;
for (const [name, v] of [['pages', PAGES], ['concurrency', CONCURRENCY], ['warmup-pages', WARMUP], ['timeout', TIMEOUT_MS]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${args[name]}`);
}
if (args.only !== undefined && args.only !== 'ours' && args.only !== 'baseline') throw new Error(`--only must be ours or baseline, got ${args.only}`);
const runOurs = args.only !== 'baseline';
const runBaseline = args.only !== 'ours';

class BenchFailure extends Error {
  override name = 'BenchFailure';
}

interface SideResult {
  wallMs: number;
  pagesPerSec: number;
  /** CPU ms per page by process (all cores). */
  cpuPerPage: Array<[string, number]>;
  /** CPU ms per page by thread name of the process doing the crawling (ours: the worker), largest first. */
  threads: Array<[string, number]>;
  /** Share (0–1) of all cores used by other processes on the machine during the measured crawl. */
  otherLoad: number;
  /** Share (0–1) of all cores' time stolen by the hypervisor during the measured crawl. */
  steal: number;
  /** RSS when sampling began (ours: the idle worker after boot; baseline: at fork), KiB. */
  startRssKiB: number;
  /** Highest RSS sampled (every 200 ms) during the warm-up and measured crawls, KiB. */
  peakRssKiB: number;
  /** The kernel's high-water mark for the process's whole life (ours: includes bundling the workflows at boot), KiB. */
  hwmKiB: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Every page fetched exactly once by the crawl that just ran, else a BenchFailure naming the counts. */
async function checkFetchedOnce(site: SiteProcess, folder: string, n: number, who: string): Promise<void> {
  const hits = (await site.hits())[folder];
  if (hits.distinct !== n || hits.total !== n) throw new BenchFailure(`${who}: the site served ${hits.total} requests for ${hits.distinct} distinct pages of ${folder}; expected ${n} pages, each once`);
}

// ---------------------------------------------------------------------------------------------
// Baseline: CheerioCrawler in its own process.

async function baseline(site: SiteProcess, root: string): Promise<SideResult> {
  const crawls = [
    { label: 'warm-up', seed: `${site.origin}/warm/`, glob: `${site.origin}/warm/**` },
    { label: 'measured', seed: `${site.origin}/site/`, glob: `${site.origin}/site/**` },
  ];
  const request: BaselineRequest = { crawls, concurrency: CONCURRENCY, onlyMainContent: args['only-main-content'] };
  await site.resetHits();
  const child = fork(fileURLToPath(new URL('./crawl-baseline.ts', import.meta.url)), [JSON.stringify(request)], {
    cwd: root,
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const rss = sampleRss(child.pid!);
  const reports: BaselineReport[] = [];
  // [site CPU, machine busy, this process's CPU] when the warm-up ended and when the measured crawl ended.
  const marks = new Map<string, [number, ReturnType<typeof machineCpuMs>, number]>();
  const threadMarks = new Map<string, Map<string, number>>();
  const selfCpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
  child.on('message', (msg: BaselineReport) => {
    reports.push(msg);
    marks.set(msg.label, [cpuMs(site.pid), machineCpuMs(), selfCpu()]);
    threadMarks.set(msg.label, threadCpuMs(child.pid!));
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 2 * TIMEOUT_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  const memory = rss.stop();
  if (code !== 0) throw new BenchFailure(`the Crawlee baseline ${signal ? `was killed by ${signal} (over ${seconds(2 * TIMEOUT_MS)}?)` : `exited with code ${code}`}`);
  const warm = reports.find((r) => r.label === 'warm-up');
  const measured = reports.find((r) => r.label === 'measured');
  if (!warm || !measured) throw new BenchFailure('the Crawlee baseline ended without reporting both crawls');
  for (const [r, n] of [[warm, WARMUP], [measured, PAGES]] as const) {
    if (r.pages !== n || r.distinct !== n || r.failed !== 0) throw new BenchFailure(`the Crawlee baseline's ${r.label} crawl stored ${r.pages} pages (${r.distinct} distinct, ${r.failed} failed); expected ${n}`);
  }
  const [siteStart, busyStart, selfStart] = marks.get('warm-up')!;
  const [siteEnd, busyEnd, selfEnd] = marks.get('measured')!;
  const siteCpu = siteEnd - siteStart;
  const others = busyEnd.busy - busyStart.busy - measured.cpuMs - siteCpu - (selfEnd - selfStart);
  const hits = await site.hits();
  if (hits['/site/'].distinct !== PAGES || hits['/site/'].total !== PAGES) throw new BenchFailure(`the Crawlee baseline fetched ${hits['/site/'].total} pages (${hits['/site/'].distinct} distinct); expected ${PAGES}, each once`);
  return {
    wallMs: measured.wallMs,
    pagesPerSec: PAGES / (measured.wallMs / 1000),
    cpuPerPage: [
      ['crawlee process', measured.cpuMs / PAGES],
      ['fixture site', siteCpu / PAGES],
    ],
    threads: threadCpuDelta(threadMarks.get('warm-up')!, threadMarks.get('measured')!).map(([name, ms]) => [name, ms / PAGES] as [string, number]),
    otherLoad: Math.max(0, others) / (availableParallelism() * measured.wallMs),
    steal: (busyEnd.steal - busyStart.steal) / (availableParallelism() * measured.wallMs),
    startRssKiB: memory.firstKiB,
    peakRssKiB: memory.peakKiB,
    hwmKiB: Math.max(memory.hwmKiB, measured.maxRssKiB),
  };
}

// ---------------------------------------------------------------------------------------------
// Ours: the API, Temporal, PostgreSQL and one worker process.

async function api<T>(stack: CrawlStack, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as T;
  if (res.status !== 200) throw new BenchFailure(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

/** Starts a crawl of `folder` through the API and polls it to the end; ms from the POST to `completed`. */
async function crawlThroughApi(stack: CrawlStack, site: SiteProcess, folder: string, n: number): Promise<{ id: string; wallMs: number; status: CrawlStatusBody }> {
  const start = performance.now();
  const { id } = await api<{ id: string }>(stack, 'POST', '/v1/crawl', {
    url: `${site.origin}${folder}`,
    limit: n,
    ignoreSitemap: true,
    ignoreRobotsTxt: true,
    maxConcurrency: CONCURRENCY,
    scrapeOptions: { formats: ['markdown'], onlyMainContent: args['only-main-content'] },
  });
  for (;;) {
    const status = await api<CrawlStatusBody>(stack, 'GET', `/v1/crawl/${id}?limit=1`);
    if (status.status !== 'scraping') {
      const wallMs = performance.now() - start;
      if (status.status !== 'completed') throw new BenchFailure(`crawl ${id} ended ${status.status}: ${status.error ?? JSON.stringify({ ...status, data: undefined })}`);
      return { id, wallMs, status };
    }
    if (performance.now() - start > TIMEOUT_MS) {
      throw new BenchFailure(`crawl ${id} still scraping after ${seconds(TIMEOUT_MS)}: ${JSON.stringify({ ...status, data: undefined })}\n--- worker log ---\n${logTail(stack.worker.logFile, 30)}`);
    }
    if (!stack.worker.running()) throw new BenchFailure(`the worker exited mid-crawl\n--- worker log ---\n${logTail(stack.worker.logFile, 30)}`);
    await sleep(POLL_MS);
  }
}

async function checkStored(stack: CrawlStack, id: string, status: CrawlStatusBody, n: number): Promise<void> {
  const stored = await stack.prisma.document.count({ where: { jobId: id } });
  const distinct = (await stack.prisma.document.groupBy({ by: ['urlKey'], where: { jobId: id } })).length;
  if (status.completed !== n || status.creditsUsed !== n || status.total !== n || status.failed !== 0 || stored !== n || distinct !== n) {
    throw new BenchFailure(`crawl ${id}: completed ${status.completed}, total ${status.total}, stored ${stored} (${distinct} distinct), failed ${status.failed}; expected ${n} pages stored once each`);
  }
  const engine = status.data[0]?.metadata?.engine;
  if (engine !== 'fetch') throw new BenchFailure(`crawl ${id}: pages came from the ${engine} engine, expected fetch`);
}

async function ours(site: SiteProcess, root: string): Promise<{ result: SideResult; breakdown: CrawlBreakdown }> {
  console.log('starting PostgreSQL, Redis, the Temporal dev server, the API and a worker process ...');
  const stack = await startCrawlStack({ root, workerConcurrency: CONCURRENCY, pgFsync: args['pg-fsync'], workerNodeArgs: args['worker-profile'] ? ['--cpu-prof', `--cpu-prof-dir=${args['worker-profile']}`] : [] });
  try {
    const rss = sampleRss(stack.pids.worker);
    await site.resetHits();
    const warm = await crawlThroughApi(stack, site, '/warm/', WARMUP);
    await checkStored(stack, warm.id, warm.status, WARMUP);
    await checkFetchedOnce(site, '/warm/', WARMUP, 'our warm-up crawl');

    await site.resetHits();
    const processes: Array<[string, () => number]> = [
      ['worker process', () => cpuMs(stack.pids.worker)],
      ['temporal server', () => cpuMs(stack.pids.temporal)],
      ['postgres (all backends)', () => cpuMs(stack.pids.postgres, true)],
      ['redis', () => cpuMs(stack.pids.redis)],
      ['api + bench process', () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }],
      ['fixture site', () => cpuMs(site.pid)],
    ];
    const before = processes.map(([, read]) => read());
    const threadsBefore = threadCpuMs(stack.pids.worker);
    const machineBefore = machineCpuMs();
    console.log(`our crawl: ${PAGES} pages ...`);
    const measured = await crawlThroughApi(stack, site, '/site/', PAGES);
    const machineAfter = machineCpuMs();
    const busy = machineAfter.busy - machineBefore.busy;
    const cpuPerPage = processes.map(([name, read], i) => [name, (read() - before[i]) / PAGES] as [string, number]);
    const others = busy - cpuPerPage.reduce((a, [, v]) => a + v * PAGES, 0);
    const threads = threadCpuDelta(threadsBefore, threadCpuMs(stack.pids.worker)).map(([name, ms]) => [name, ms / PAGES] as [string, number]);
    const memory = rss.stop();
    await checkStored(stack, measured.id, measured.status, PAGES);
    await checkFetchedOnce(site, '/site/', PAGES, 'our crawl');
    const breakdown = await crawlBreakdown(stack.temporal, kinds.crawl.workflowId(measured.id));
    return {
      result: { wallMs: measured.wallMs, pagesPerSec: PAGES / (measured.wallMs / 1000), cpuPerPage, threads, otherLoad: Math.max(0, others) / (availableParallelism() * measured.wallMs), steal: (machineAfter.steal - machineBefore.steal) / (availableParallelism() * measured.wallMs), startRssKiB: memory.firstKiB, peakRssKiB: memory.peakKiB, hwmKiB: memory.hwmKiB },
      breakdown,
    };
  } finally {
    await stack.stop();
  }
}

// ---------------------------------------------------------------------------------------------

/** processPage on one site page, markdown + links, in this process (the machine is quiet by now): ms per page. */
async function conversionCost(): Promise<number> {
  const body = Buffer.from(sitePage('/site/', 7, PAGES));
  const convert = () => processPage({ body, contentType: 'text/html; charset=utf-8', url: 'http://127.0.0.1/site/page-7', formats: new Set(['markdown', 'links']), onlyMainContent: args['only-main-content'] });
  for (let i = 0; i < 100; i++) await convert();
  const times: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t = performance.now();
    await convert();
    times.push(performance.now() - t);
  }
  return median(times);
}

function report(o: Awaited<ReturnType<typeof ours>> | undefined, b: SideResult | undefined, convertMs: number): void {
  const line = (label: string, r: SideResult, memory: string) => {
    const cpu = r.cpuPerPage.reduce((a, [, v]) => a + v, 0);
    console.log(`${label.padEnd(44)}${r.pagesPerSec.toFixed(1).padStart(9)}${seconds(r.wallMs).padStart(9)}${cpu.toFixed(2).padStart(10)} ms   ${memory}`);
  };
  console.log(`\n${PAGES} pages of ~${(PAGE_BYTES / 1000).toFixed(1)} KB on loopback; concurrency ${CONCURRENCY} on both sides (ours: WORKER_CONCURRENCY ${CONCURRENCY}, ${defaultConvertThreads(CONCURRENCY)} convert thread(s); Crawlee: min = max concurrency ${CONCURRENCY}); markdown by processPage on both${args['only-main-content'] ? ', onlyMainContent on both' : ''}; PostgreSQL fsync ${args['pg-fsync'] ? 'on' : 'off'}`);
  console.log(`\n${''.padEnd(44)}${'pages/s'.padStart(9)}${'wall'.padStart(9)}${'CPU/page'.padStart(13)}   RSS: start → peak sampled (VmHWM)`);
  if (o) line('ours: API + Temporal + 1 worker process', o.result, `worker ${mib(o.result.startRssKiB)} → ${mib(o.result.peakRssKiB)} (${mib(o.result.hwmKiB)})`);
  if (b) line('baseline: Crawlee CheerioCrawler + processPage', b, `crawlee ${mib(b.peakRssKiB)} (${mib(b.hwmKiB)})`);
  if (o && b) {
    const ratio = o.result.pagesPerSec / b.pagesPerSec;
    console.log(`\nratio ours / baseline: x${ratio.toFixed(2)} (target >= 1.5: ${ratio >= 1.5 ? 'met' : 'NOT met'}; at the very least >= 1.0: ${ratio >= 1 ? 'met' : 'NOT met'})`);
  }
  console.log(`\nCPU per page by process (ms, all cores; ${availableParallelism()} cores give at most ${availableParallelism() * 1000} ms of CPU per second):`);
  if (o) {
    const total = o.result.cpuPerPage.reduce((a, [, v]) => a + v, 0);
    console.log(`  ours:     ${o.result.cpuPerPage.map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')}; total ${total.toFixed(2)} (target <= 8: ${total <= 8 ? 'met' : 'NOT met'})`);
    console.log(`  worker peak RSS ${mib(o.result.peakRssKiB)} (target <= 400 MiB: ${o.result.peakRssKiB <= 400 * 1024 ? 'met' : 'NOT met'})`);
  }
  if (o) console.log(`    worker by thread: ${o.result.threads.slice(0, 6).map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')}`);
  if (b) console.log(`  baseline: ${b.cpuPerPage.map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')}`);
  if (b) console.log(`    crawlee by thread: ${b.threads.slice(0, 6).map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')}`);
  // Load-independent bounds: all cores busy, or the busiest thread of the crawling process busy.
  const ceilings = (r: SideResult) => {
    const total = r.cpuPerPage.reduce((a, [, v]) => a + v, 0);
    const [name, busiest] = r.threads[0] ?? ['?', NaN];
    return `${((availableParallelism() * 1000) / total).toFixed(0)} pages/s with every core busy, ${(1000 / busiest).toFixed(0)} pages/s with its busiest thread (${name}) busy`;
  };
  if (o) console.log(`  CPU ceilings, ours: ${ceilings(o.result)}`);
  if (b) console.log(`  CPU ceilings, baseline: ${ceilings(b)}`);
  const load = [o && `ours ${(o.result.otherLoad * 100).toFixed(0)} %`, b && `baseline ${(b.otherLoad * 100).toFixed(0)} %`].filter(Boolean).join(', ');
  const steal = [o && `ours ${(o.result.steal * 100).toFixed(0)} %`, b && `baseline ${(b.steal * 100).toFixed(0)} %`].filter(Boolean).join(', ');
  console.log(`  other processes on the machine during the measured crawls: ${load} of all cores; stolen by the hypervisor: ${steal} (both near 0 for a meaningful run)`);
  console.log(`  processPage alone (markdown + links, one page, this process): ${convertMs.toFixed(2)} ms`);
  if (o) {
    const h = o.breakdown;
    console.log(`\nwhat Temporal saw of our crawl (histories: ${h.runs} run(s), ${seconds(h.wallMs)} from first to last event):`);
    console.log(`  history events: ${h.events}, ${(h.events / PAGES).toFixed(3)} per page (target <= 0.5)`);
    console.log(`  page lane runs: ${h.laneRuns}, ${h.meanLanes.toFixed(1)} scheduled or running on average, each ${seconds(h.laneRunMs)} (p50)`);
    console.log(`  workflow tasks: ${h.workflowTasks}, run p50 ${h.workflowTaskRunMs.toFixed(1)} ms`);
  }
}

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-bench-crawl-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
let site: SiteProcess | undefined;
try {
  site = await startSite({ '/site/': PAGES, '/warm/': WARMUP });
  let b: SideResult | undefined;
  if (runBaseline) {
    console.log(`baseline: Crawlee CheerioCrawler, ${WARMUP}-page warm-up, then ${PAGES} pages ...`);
    b = await baseline(site, root);
  }
  const o = runOurs ? await ours(site, root) : undefined;
  report(o, b, await conversionCost());
} catch (err) {
  console.error(err instanceof BenchFailure ? `bench:crawl failed: ${err.message}` : err);
  process.exitCode = 1;
} finally {
  await site?.close();
  rmSync(root, { recursive: true, force: true });
}
// Nothing should be left running; exit now rather than wait on a stray handle.
process.exit(process.exitCode ?? 0);
