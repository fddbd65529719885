/**
 * What a conditional recheck saves (README "Change tracking"): a site is crawled with change
 * tracking, then crawled again, unchanged, as a monitor rechecks it. The same site twice, side by
 * side in one run: `/etag/` sends ETags (the recheck is answered 304 page by page, nothing
 * downloaded or converted) and `/plain/` sends none (every page is downloaded, converted and
 * compared). Prints wall time and CPU per page (worker, PostgreSQL, all) of each recheck, and the
 * ratio.
 *
 *   npx tsx bench/recheck.ts [--pages 1000] [--concurrency 10]
 *
 * Starts its own PostgreSQL, Redis, Temporal dev server, API and worker process (bench/crawl-stack.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startCrawlStack, type CrawlStack } from './crawl-stack.js';
import { cpuMs } from './crawl-measure.js';
import { startSite, type SiteProcess } from './crawl-site.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '10' } } });
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);

async function api<T>(stack: CrawlStack, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`, { method, headers: { authorization: `Bearer ${stack.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const json = (await res.json()) as T;
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

interface Run {
  wallMs: number;
  workerMs: number;
  postgresMs: number;
  totalMs: number;
  same: number;
}

/** One crawl of `folder` with change tracking, to the end; its wall time, CPU, and how many pages were `same`. */
async function crawl(stack: CrawlStack, site: SiteProcess, folder: string): Promise<Run> {
  const cpu = () => ({ worker: cpuMs(stack.pids.worker), postgres: cpuMs(stack.pids.postgres, true), all: cpuMs(stack.pids.worker) + cpuMs(stack.pids.postgres, true) + cpuMs(stack.pids.temporal) + cpuMs(site.pid) + process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000 });
  const before = cpu();
  const start = performance.now();
  const { id } = await api<{ id: string }>(stack, 'POST', '/v1/crawl', {
    url: `${site.origin}${folder}`,
    limit: PAGES,
    ignoreSitemap: true,
    ignoreRobotsTxt: true,
    maxConcurrency: CONCURRENCY,
    scrapeOptions: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: folder } },
  });
  for (;;) {
    const status = await api<{ status: string; completed: number }>(stack, 'GET', `/v1/crawl/${id}?limit=1`);
    if (status.status !== 'scraping') {
      if (status.status !== 'completed' || status.completed !== PAGES) throw new Error(`crawl of ${folder} ended ${status.status} with ${status.completed} pages`);
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const wallMs = performance.now() - start;
  const after = cpu();
  const same = await stack.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM document WHERE job_id = ${id} AND change_tracking->>'changeStatus' = 'same'`;
  return { wallMs, workerMs: after.worker - before.worker, postgresMs: after.postgres - before.postgres, totalMs: after.all - before.all, same: same[0]?.n ?? 0 };
}

const root = mkdtempSync(join(tmpdir(), 'pagewright-recheck-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
let stack: CrawlStack | undefined;
let site: SiteProcess | undefined;
try {
  console.log('starting the stack and the site ...');
  [stack, site] = await Promise.all([startCrawlStack({ root, workerConcurrency: CONCURRENCY, pgFsync: false }), startSite({ '/etag/': PAGES, '/plain/': PAGES })]);
  const runs: Record<string, { first: Run; recheck: Run }> = {};
  for (const folder of ['/plain/', '/etag/']) {
    const first = await crawl(stack, site, folder);
    const recheck = await crawl(stack, site, folder);
    if (recheck.same !== PAGES) throw new Error(`the recheck of ${folder} found ${recheck.same} of ${PAGES} pages the same`);
    runs[folder] = { first, recheck };
  }
  const per = (ms: number) => `${(ms / PAGES).toFixed(2)} ms`;
  console.log(`\n${PAGES} pages, concurrency ${CONCURRENCY}; CPU per page (worker / PostgreSQL / all processes):`);
  for (const [folder, { first, recheck }] of Object.entries(runs)) {
    console.log(`${folder.padEnd(8)} first crawl ${(first.wallMs / 1000).toFixed(1)} s, ${per(first.workerMs)} / ${per(first.postgresMs)} / ${per(first.totalMs)}`);
    console.log(`${''.padEnd(8)} recheck     ${(recheck.wallMs / 1000).toFixed(1)} s, ${per(recheck.workerMs)} / ${per(recheck.postgresMs)} / ${per(recheck.totalMs)} (all ${recheck.same} pages same)`);
  }
  const [plain, etag] = [runs['/plain/']!.recheck, runs['/etag/']!.recheck];
  console.log(`\na conditional recheck (304s) against a full one: wall x${(etag.wallMs / plain.wallMs).toFixed(2)}, worker CPU x${(etag.workerMs / plain.workerMs).toFixed(2)}, all CPU x${(etag.totalMs / plain.totalMs).toFixed(2)}`);
} finally {
  await stack?.stop();
  await site?.close();
  rmSync(root, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);
