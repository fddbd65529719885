/** What the API's handlers may use. Built once by `createApiDeps` (api/main.ts, tests, benches) and put on ctx.state. */
import { readFileSync } from 'node:fs';
import { Client, Connection, isRetryableError, makeGrpcRetryInterceptor, type GrpcRetryOptions } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type { RequiredFor } from '../core/config.js';
import type { Logger } from '../core/log.js';
import { temporalConnectionOptions } from '../core/temporal-options.js';
import { createPrisma, type PrismaClient } from '../prisma/client.js';
import { temporalClientInterceptors } from '../telemetry/temporal.js';
import { startTracing, type Tracing } from '../telemetry/tracing.js';
import { ActivityLog } from './activity-log.js';
import { connectRedis } from './redis.js';
import { ScrapeWorkers } from './scrape-workers.js';
import { watchFrontier } from '../telemetry/metrics.js';

export interface ApiDeps {
  config: RequiredFor<'api'>;
  prisma: PrismaClient;
  redis: Redis;
  temporal: Client;
  /** The workers' scrape endpoints (README "Scrape path"). */
  scrapeWorkers: ScrapeWorkers;
  /** The dashboard's activity log, written in batches (api/activity-log.ts). */
  activityLog: ActivityLog;
  log: Logger;
  /** Request spans and trace context for Temporal and the scrape endpoints (README "Traces"); `noTracing` when off. */
  tracing: Tracing;
}

/**
 * The client's gRPC retries, with waits of at most 500 ms. The SDK's own back off up to 5 s between
 * attempts and do not look at the call's deadline while they wait, so a workflow start given 5 s
 * (START_DEADLINE_MS) against an unreachable Temporal answered after 5.6 to 9.5 s, depending on
 * where the jitter put the last attempt; now within about half a second of its deadline.
 */
const retries: GrpcRetryOptions = {
  retryableDecider: (attempt, status) => attempt < 20 && isRetryableError(status),
  delayFunction: (attempt) => Math.min(500, 100 * 1.7 ** attempt) * (0.8 + Math.random() * 0.4),
};

/**
 * Open the API's connections. Temporal's is lazy: the API starts (and /health answers) even while
 * Temporal is still coming up. `close` ends all three.
 */
export function createApiDeps(config: RequiredFor<'api'>, log: Logger): ApiDeps & { close(): Promise<void> } {
  const prisma = createPrisma(config.DATABASE_URL);
  const redis = connectRedis(config.REDIS_URL, log);
  const connection = Connection.lazy({ ...temporalConnectionOptions(config, readFileSync), interceptors: [makeGrpcRetryInterceptor(retries)] });
  const tracing = startTracing(config, 'api', log);
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: temporalClientInterceptors(tracing) });
  const scrapeWorkers = new ScrapeWorkers(redis, config.TEMPORAL_TASK_QUEUE, config.SCRAPE_SERVICE_TOKEN, tracing);
  const activityLog = new ActivityLog(prisma, log);
  const unwatch = watchFrontier(() => frontierDepth(prisma));
  return {
    config,
    prisma,
    redis,
    temporal,
    scrapeWorkers,
    activityLog,
    log,
    tracing,
    async close() {
      unwatch();
      await activityLog.close();
      await Promise.allSettled([prisma.$disconnect(), redis.quit(), connection.close(), scrapeWorkers.close(), tracing.shutdown()]);
    },
  };
}

/**
 * URLs queued and claimed in the frontier of every running crawl and batch scrape, for the
 * `pagewright_frontier_urls` gauge (read when Prometheus scrapes the API; an autoscaler's signal).
 * A database that does not answer reports nothing rather than failing the whole scrape.
 */
async function frontierDepth(prisma: PrismaClient): Promise<Record<string, number>> {
  try {
    const rows = await prisma.$queryRaw<{ status: string; urls: number }[]>`
      SELECT u.status, count(*)::int AS urls FROM job_url u JOIN job j ON j.id = u.job_id
      WHERE j.status = 'scraping' AND u.status IN ('queued', 'claimed') GROUP BY u.status`;
    return { queued: 0, claimed: 0, ...Object.fromEntries(rows.map((r) => [r.status, r.urls])) };
  } catch {
    return {};
  }
}
