/**
 * A kill test at scale (issue 26): `--workers` worker processes crawl `--pages` loopback pages while
 * every `--kill-every` seconds one of them (in turn) is SIGKILLed and a replacement started in its
 * place, as deployed (bench/scale-stack.ts: the API, workers, PostgreSQL, Redis and Temporal each a
 * process). bench/soak.ts is the same with two workers.
 *
 *   npm run bench:kill-at-scale [-- --pages 20000 --workers 4 --kill-every 10 --concurrency 16 --timeout 1800]
 *
 * Prints, from the crawl's frontier (job_url) against its documents, and the site's request log:
 *   - lost: admitted but neither done nor failed, or done without a document (must be 0);
 *   - stored twice: documents beyond one per URL, or a document whose URL is not done (must be 0),
 *     and whether the paging order is gap-free;
 *   - the most fetches of one page (a page in flight on a killed worker is fetched again).
 * Exits non-zero when the crawl does not complete or any page is lost or stored twice.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installSignalCleanup } from '../scripts/infra/child.js';
import { startSite } from './crawl-site.js';
import { checkStored, watchCrawl } from './scale-crawl.js';
import { startScaleStack, type ServiceProcess } from './scale-stack.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '20000' },
    workers: { type: 'string', default: '4' },
    'kill-every': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    timeout: { type: 'string', default: '1800' },
  },
});
const PAGES = Number(args.pages);
const WORKERS = Number(args.workers);
const KILL_EVERY_MS = Number(args['kill-every']) * 1000;
const CONCURRENCY = Number(args.concurrency);
const TIMEOUT_MS = Number(args.timeout) * 1000;
for (const [name, v] of [['pages', PAGES], ['workers', WORKERS], ['kill-every', KILL_EVERY_MS], ['concurrency', CONCURRENCY], ['timeout', TIMEOUT_MS]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
}

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-kill-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const site = await startSite({ '/site/': PAGES });
let failed = false;
try {
  console.log(`kill at scale: ${PAGES} pages, ${WORKERS} workers at WORKER_CONCURRENCY ${CONCURRENCY} (crawl maxConcurrency ${CONCURRENCY * WORKERS}), one SIGKILLed and replaced every ${KILL_EVERY_MS / 1000} s; load average ${loadavg()[0].toFixed(1)}`);
  const stack = await startScaleStack({ root, workerConcurrency: CONCURRENCY });
  try {
    const api = await stack.startApi('api');
    const workers: ServiceProcess[] = [];
    for (let i = 0; i < WORKERS; i++) workers.push(await stack.startWorker(`worker-${i}`));
    let kills = 0;
    let nextKill = KILL_EVERY_MS;
    let nextReport = 10_000;
    const restarts: Promise<void>[] = [];
    const crawl = await watchCrawl(
      stack,
      { apiUrl: api.url, seed: `${site.origin}/site/`, limit: PAGES, maxConcurrency: CONCURRENCY * WORKERS, timeoutMs: TIMEOUT_MS },
      () => workers.filter((w) => w.child.running()),
      async (at) => {
        if (at >= nextKill) {
          nextKill += KILL_EVERY_MS;
          const slot = kills % WORKERS;
          const victim = workers[slot];
          // A replacement still booting is left alone this round.
          if (victim.child.pid && victim.child.running()) {
            process.kill(victim.child.pid, 'SIGKILL');
            await victim.child.exited;
            kills++;
            // Its replacement boots while the others crawl on.
            restarts.push(stack.startWorker(`worker-${slot}-r${kills}`).then((w) => void (workers[slot] = w)));
          }
        }
        if (at >= nextReport) {
          nextReport += 10_000;
          const row = await stack.prisma.job.findFirstOrThrow({ where: { kind: 'crawl' }, orderBy: { createdAt: 'desc' }, select: { completed: true, total: true } });
          console.log(`  ${(at / 1000).toFixed(0)} s: ${row.completed} of ${row.total} pages done, ${kills} worker(s) killed`);
        }
      },
    );
    await Promise.allSettled(restarts);
    const check = await checkStored(stack, crawl.id);
    const hits = (await site.hits())['/site/'];
    console.log(`\ncrawl completed in ${(crawl.wallMs / 1000).toFixed(1)} s (${(PAGES / (crawl.wallMs / 1000)).toFixed(1)} pages/s) with ${kills} workers SIGKILLed: ${check.total} URLs admitted, ${check.done} done, ${check.failed} failed, ${check.documents} documents`);
    console.log(`  lost:                  ${check.lost} (must be 0)`);
    console.log(`  stored twice:          ${check.storedTwice} (must be 0); paging order ${check.gapFree ? 'gap-free' : 'HAS GAPS OR REPEATS'}`);
    console.log(`  most fetches of a page: ${hits.max}; ${hits.total - hits.distinct} refetches in all (pages in flight on a killed worker)`);
    if (check.total !== PAGES || check.lost !== 0 || check.storedTwice !== 0 || !check.gapFree) failed = true;
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
