/**
 * Where the worker process's memory goes. Starts a throwaway stack (PostgreSQL, Redis, the Temporal
 * dev server, the API in this process) and worker/main.ts in a process of its own as deployed
 * (`node --import tsx worker/main.ts`, WORKER_CONCURRENCY = `--concurrency`), then reads its memory
 * idle (5 s after `worker polling`), at the highest RSS sample (every 200 ms) during a crawl of
 * `--pages` generated ~8.5 KB pages on loopback (bench/crawl-site.ts, markdown, after a
 * `--warmup-pages` warm-up crawl), and 5 s after that crawl.
 *
 *   npx tsx bench/worker-memory.ts [--pages 2000 --concurrency 16 --warmup-pages 100 --idle-only]
 *     [--prebuilt-bundle] [--node-args '--max-semi-space-size=4 --heap-growing-percent=30']
 *     [--env MALLOC_ARENA_MAX=2 ...] [--worker-options '{"maxCachedWorkflows":200}']
 *     [--entry node_modules/.cache/worker-js/worker.js] [--heap-snapshots DIR]
 *
 * It prints, in MiB: RSS split by what is mapped (node binary, native addons, anonymous memory);
 * each thread's V8 heap (main, convert pool threads, the Temporal SDK's workflow thread: committed,
 * used, young generation, peak), written by bench/worker-memory-probe.js, which is preloaded into
 * the worker and so runs in every thread; the anonymous memory outside those heaps (malloc of Node,
 * the SDK's Rust core, freed memory the allocator keeps; isolates the probe does not see, such as
 * tsx's loader thread); threads by name (tokio-runtime-w, temporal-real-s: the Rust core); the
 * worker's child processes (Chromium would be one); worker CPU per page; and RSS after each of the
 * SDK's start-up calls (loading it, connecting, bundling the workflows, each Worker.create).
 *
 * Trying a change without editing worker/main.ts: `--worker-options` is merged into every
 * Worker.create call; `--prebuilt-bundle` bundles the workflows in this process and has the
 * worker's bundleWorkflowCode return that code instead of running webpack (as a build step
 * would); `--node-args` and `--env` go to the worker process; `--entry` runs a compiled worker.js
 * without tsx (`tsc -p tsconfig.build.json --outDir node_modules/.cache/worker-js`, with
 * --prebuilt-bundle since the compiled worker cannot bundle ./workflows/index.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createApp } from '../api/app.js';
import { createApiDeps } from '../api/deps.js';
import { createKey } from '../api/keys-store.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { bundleWorkflows } from '../worker/main.js';
import { installSignalCleanup, logTail, runOutput, spawnChild, type Child } from '../scripts/infra/child.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort, waitUntilReady } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { throwawayEnv } from '../scripts/infra/throwaway.js';
import { inheritedEnv, loadStackConfig, repoRoot, toolPath } from '../scripts/stack-config.js';
import { cpuMs } from './crawl-measure.js';
import { startSite, type SiteProcess } from './crawl-site.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    'warmup-pages': { type: 'string', default: '100' },
    'idle-only': { type: 'boolean', default: false },
    'worker-options': { type: 'string', default: '{}' },
    'node-args': { type: 'string', default: '' },
    env: { type: 'string', multiple: true, default: [] },
    'prebuilt-bundle': { type: 'boolean', default: false },
    /** The worker's entry: worker/main.ts (through tsx, as deployed) or a compiled worker.js (then without tsx; needs --prebuilt-bundle). */
    entry: { type: 'string', default: 'worker/main.ts' },
    /**
     * Write a heap snapshot of the main thread into this directory, 5 s after the crawl (idle with
     * --idle-only). Writing one leaves hundreds of MiB in malloc, so RSS read after it means little.
     */
    'heap-snapshots': { type: 'string' },
    /** Longest a crawl may take, seconds. */
    timeout: { type: 'string', default: '300' },
  },
});
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);
const WARMUP = Number(args['warmup-pages']);
const TIMEOUT_MS = Number(args.timeout) * 1000;
for (const [name, v] of [['pages', PAGES], ['concurrency', CONCURRENCY], ['warmup-pages', WARMUP], ['timeout', TIMEOUT_MS]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${args[name]}`);
}
JSON.parse(args['worker-options']);
const extraEnv = Object.fromEntries(args.env.map((kv) => {
  const i = kv.indexOf('=');
  if (i < 1) throw new Error(`--env must be NAME=value, got ${kv}`);
  return [kv.slice(0, i), kv.slice(i + 1)];
}));

/** What bench/worker-memory-probe.js writes for each thread, MiB. */
interface ThreadMemory {
  threadId: number;
  /** What the thread runs, from the CommonJS entry it loaded (Piscina's, or the Temporal SDK's workflow thread). */
  role: 'main' | 'convert' | 'workflow' | 'other';
  /** V8: committed heap (all spaces), its used part, V8's own malloc, memory held outside the heap (ArrayBuffers). */
  heapTotal: number;
  heapUsed: number;
  malloced: number;
  external: number;
  heapLimit: number;
  /** Committed size of each heap space (new_space is the young generation). */
  spaces: Record<string, number>;
  /** Highest of the thread's 200 ms samples since it started. */
  peakHeapTotal: number;
  peakHeapUsed: number;
  peakExternal: number;
  /** CommonJS modules loaded in the thread, by package (tsx-compiled project files are ESM, not counted). */
  cjsModules: Record<string, number>;
}

/** RSS and the main thread's V8 heap (committed, used) at one of the worker's start-up steps, MiB. */
interface Stage {
  label: string;
  ms: number;
  rssMiB: number;
  heapTotal: number;
  heapUsed: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const KiB = 1024;

// ---------------------------------------------------------------------------------------------
// Reading the worker process.

interface Snapshot {
  rss: number;
  hwm: number;
  /** RSS by mapping group, MiB. */
  mappings: Record<string, number>;
  threads: ThreadMemory[];
  /** Thread names (comm) and how many of each. */
  threadNames: Record<string, number>;
  /** The worker's child processes (Chromium runs as children; their memory is not in RSS above), as `name pid RSS`. */
  children: string[];
}

const nodeBinary = realpathSync(process.execPath);

/** RSS of each mapping in /proc/<pid>/smaps, summed by what it maps, MiB. */
function mappingRss(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let group = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const path = header[1];
      if (path === '') group = 'anonymous';
      else if (path === nodeBinary) group = 'file: node binary';
      else if (path.endsWith('.node')) group = `file: ${path.split('/').pop()}`;
      else if (path.startsWith('[')) group = path.startsWith('[stack') ? 'anonymous' : path.startsWith('[heap]') ? 'anonymous ([heap], main malloc arena)' : `other ${path}`;
      else group = 'file: other (libc, ICU, ...)';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[group] = (out[group] ?? 0) + Number(rss[1]) / KiB;
  }
  return out;
}

function childProcesses(pid: number): string[] {
  const out: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== pid) continue;
      const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / KiB;
      out.push(`${/^Name:\s+(.*)$/m.exec(status)?.[1]} ${entry} ${rss.toFixed(0)} MiB`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function snapshot(pid: number, probeDir: string): Snapshot {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / KiB;
  const threadNames: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      threadNames[name] = (threadNames[name] ?? 0) + 1;
    } catch {
      // ended meanwhile
    }
  }
  const threads = readdirSync(probeDir)
    .filter((f) => f.startsWith('thread-') && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(probeDir, f), 'utf8')) as ThreadMemory)
    .sort((a, b) => a.threadId - b.threadId);
  return { rss: field('VmRSS'), hwm: field('VmHWM'), mappings: mappingRss(pid), threads, threadNames, children: childProcesses(pid) };
}

// ---------------------------------------------------------------------------------------------
// Printing.

const f0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(0)).padStart(8);
const f1 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(1)).padStart(8);

function report(columns: Array<[string, Snapshot]>): void {
  const row = (label: string, values: Array<number | undefined>, fmt = f0) => console.log(`${label.padEnd(52)}${values.map(fmt).join('')}`);
  console.log(`\n${''.padEnd(52)}${columns.map(([n]) => n.padStart(8)).join('')}   (MiB)`);
  row('RSS (VmRSS)', columns.map(([, s]) => s.rss));
  row('  high-water mark so far (VmHWM)', columns.map(([, s]) => s.hwm));
  const groups = [...new Set(columns.flatMap(([, s]) => Object.keys(s.mappings)))].filter((g) => columns.some(([, s]) => (s.mappings[g] ?? 0) >= 0.5)).sort();
  for (const g of groups) row(`  ${g}`, columns.map(([, s]) => s.mappings[g] ?? 0));
  console.log('V8 heaps, committed (used), by thread:');
  const labels = [...new Set(columns.flatMap(([, s]) => s.threads.map((t) => `${t.role} #${t.threadId}`)))];
  for (const label of labels) {
    const pick = (s: Snapshot) => s.threads.find((t) => `${t.role} #${t.threadId}` === label);
    row(`  ${label}: heap`, columns.map(([, s]) => pick(s)?.heapTotal), f1);
    row(`  ${label}:   used`, columns.map(([, s]) => pick(s)?.heapUsed), f1);
    row(`  ${label}:   young generation (new_space)`, columns.map(([, s]) => pick(s)?.spaces.new_space), f1);
    row(`  ${label}:   old + code + large objects`, columns.map(([, s]) => { const t = pick(s); return t && (t.spaces.old_space ?? 0) + (t.spaces.code_space ?? 0) + (t.spaces.large_object_space ?? 0) + (t.spaces.code_large_object_space ?? 0); }), f1);
    row(`  ${label}:   V8 malloc + external (ArrayBuffers)`, columns.map(([, s]) => { const t = pick(s); return t && t.malloced + t.external; }), f1);
    row(`  ${label}:   peak heap since start`, columns.map(([, s]) => pick(s)?.peakHeapTotal), f1);
  }
  const v8Sum = (s: Snapshot) => s.threads.reduce((a, t) => a + t.heapTotal + t.malloced + t.external, 0);
  row('  all threads: heap + V8 malloc + external', columns.map(([, s]) => v8Sum(s)), f1);
  const anon = (s: Snapshot) => Object.entries(s.mappings).filter(([g]) => g.startsWith('anonymous')).reduce((a, [, v]) => a + v, 0);
  // Includes isolates the probe does not run in (tsx's module-loader thread).
  row('anonymous RSS not in those (malloc: Node, Rust core; stacks)', columns.map(([, s]) => anon(s) - v8Sum(s)), f1);
  for (const [name, s] of columns) console.log(`child processes (${name}): ${s.children.length ? s.children.join(', ') : 'none'}`);
  for (const [name, s] of columns) console.log(`threads (${name}): ${Object.entries(s.threadNames).sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ×${c}`).join(', ')}`);
  for (const t of columns[0]?.[1].threads ?? []) {
    console.log(`CommonJS modules of ${t.role} #${t.threadId} (idle), by package: ${Object.entries(t.cjsModules).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([n, c]) => `${n} ${c}`).join(', ')}`);
  }
  console.log(`V8 heap limit per thread: ${[...new Set(columns[0]?.[1].threads.map((t) => `${t.role} ${t.heapLimit.toFixed(0)}`))].join(', ')} MiB`);
}

function printStages(stages: Stage[]): void {
  console.log('\nworker start-up, main thread (RSS and V8 heap committed / used, MiB):');
  let last = 0;
  for (const s of stages) {
    console.log(`  ${s.label.padEnd(52)}${(s.ms / 1000).toFixed(1).padStart(6)} s   RSS ${s.rssMiB.toFixed(0).padStart(4)} (${s.rssMiB - last >= 0 ? '+' : ''}${(s.rssMiB - last).toFixed(0)})   heap ${s.heapTotal.toFixed(0)} / ${s.heapUsed.toFixed(0)}`);
    last = s.rssMiB;
  }
}

// ---------------------------------------------------------------------------------------------

async function crawl(worker: Child, apiUrl: string, apiKey: string, url: string, limit: number): Promise<void> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${apiUrl}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  };
  const started = performance.now();
  const { id } = await call<{ id: string }>('POST', '/v1/crawl', { url, limit, ignoreSitemap: true, ignoreRobotsTxt: true, scrapeOptions: { formats: ['markdown'] } });
  for (;;) {
    const s = await call<{ status: string; completed: number }>('GET', `/v1/crawl/${id}?limit=1`);
    if (s.status !== 'scraping') {
      if (s.status !== 'completed' || s.completed !== limit) throw new Error(`crawl of ${url} ended ${s.status} with ${s.completed} of ${limit} pages`);
      console.log(`  ${limit} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return;
    }
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`crawl of ${url} still running after ${TIMEOUT_MS / 1000} s`);
    if (!worker.running()) throw new Error('the worker exited mid-crawl');
    await sleep(200);
  }
}

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-worker-memory-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const stops: Array<() => Promise<unknown>> = [];
let site: SiteProcess | undefined;
try {
  const stack = loadStackConfig();
  const pidDir = join(root, 'run');
  const timeoutMs = stack.STACK_READY_TIMEOUT_MS;
  const [pgPort, redisPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const [pgStart, redisStart, temporalStart] = await Promise.allSettled([
    startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_bench', ephemeral: true, pidDir, timeoutMs }),
    startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
    startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), pidDir, timeoutMs }),
  ]);
  // Stop whichever did start, even when another failed.
  for (const r of [pgStart, redisStart, temporalStart]) if (r.status === 'fulfilled') stops.push(() => r.value.stop());
  if (pgStart.status === 'rejected') throw pgStart.reason;
  if (redisStart.status === 'rejected') throw redisStart.reason;
  if (temporalStart.status === 'rejected') throw temporalStart.reason;
  const [pg, redis, temporal] = [pgStart.value, redisStart.value, temporalStart.value];
  await applyMigrations(pg.url);
  const env = {
    ...throwawayEnv('bench-memory', { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }),
    ALLOW_PRIVATE_ADDRESSES: 'true', // the fixture site is on loopback
    WORKER_CONCURRENCY: String(CONCURRENCY),
  };

  const probeDir = join(root, 'probe');
  const probe = new URL(pathToFileURL(join(repoRoot, 'bench/worker-memory-probe.js')).href);
  probe.searchParams.set('dir', probeDir);
  probe.searchParams.set('workerOptions', args['worker-options']);
  if (args['prebuilt-bundle']) {
    const bundleFile = join(root, 'workflow-bundle.js');
    writeFileSync(bundleFile, (await bundleWorkflows()).code);
    probe.searchParams.set('bundle', bundleFile);
  }
  const snapshotDir = args['heap-snapshots'];
  if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
  const nodeArgs = [...args['node-args'].split(' ').filter(Boolean), ...(snapshotDir ? ['--heapsnapshot-signal=SIGPWR', `--diagnostic-dir=${snapshotDir}`] : [])];
  /** Signals the worker to write a heap snapshot of its main thread and waits until it is written. */
  const heapSnapshot = async (pid: number) => {
    if (!snapshotDir) return;
    const before = new Set(readdirSync(snapshotDir));
    process.kill(pid, 'SIGPWR'); // not SIGUSR2: the Temporal SDK shuts the worker down on it
    for (;;) {
      await sleep(1000);
      const written = readdirSync(snapshotDir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
      if (!written) continue;
      // Complete once it ends the JSON document and stops growing.
      const file = join(snapshotDir, written);
      const size = statSync(file).size;
      await sleep(1000);
      if (statSync(file).size === size && readFileSync(file).subarray(-4).toString().trim().endsWith(']}')) return console.log(`heap snapshot: ${file}`);
    }
  };
  const logFile = join(root, 'worker.log');
  const tsx = args.entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  console.log(`worker: node ${[...nodeArgs, ...tsx, '--import', 'bench/worker-memory-probe.js', args.entry].join(' ')}; WORKER_CONCURRENCY ${CONCURRENCY}; options ${args['worker-options']}${args['prebuilt-bundle'] ? '; prebuilt workflow bundle' : ''}${args.env.length ? `; env ${args.env.join(' ')}` : ''}`);
  const worker = spawnChild({ name: 'worker', command: process.execPath, args: [...nodeArgs, ...tsx, '--import', probe.href, args.entry], cwd: repoRoot, env: { PATH: inheritedEnv().PATH, ...env, ...extraEnv, LOG_LEVEL: 'info' }, logFile, pidDir });
  stops.push(() => worker.stop());
  await waitUntilReady('worker', async () => runOutput(worker).includes('worker polling'), { timeoutMs: 180_000, intervalMs: 250, child: worker });
  const pid = worker.pid!;
  // Let start-up garbage settle the way it would in production (no forced GC).
  await sleep(5_000);
  const idle = snapshot(pid, probeDir);
  // Writing a snapshot leaves hundreds of MiB in malloc: take it idle only when there is no crawl to measure.
  if (args['idle-only']) await heapSnapshot(pid);
  const columns: Array<[string, Snapshot]> = [['idle', idle]];

  if (!args['idle-only']) {
    site = await startSite({ '/site/': PAGES, '/warm/': WARMUP });
    const apiConfig = loadConfig('api', { env });
    const deps = createApiDeps(apiConfig, createLogger({ name: 'bench-api', level: 'warn' }));
    const server = createApp(deps).app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    stops.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.close();
    });
    const { key } = await createKey(deps.prisma, 'bench', apiConfig.API_KEY_PEPPER);
    const apiUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    let peak = idle;
    const sampler = setInterval(() => {
      if (!worker.running()) return; // the crawl fails and shows the worker's log
      const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / KiB;
      if (rss > peak.rss + 2) peak = snapshot(pid, probeDir);
    }, 200);
    try {
      console.log(`crawling ${WARMUP} pages (warm-up), then ${PAGES} ...`);
      await crawl(worker, apiUrl, key, `${site.origin}/warm/`, WARMUP);
      const cpuBefore = cpuMs(pid);
      await crawl(worker, apiUrl, key, `${site.origin}/site/`, PAGES);
      console.log(`  worker CPU: ${((cpuMs(pid) - cpuBefore) / PAGES).toFixed(2)} ms per page (all its threads)`);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- worker log ---\n${logTail(logFile, 30)}`);
    } finally {
      clearInterval(sampler);
    }
    columns.push(['peak', peak]);
    await sleep(5_000);
    columns.push(['after', snapshot(pid, probeDir)]);
    await heapSnapshot(pid);
  }
  report(columns);
  printStages(JSON.parse(readFileSync(join(probeDir, 'stages.json'), 'utf8')) as Stage[]);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error('teardown:', err));
  await site?.close();
  rmSync(root, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);
