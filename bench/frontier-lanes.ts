/**
 * The lanes of bench/frontier.ts, in a process of their own (so the parent's measuring is not
 * delayed by their event loop): the real `crawlLane` activity (activities/crawl/lane.ts, with the
 * real frontier and batch store) run in Temporal's MockActivityEnvironment (heartbeats and
 * cancellation as on a worker, no server), with a page pipeline that does no work: each page
 * "returns" a small document and six links at once, so admission, dedupe against the frontier and
 * skip counting run as in a crawl. `tree`: the fixture site's page (bench/crawl-site.ts's shape: two
 * children, the parent, two cross links, one link off the site), a crawl still spreading out (3.4 URLs
 * it has not seen per page); `steady`: one link to a page not seen yet, four to pages already
 * admitted, one off the site, a crawl's average over its life (each URL admitted once, fetched once).
 *
 * Lanes are grouped into simulated workers of `lanesPerWorker`: each group has its own Prisma client
 * (a pg pool of 10, as each worker process has) and page slots, so no lane waits for a connection.
 *
 * Forked with a JSON `LaneRequest` as its argument; sends `{ type: 'started' }` once every lane has
 * been started and `LaneReport` when they have all returned (each after `runMs`: exit `rotate`).
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { laneActivities } from '../activities/crawl/lane.js';
import { activityDeps } from '../activities/deps.js';
import type { RunPage } from '../activities/pipeline/pipeline.js';
import { fetchOnlyEngineSet } from '../activities/engines/index.js';
import { loadConfig } from '../core/config.js';
import { urlKey } from '../core/url-key.js';
import type { LaneInput, LaneResult } from '../core/job-contracts.js';
import { createLogger } from '../core/log.js';
import { createPrisma } from '../prisma/client.js';
import { convertInline } from '../worker/convert-pool.js';
import { throwawayEnv } from '../scripts/infra/throwaway.js';

export interface LaneRequest {
  databaseUrl: string;
  /** One entry per lane: the crawl it works on and its lane-run token. */
  lanes: Array<{ crawlId: string; token: string }>;
  lanesPerWorker: number;
  /** Pages each lane holds at once (LaneInput.width). */
  width: number;
  /** Each lane stops claiming after this long (its `maxMs`), finishes what it holds and returns. */
  runMs: number;
  /** Pages in the fixture site: links point below this. */
  sitePages: number;
  /** What each page links to (see the top of this file). */
  links: 'tree' | 'steady';
  /** URLs queued per crawl at the start (`steady`: page i links to page i + seeded). */
  seeded: number;
}

export interface LaneReport {
  type: 'done';
  exits: Record<string, number>;
  /** Lane runs that failed (and were run again), by the last line of their error. */
  errors: Record<string, number>;
  /** Pages stored by the lane runs that returned (a failed run's batches were rolled back or stored by its retry). */
  stored: number;
  /** Pages the no-op pipeline was asked for (claims that reached it). */
  pages: number;
  /** When the first lane ended otherwise than by rotating (Date.now()), if one did. */
  firstEarlyExitAt?: number;
}

/** The fixture site's links from page `i` of `n` (bench/crawl-site.ts), plus one off the site. */
function siteLinks(origin: string, i: number, n: number): string[] {
  const path = (j: number) => `${origin}/site/${j === 0 ? '' : `page-${j}`}`;
  const out = [2 * i + 1, 2 * i + 2].filter((c) => c < n);
  if (i > 0) out.push(Math.floor((i - 1) / 2));
  for (const k of [7, 31]) out.push((i * k + 13) % n);
  return [...out.map(path), 'https://example.org/partner'];
}

/** One page not seen yet (page i + seeded is first linked from page i), four already admitted (ids ≤ i), one off the site. */
function steadyLinks(origin: string, i: number, seeded: number): string[] {
  const path = (j: number) => `${origin}/site/${j === 0 ? '' : `page-${j}`}`;
  const known = [Math.max(0, i - 1), Math.floor(i / 2), (i * 7 + 13) % (i + 1), (i * 31 + 13) % (i + 1)];
  return [path(i + seeded), ...known.map(path), 'https://example.org/partner'];
}

const MARKDOWN = `# A page\n\n${'Words of a small page, as a crawl would store them. '.repeat(10)}\n`;

function noOpPipeline(request: LaneRequest, counter: { pages: number }): RunPage {
  return async (job) => {
    counter.pages++;
    const url = new URL(job.url);
    const i = Number(/page-(\d+)$/.exec(url.pathname)?.[1] ?? 0);
    return {
      document: { url: job.url, urlKey: urlKey(url), markdown: MARKDOWN, metadata: { title: `Page ${i}`, sourceURL: job.sourceURL, url: job.url, statusCode: 200 }, statusCode: 200 },
      links: request.links === 'steady' ? steadyLinks(url.origin, i, request.seeded) : siteLinks(url.origin, i, request.sitePages),
    };
  };
}

async function main(request: LaneRequest): Promise<LaneReport> {
  const env = throwawayEnv('bench-frontier', { databaseUrl: request.databaseUrl, redisUrl: 'redis://127.0.0.1:1', temporalAddress: '127.0.0.1:1', temporalNamespace: 'default', chromiumPath: process.execPath });
  const config = loadConfig('worker', { env: { ...env, WORKER_CONCURRENCY: String(request.lanesPerWorker * request.width) } });
  const log = createLogger({ name: 'bench-frontier', level: 'warn' });
  const counter = { pages: 0 };
  const runPage = noOpPipeline(request, counter);
  const workers: Array<ReturnType<typeof laneActivities>> = [];
  const prismas = [];
  for (let i = 0; i < request.lanes.length; i += request.lanesPerWorker) {
    const prisma = createPrisma(config.DATABASE_URL);
    await prisma.$queryRaw`SELECT 1`;
    prismas.push(prisma);
    // Engines and conversion are never called (the pipeline is replaced); they are built as a worker builds them.
    const engines = fetchOnlyEngineSet(config);
    workers.push(laneActivities({ ...activityDeps({ config, prisma, log, engines, convert: convertInline }), runPage }));
  }
  const errors: Record<string, number> = {};
  const until = Date.now() + request.runMs;
  // A lane run that fails is retried with the same token until the row's time is up, as Temporal
  // retries a failed activity (the retry takes its claims back first), after a second as Temporal's
  // first retry waits; a lane still failing when the time is up ends as stopped (its errors are counted).
  let firstEarlyExitAt: number | undefined;
  const runs = request.lanes.map(async ({ crawlId, token }, i): Promise<LaneResult> => {
    const lane = workers[Math.floor(i / request.lanesPerWorker)];
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        if (Date.now() >= until) return { exit: 'stopped', stored: 0, completed: 0, failed: 0, total: 0 };
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const env = new MockActivityEnvironment({ activityType: 'crawlLane', heartbeatTimeoutMs: 10_000 });
      try {
        const result = await env.run<[LaneInput], LaneResult, typeof lane.crawlLane>(lane.crawlLane, { crawlId, token, width: request.width, delayMs: 0, maxMs: Math.max(0, until - Date.now()), taskQueue: '' });
        if (result.exit !== 'rotate') firstEarlyExitAt = Math.min(firstEarlyExitAt ?? Infinity, Date.now());
        return result;
      } catch (err) {
        const message = (err instanceof Error ? err.message : String(err)).trim().split('\n').at(-1)!.slice(0, 160);
        errors[message] = (errors[message] ?? 0) + 1;
      }
    }
  });
  process.send?.({ type: 'started' });
  const results: LaneResult[] = await Promise.all(runs);
  await Promise.all(prismas.map((p) => p.$disconnect()));
  const exits: Record<string, number> = {};
  for (const r of results) exits[r.exit] = (exits[r.exit] ?? 0) + 1;
  return { type: 'done', exits, errors, stored: results.reduce((a, r) => a + r.stored, 0), pages: counter.pages, ...(firstEarlyExitAt ? { firstEarlyExitAt } : {}) };
}

const request = JSON.parse(process.argv[2] ?? '{}') as LaneRequest;
main(request).then(
  (report) => {
    if (process.send) process.send(report, () => process.exit(0));
    else {
      console.log(JSON.stringify(report));
      process.exit(0);
    }
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
// Parent gone: nothing to report to.
process.on('disconnect', () => process.exit(1));
