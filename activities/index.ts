/**
 * Activities are built by a factory from their dependencies, so the worker passes real clients and
 * tests can pass whatever the boundary under test needs. The page pipeline and the worker's page
 * slots are made here once, for every activity that handles pages.
 */
import type { RequiredFor } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';
import type { ConvertPage } from './convert.js';
import type { EngineSet } from './engines/chain.js';
import { crawlActivities } from './crawl/index.js';
import { healthActivities } from './health.js';
import { mapActivities } from './map.js';
import { monitorCheckActivities } from './monitor/check.js';
import { createPagePipeline, llmSettingsFrom, type RunPage } from './page/pipeline.js';
import { PageSlots } from './page/slots.js';
import { webhookActivities } from './webhooks.js';

export interface WorkerDeps {
  config: RequiredFor<'worker'>;
  prisma: PrismaClient;
  log: Logger;
  engines: EngineSet;
  convert: ConvertPage;
  /** Aborted when the worker begins shutting down: page lanes stop claiming and hand their crawl back. */
  stopping?: AbortSignal;
}

/** What activities see: the worker's dependencies plus the one page pipeline and the worker's page slots. */
export interface ActivityDeps extends WorkerDeps {
  runPage: RunPage;
  pageSlots: PageSlots;
  stopping: AbortSignal;
}

/** The worker's dependencies with the one page pipeline and its page slots: for the activities and the scrape endpoint alike. */
export function activityDeps(workerDeps: WorkerDeps): ActivityDeps {
  return {
    ...workerDeps,
    runPage: createPagePipeline({ engines: workerDeps.engines, convert: workerDeps.convert, prisma: workerDeps.prisma, llm: llmSettingsFrom(workerDeps.config) }),
    pageSlots: new PageSlots(workerDeps.config.WORKER_CONCURRENCY),
    stopping: workerDeps.stopping ?? new AbortController().signal,
  };
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...healthActivities(deps),
    ...webhookActivities(deps),
    ...crawlActivities(deps),
    ...mapActivities(deps),
    ...monitorCheckActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
