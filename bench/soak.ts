/**
 * Soak: a long crawl while workers keep dying. `--workers` worker/main.ts processes crawl `--pages`
 * loopback pages; every `--kill-every` seconds one of them (in turn) is killed with SIGKILL and a
 * new one is started in its place, until the crawl ends. Run by hand (minutes); figures go in the
 * README.
 *
 *   npm run bench:soak [-- --pages 10000 --kill-every 15 --workers 2 --concurrency 8 --timeout 1800]
 *
 * Prints, from PostgreSQL and the site's own request log:
 *   - pages lost: admitted to the crawl but neither stored nor recorded as failed (must be 0);
 *   - pages stored twice: documents beyond one per page, and gaps or repeats in the paging order (must be 0);
 *   - the most times one page was fetched (at most 2: a page in flight when its worker died is fetched again).
 * Exits non-zero when any of the three is broken, or the crawl does not complete.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installSignalCleanup } from '../scripts/infra/child.js';
import type { Child } from '../scripts/infra/child.js';
import { startSite } from './crawl-site.js';
import { startCrawlStack } from './crawl-stack.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    'kill-every': { type: 'string', default: '15' },
    workers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '8' },
    timeout: { type: 'string', default: '1800' },
  },
});
const PAGES = Number(args.pages);
const KILL_EVERY_MS = Number(args['kill-every']) * 1000;
const WORKERS = Number(args.workers);
const CONCURRENCY = Number(args.concurrency);
const TIMEOUT_MS = Number(args.timeout) * 1000;
for (const [name, v] of [['pages', PAGES], ['kill-every', KILL_EVERY_MS], ['workers', WORKERS], ['concurrency', CONCURRENCY], ['timeout', TIMEOUT_MS]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${args[name]}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-soak-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const site = await startSite({ '/soak/': PAGES });
let failedChecks = 0;
try {
  console.log(`soak: ${PAGES} pages, ${WORKERS} worker(s) at WORKER_CONCURRENCY ${CONCURRENCY}, one SIGKILLed and replaced every ${KILL_EVERY_MS / 1000} s`);
  const stack = await startCrawlStack({ root, workerConcurrency: CONCURRENCY, pgFsync: false });
  try {
    const workers: Child[] = [stack.worker];
    for (let i = 1; i < WORKERS; i++) workers.push(await stack.startWorker(`worker-${i}`));
    const res = await fetch(`${stack.apiUrl}/v1/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/soak/`, limit: PAGES, ignoreRobotsTxt: true, scrapeOptions: { formats: ['markdown'] } }),
    });
    const { id } = (await res.json()) as { id: string };
    if (res.status !== 200) throw new Error(`POST /v1/crawl answered ${res.status}`);
    const start = performance.now();
    let kills = 0;
    let nextKill = start + KILL_EVERY_MS;
    let status = 'scraping';
    const restarts: Promise<void>[] = [];
    let nextReport = start + 10_000;
    while (status === 'scraping') {
      if (performance.now() - start > TIMEOUT_MS) throw new Error(`the crawl is still running after ${TIMEOUT_MS / 1000} s`);
      if (performance.now() >= nextKill) {
        const slot = kills % WORKERS;
        const victim = workers[slot]!;
        nextKill += KILL_EVERY_MS;
        // A replacement still booting is left alone this round.
        if (victim.pid && victim.running()) {
          process.kill(victim.pid, 'SIGKILL');
          await victim.exited;
          kills++;
          // Its replacement boots (bundling the workflows takes a few seconds) while the others crawl on.
          restarts.push(stack.startWorker(`worker-${slot}-r${kills}`).then((w) => void (workers[slot] = w)));
        }
      }
      const row = await stack.prisma.job.findUniqueOrThrow({ where: { id }, select: { status: true, completed: true, total: true } });
      status = row.status;
      if (performance.now() >= nextReport) {
        nextReport += 10_000;
        console.log(`  ${elapsed(start)}: ${row.completed} of ${row.total} pages done, ${kills} kill(s)`);
      }
      await sleep(500);
    }
    const wall = performance.now() - start;
    await Promise.allSettled(restarts);
    const crawl = await stack.prisma.job.findUniqueOrThrow({ where: { id } });
    const urls = await stack.prisma.jobUrl.groupBy({ by: ['status'], where: { jobId: id }, _count: true });
    const byStatus = Object.fromEntries(urls.map((u) => [u.status, u._count]));
    const documents = await stack.prisma.document.count({ where: { jobId: id } });
    const distinct = (await stack.prisma.document.groupBy({ by: ['urlKey'], where: { jobId: id } })).length;
    const sequences = await stack.prisma.document.findMany({ where: { jobId: id }, select: { sequence: true }, orderBy: { sequence: 'asc' } });
    const gapFree = sequences.every((d, i) => d.sequence === i);
    const hits = (await site.hits())['/soak/']!;
    const lost = crawl.total - (byStatus.done ?? 0) - (byStatus.failed ?? 0);
    const storedTwice = documents - distinct + (gapFree ? 0 : 1);
    console.log(`\ncrawl ${crawl.status} in ${(wall / 1000).toFixed(1)} s with ${kills} worker(s) killed: ${crawl.completed} of ${crawl.total} pages done, ${documents} stored, ${crawl.failed} failed`);
    console.log(`  pages lost:                   ${lost} (must be 0)`);
    console.log(`  pages stored twice:           ${storedTwice} (must be 0; paging order ${gapFree ? 'gap-free' : 'HAS GAPS OR REPEATS'})`);
    console.log(`  most fetches of one page:     ${hits.max} (at most 2); ${hits.total - hits.distinct} refetches in all`);
    if (crawl.status !== 'completed') failedChecks++;
    if (lost !== 0) failedChecks++;
    if (storedTwice !== 0) failedChecks++;
    if (hits.max > 2) failedChecks++;
  } finally {
    await stack.stop();
  }
} catch (err) {
  console.error(err);
  failedChecks++;
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
}
process.exit(failedChecks === 0 ? 0 : 1);
