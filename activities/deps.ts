/**
 * What activities are built from: the worker's dependencies (real clients in the worker, whatever a
 * test needs in tests), plus the one page pipeline and the worker's page slots, made here once for
 * every activity that handles pages and for the worker's scrape endpoint.
 */
import type { RequiredFor } from '../core/config.js';
import type { ConvertPage } from '../core/html/types.js';
import type { Logger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';
import { noTracing, type Tracing } from '../telemetry/tracing.js';
import type { EngineSet } from './engines/chain.js';
import { createPagePipeline, llmSettingsFrom, type RunPage } from './pipeline/pipeline.js';
import { PageSlots } from './pipeline/slots.js';

export interface WorkerDeps {
  config: RequiredFor<'worker'>;
  prisma: PrismaClient;
  log: Logger;
  engines: EngineSet;
  convert: ConvertPage;
  /** Aborted when the worker begins shutting down: page lanes stop claiming and hand their crawl back. */
  stopping?: AbortSignal;
  /** Page, fetch, convert and store spans (README "Traces"); none when absent. */
  tracing?: Tracing;
}

/** What activities see: the worker's dependencies plus the one page pipeline and the worker's page slots. */
export interface ActivityDeps extends WorkerDeps {
  runPage: RunPage;
  pageSlots: PageSlots;
  stopping: AbortSignal;
  tracing: Tracing;
}

/** The worker's dependencies with the one page pipeline and its page slots: for the activities and the scrape endpoint alike. */
export function activityDeps(workerDeps: WorkerDeps): ActivityDeps {
  const tracing = workerDeps.tracing ?? noTracing;
  return {
    ...workerDeps,
    runPage: createPagePipeline({ engines: workerDeps.engines, convert: workerDeps.convert, prisma: workerDeps.prisma, llm: llmSettingsFrom(workerDeps.config), tracing }),
    pageSlots: new PageSlots(workerDeps.config.WORKER_CONCURRENCY),
    stopping: workerDeps.stopping ?? new AbortController().signal,
    tracing,
  };
}
