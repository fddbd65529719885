/**
 * The frontier's own ceiling (issue 26): how many page claims and stores per second one PostgreSQL
 * coordinates when pages cost nothing. The real lanes, frontier and batch store
 * (bench/frontier-lanes.ts) run with a no-op page pipeline, 1 to 64 lanes at once, against a
 * throwaway PostgreSQL started here (fsync off like the tests unless `--pg-fsync`). No Temporal.
 *
 *   npm run bench:frontier [-- --lanes 1,2,4,8,16,32,64 --modes one,spread --warmup 2 --seconds 6
 *                              --crawl-lanes 4 --lanes-per-worker 8 --drivers 1 --width 8 --links tree,steady
 *                              --pg-fsync --statements --lanes-profile DIR]
 *
 * Modes: `one`: every lane on one crawl (every batch store takes that crawl's row lock);
 * `spread`: lanes spread over crawls of `--crawl-lanes` lanes each (4: the default crawl's shape,
 * maxConcurrency 32 in lanes of 8), each crawl of its own account; `spread-one-account`: the same
 * crawls, all of one account (every store also updates that account's usage row for the day).
 *
 * Links (bench/frontier-lanes.ts): `tree`, a crawl spreading out (each page brings 3.4 URLs the crawl
 * has not seen, so admission weighs 3.4 times what it weighs over a whole crawl); `steady`, a crawl's
 * average over its life (one new URL per page: every URL admitted once and fetched once). Both by default.
 *
 * Each row starts from empty tables: crawls whose frontier holds enough queued URLs for the whole
 * row (so lanes never run dry), lanes started, `--warmup` seconds unmeasured, then `--seconds`
 * measured. Per row it prints: URL claims/s (sum of job_url.attempts), pages stored/s (job.completed),
 * PostgreSQL CPU per page (every postgres process, /proc), the lanes' process CPU per page, commits
 * and WAL bytes per page, and lock waits per page: backends seen waiting on a heavyweight lock in
 * pg_stat_activity (sampled every 20 ms) × 20 ms / pages, an estimate of the time transactions spent
 * waiting for locks, and the statement most seen running in those samples (what a slow row was busy
 * with). Then where each mode stops scaling and what the machine was doing there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createKey, DEFAULT_ACCOUNT_ID } from '../api/keys-store.js';
import { decodeCrawlOptions } from '../core/schemas/decode.js';
import { MAX_CRAWL_LIMIT } from '../core/schemas/crawl.js';
import { LANE_WIDTH } from '../core/crawl/lanes.js';
import { urlKey } from '../core/url-key.js';
import { createJobRow } from '../jobs/rows.js';
import { createPrisma, type PrismaClient } from '../prisma/client.js';
import { installSignalCleanup } from '../scripts/infra/child.js';
import { readPidFile } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { loadStackConfig } from '../scripts/stack-config.js';
import { cpuMs, isRunning, machineCpuMs } from './crawl-measure.js';
import type { LaneReport, LaneRequest } from './frontier-lanes.js';
import { lockSamples, printStatements, resetStatements, startWithStatements, topQuery, topStatements, topWaits, watchPostgres, type PgReading, type PgWatch, type StatementCost } from './pg-watch.js';

const MODES = ['one', 'spread', 'spread-one-account'] as const;
type Mode = (typeof MODES)[number];
const LINKS = ['tree', 'steady'] as const;
type Links = (typeof LINKS)[number];

const { values: args } = parseArgs({
  options: {
    lanes: { type: 'string', default: '1,2,4,8,16,32,64' },
    modes: { type: 'string', default: 'one,spread' },
    warmup: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '6' },
    'crawl-lanes': { type: 'string', default: '4' },
    'lanes-per-worker': { type: 'string', default: '8' },
    /** Processes running the lanes (split evenly). */
    drivers: { type: 'string', default: '1' },
    /** Pages a lane holds (and stores per batch at most); crawls use at most LANE_WIDTH (8). */
    width: { type: 'string', default: String(LANE_WIDTH) },
    links: { type: 'string', default: 'tree,steady' },
    'pg-fsync': { type: 'boolean', default: false },
    /** Load pg_stat_statements and print, per row, the statements that took PostgreSQL's time. */
    statements: { type: 'boolean', default: false },
    /** Write a CPU profile of each lane process into this directory. */
    'lanes-profile': { type: 'string' },
  },
});
const LANES = args.lanes.split(',').map(Number);
const modes = args.modes.split(',') as Mode[];
const WARMUP_MS = Number(args.warmup) * 1000;
const MEASURE_MS = Number(args.seconds) * 1000;
/**
 * How long the lanes run past the measured window: the readings after it take hundreds of ms on a
 * loaded machine, and with 500 ms some rows read a lane process that had already exited.
 */
const RUN_SLACK_MS = 3000;
const CRAWL_LANES = Number(args['crawl-lanes']);
const LANES_PER_WORKER = Number(args['lanes-per-worker']);
const DRIVERS = Number(args.drivers);
const WIDTH = Number(args.width);
for (const [name, v] of [['width', WIDTH], ['warmup', WARMUP_MS], ['seconds', MEASURE_MS], ['crawl-lanes', CRAWL_LANES], ['lanes-per-worker', LANES_PER_WORKER], ['drivers', DRIVERS], ...LANES.map((n) => ['lanes', n] as const)] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
}
for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: ${m} is not one of ${MODES.join(', ')}`);
const linkShapes = args.links.split(',') as Links[];
for (const l of linkShapes) if (!LINKS.includes(l)) throw new Error(`--links: ${l} is not one of ${LINKS.join(', ')}`);

const ORIGIN = 'http://frontier.bench.test';
/** URLs queued per crawl before its lanes start: the lanes' first claims, and links found on them land below this. */
const SEEDED_PER_LANE = 64 * Number(args.width);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  mode: Mode;
  links: Links;
  lanes: number;
  crawls: number;
  load1: number;
  claimsPerSec: number;
  storesPerSec: number;
  pgCpuPerPage: number;
  lanesCpuPerPage: number;
  /** Cores busy during the window: PostgreSQL, the lanes' processes, anything else on the machine. */
  pgCores: number;
  lanesCores: number;
  otherCores: number;
  commitsPerPage: number;
  walBytesPerPage: number;
  lockWaitMsPerPage: number;
  /** Mean active backends (running or waiting). */
  activeBackends: number;
  waits: string;
  /** The statement most seen running (pg_stat_activity samples). */
  busiest: string;
  /** With --statements: per page, calls and ms (planning + execution) of the busiest statements. */
  statements: StatementCost[];
  /** Lane runs that failed and were run again, by error. */
  errors: Record<string, number>;
}

/** The crawls of one row: rows, owners and a queued frontier of `seeded` URLs each. */
async function createCrawls(prisma: PrismaClient, count: number, seeded: number, keys: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let c = 0; c < count; c++) {
    const id = randomUUID();
    const seed = new URL(`${ORIGIN}/site/`);
    const options = decodeCrawlOptions({ url: seed.href, limit: MAX_CRAWL_LIMIT, ignoreRobotsTxt: true, ignoreSitemap: true, scrapeOptions: { formats: ['markdown'] } });
    await prisma.$transaction((tx) => createJobRow(tx, { id, kind: 'crawl', seed, options, apiKeyId: keys[c % keys.length], payer: null, ttlSeconds: 86_400 }));
    const urls = Array.from({ length: seeded }, (_, i) => `${ORIGIN}/site/${i === 0 ? '' : `page-${i}`}`);
    await prisma.$executeRaw`
      INSERT INTO job_url (job_id, url_key, url, depth, discovery_depth)
      SELECT ${id}, k, u, 1, 1 FROM unnest(${urls.map((u) => urlKey(u))}::text[], ${urls}::text[]) AS t(k, u)`;
    await prisma.job.update({ where: { id }, data: { total: seeded, discoveryDone: true } });
    ids.push(id);
  }
  return ids;
}

async function counters(prisma: PrismaClient, ids: string[]): Promise<{ claims: number; stores: number }> {
  const [r] = await prisma.$queryRaw<{ claims: bigint; stores: bigint }[]>`
    SELECT (SELECT COALESCE(sum(attempts), 0) FROM job_url WHERE job_id = ANY(${ids}::text[]))::bigint AS claims,
           (SELECT COALESCE(sum(completed), 0) FROM job WHERE id = ANY(${ids}::text[]))::bigint AS stores`;
  return { claims: Number(r.claims), stores: Number(r.stores) };
}

/** Lane processes still running: killed if the bench fails midway. */
const liveDrivers = new Set<ChildProcess>();

function startDriver(request: LaneRequest): { pid: number; started: Promise<void>; done: Promise<LaneReport> } {
  const child = fork(fileURLToPath(new URL('./frontier-lanes.ts', import.meta.url)), [JSON.stringify(request)], {
    execArgv: ['--import', import.meta.resolve('tsx'), ...(args['lanes-profile'] ? ['--cpu-prof', `--cpu-prof-dir=${args['lanes-profile']}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  liveDrivers.add(child);
  child.once('exit', () => liveDrivers.delete(child));
  let started!: () => void;
  let failedToStart!: (err: Error) => void;
  const startedP = new Promise<void>((resolve, reject) => ([started, failedToStart] = [resolve, reject]));
  const done = new Promise<LaneReport>((resolve, reject) => {
    let report: LaneReport | undefined;
    child.on('message', (m: { type: string }) => {
      if (m.type === 'started') started();
      else report = m as LaneReport;
    });
    child.once('exit', (code) => {
      const err = new Error(`a lane process exited with code ${code} before reporting`);
      failedToStart(err);
      if (report && code === 0) resolve(report);
      else reject(err);
    });
  });
  // Awaited later; a process that dies first must fail the row there, not crash this one.
  done.catch(() => undefined);
  return { pid: child.pid!, started: startedP, done };
}

async function runRow(prisma: PrismaClient, watch: PgWatch, databaseUrl: string, mode: Mode, links: Links, lanes: number, keys: { own: string[]; shared: string[] }): Promise<Row> {
  await prisma.$executeRawUnsafe('TRUNCATE job, job_url, document, usage_day, usage_key_day CASCADE');
  await prisma.$executeRawUnsafe('VACUUM ANALYZE');
  const crawlCount = mode === 'one' ? 1 : Math.ceil(lanes / CRAWL_LANES);
  const lanesPerCrawl = Math.ceil(lanes / crawlCount);
  const seeded = Math.min(MAX_CRAWL_LIMIT, SEEDED_PER_LANE * lanesPerCrawl);
  const ids = await createCrawls(prisma, crawlCount, seeded, mode === 'spread' ? keys.own : keys.shared);
  const laneList = Array.from({ length: lanes }, (_, i) => ({ crawlId: ids[i % crawlCount], token: `bench:${i}:${randomUUID()}` }));
  const runMs = WARMUP_MS + MEASURE_MS + RUN_SLACK_MS;
  const perDriver = Math.ceil(lanes / DRIVERS);
  const drivers: Array<ReturnType<typeof startDriver>> = [];
  for (let d = 0; d * perDriver < lanes; d++) {
    drivers.push(startDriver({ databaseUrl, lanes: laneList.slice(d * perDriver, (d + 1) * perDriver), lanesPerWorker: LANES_PER_WORKER, width: WIDTH, runMs, sitePages: MAX_CRAWL_LIMIT, links, seeded }));
  }
  await Promise.all(drivers.map((d) => d.started));
  const load1 = loadavg()[0];
  await sleep(WARMUP_MS);
  // A driver that has exited reads as no CPU at all, which would make the row's lane and other-work figures nonsense.
  const driverCpu = () => drivers.reduce((a, d) => {
    if (!isRunning(d.pid)) throw new Error(`lane process ${d.pid} ended before the measured window was read: raise RUN_SLACK_MS`);
    return a + cpuMs(d.pid);
  }, 0);
  const selfCpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
  // The lanes' CPU is read first, before the awaited readings, while their processes surely run.
  const lanesBefore = driverCpu();
  const before = { pg: await watch.read(), counts: await counters(prisma, ids), lanes: lanesBefore, machine: machineCpuMs().busy, self: selfCpu() };
  if (args.statements) await resetStatements(databaseUrl);
  const sampler = watch.sampleWaits(20);
  await sleep(MEASURE_MS);
  const waits = await sampler.stop();
  const lanesAfter = driverCpu();
  const after = { pg: await watch.read(), counts: await counters(prisma, ids), lanes: lanesAfter, machine: machineCpuMs().busy, self: selfCpu() };
  const measuredUntil = Date.now();
  const statements = args.statements ? await topStatements(databaseUrl, after.counts.stores - before.counts.stores) : [];
  const reports = await Promise.all(drivers.map((d) => d.done));
  // A lane that ended before the measured window did (the frontier ran dry) spoils the row; one after it
  // (a fast row's crawl reaching its 100,000-page limit) does not.
  const exits = reports.flatMap((r) => Object.entries(r.exits));
  const earlyExit = Math.min(...reports.map((r) => r.firstEarlyExitAt ?? Infinity));
  if (earlyExit < measuredUntil) throw new Error(`lanes ended early (${exits.map(([e, n]) => `${n} ${e}`).join(', ')}): the frontier ran dry or a crawl stopped`);
  // Every page the lanes reported stored is one document, once.
  const [check] = await prisma.$queryRaw<{ documents: bigint; completed: bigint }[]>`
    SELECT (SELECT count(*) FROM document WHERE job_id = ANY(${ids}::text[]))::bigint AS documents, (SELECT sum(completed) FROM job WHERE id = ANY(${ids}::text[]))::bigint AS completed`;
  const errors: Record<string, number> = {};
  for (const r of reports) for (const [message, n] of Object.entries(r.errors)) errors[message] = (errors[message] ?? 0) + n;
  // Lane runs that failed stored some batches before (their own count is lost with them): compare with the crawls' counters.
  const stored = reports.reduce((a, r) => a + r.stored, 0);
  const failedRuns = Object.values(errors).reduce((a, b) => a + b, 0);
  if (Number(check.documents) !== Number(check.completed) || (failedRuns === 0 && stored !== Number(check.documents))) {
    throw new Error(`lanes stored ${stored} pages, the crawls count ${check.completed}, documents ${check.documents}`);
  }

  const wallS = (after.pg.at - before.pg.at) / 1000;
  const pages = after.counts.stores - before.counts.stores;
  const delta = (k: keyof Omit<PgReading, 'at'>) => after.pg[k] - before.pg[k];
  const pgCpu = delta('cpuMs');
  const lanesCpu = after.lanes - before.lanes;
  const busy = after.machine - before.machine;
  const active = [...waits.byEvent.values()].reduce((a, b) => a + b, 0);
  return {
    mode,
    links,
    lanes,
    crawls: crawlCount,
    load1,
    claimsPerSec: (after.counts.claims - before.counts.claims) / wallS,
    storesPerSec: pages / wallS,
    pgCpuPerPage: pgCpu / pages,
    lanesCpuPerPage: lanesCpu / pages,
    pgCores: pgCpu / 1000 / wallS,
    lanesCores: lanesCpu / 1000 / wallS,
    otherCores: Math.max(0, busy - pgCpu - lanesCpu - (after.self - before.self)) / 1000 / wallS,
    commitsPerPage: delta('commits') / pages,
    walBytesPerPage: delta('walBytes') / pages,
    lockWaitMsPerPage: (lockSamples(waits) * waits.intervalMs) / pages,
    activeBackends: active / waits.samples,
    waits: topWaits(waits),
    busiest: topQuery(waits),
    statements,
    errors,
  };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

function printRow(r: Row): void {
  console.log(
    [
      pad(r.mode, 18),
      pad(r.links, 6),
      pad(r.lanes, 5),
      pad(r.crawls, 6),
      pad(r.claimsPerSec.toFixed(0), 8),
      pad(r.storesPerSec.toFixed(0), 8),
      pad(r.pgCpuPerPage.toFixed(3), 8),
      pad(r.lanesCpuPerPage.toFixed(3), 8),
      pad(`${r.pgCores.toFixed(2)}/${r.lanesCores.toFixed(2)}/${r.otherCores.toFixed(2)}`, 15),
      pad(r.commitsPerPage.toFixed(2), 7),
      pad(r.walBytesPerPage.toFixed(0), 7),
      pad(r.lockWaitMsPerPage.toFixed(3), 8),
      pad(r.activeBackends.toFixed(1), 6),
      pad(r.load1.toFixed(1), 5),
      `  ${r.waits}`,
    ].join(' '),
  );
  console.log(`${pad('', 23)}most seen running: ${r.busiest}`);
  for (const [message, n] of Object.entries(r.errors)) console.log(`${pad(n, 30)} lane run(s) failed and were run again: ${message}`);
  printStatements(r.statements, 20);
}

/** Where a mode's stores/s peaked, and what was in the way there. */
function verdict(rows: Row[]): string {
  const best = rows.reduce((a, b) => (b.storesPerSec > a.storesPerSec ? b : a));
  const cores = availableParallelism();
  const busy = best.pgCores + best.lanesCores + best.otherCores;
  const why = [
    `${busy.toFixed(2)} of ${cores} cores busy (PostgreSQL ${best.pgCores.toFixed(2)}, lanes ${best.lanesCores.toFixed(2)}, other work ${best.otherCores.toFixed(2)})`,
    `${best.activeBackends.toFixed(1)} backends active on average; ${best.waits}`,
    `lock waits ${best.lockWaitMsPerPage.toFixed(3)} ms per page`,
  ];
  const pgBound = 1000 / best.pgCpuPerPage;
  return `${best.mode}, ${best.links} links: peak ${best.storesPerSec.toFixed(0)} stores/s at ${best.lanes} lanes: ${why.join('; ')}. PostgreSQL alone, one core per ${best.pgCpuPerPage.toFixed(3)} ms a page: ~${pgBound.toFixed(0)} pages/s per core it gets.`;
}

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-frontier-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
let failed = false;
const stack = loadStackConfig();
const pidDir = join(root, 'run');
const pgOptions = { dataDir: join(root, 'pg'), port: await freePort(), binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_frontier', ephemeral: !args['pg-fsync'], pidDir, timeoutMs: stack.STACK_READY_TIMEOUT_MS };
const pgHandle = args.statements ? await startWithStatements(() => startPostgres(pgOptions)) : await startPostgres(pgOptions);
try {
  await applyMigrations(pgHandle.url);
  const prisma = createPrisma(pgHandle.url);
  const postmaster = readPidFile(pidDir, 'postgres');
  if (!postmaster) throw new Error(`no pid file for postgres in ${pidDir}`);
  const watch = await watchPostgres(pgHandle.url, postmaster.pid);
  const shared = [(await createKey(prisma, 'bench-shared', 'bench-frontier-pepper-0123456789', DEFAULT_ACCOUNT_ID)).id];
  const own: string[] = [];
  for (let i = 0; i < Math.ceil(Math.max(...LANES) / CRAWL_LANES); i++) {
    const accountId = `bench-${i}`;
    await prisma.account.create({ data: { id: accountId, name: accountId } });
    own.push((await createKey(prisma, accountId, 'bench-frontier-pepper-0123456789', accountId)).id);
  }
  const cpuModel = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  console.log(`frontier ceiling: no-op pages, lanes of ${WIDTH}, ${LANES_PER_WORKER} lanes per simulated worker (pool of 10 each), ${DRIVERS} lane process(es); ${WARMUP_MS / 1000} s warm-up + ${MEASURE_MS / 1000} s measured per row`);
  console.log(`PostgreSQL 15, fsync ${args['pg-fsync'] ? 'on (synchronous commit)' : 'off (throwaway, as the tests)'}; ${availableParallelism()} cores (${cpuModel}); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at start`);
  console.log(`cores: PostgreSQL/lanes/other work on the machine; lock: ms of lock wait per page (sampled); active: mean active backends; load: 1-min load average at row start\n`);
  console.log(`${pad('mode', 18)} ${pad('links', 6)} ${pad('lanes', 5)} ${pad('crawls', 6)} ${pad('claims/s', 8)} ${pad('stores/s', 8)} ${pad('pg ms/p', 8)} ${pad('lane ms', 8)} ${pad('cores pg/ln/oth', 15)} ${pad('xact/p', 7)} ${pad('WAL B/p', 7)} ${pad('lock ms', 8)} ${pad('active', 6)} ${pad('load', 5)}  top waits (backend-samples)`);
  const all: Row[] = [];
  for (const links of linkShapes) {
    for (const mode of modes) {
      for (const lanes of LANES) {
        const row = await runRow(prisma, watch, pgHandle.url, mode, links, lanes, { own, shared });
        printRow(row);
        all.push(row);
      }
    }
  }
  console.log('\nwhere it stops scaling:');
  for (const links of linkShapes) for (const mode of modes) console.log(`  ${verdict(all.filter((r) => r.mode === mode && r.links === links))}`);
  await watch.close();
  await prisma.$disconnect();
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  for (const child of liveDrivers) child.kill('SIGKILL');
  await pgHandle.stop();
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
