/** A real worker in the test process, on its own task queue, against the test Temporal server. */
import { randomUUID } from 'node:crypto';
import { NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import { convertInline } from '../../worker/convert-pool.js';
import { createEngineSet } from '../../activities/engines/index.js';
import { startBrowserRuntime } from '../../browser/runtime.js';
import { createLogger } from '../../core/log.js';
import { createPrisma } from '../../prisma/client.js';
import { bundleWorkflows, createWorker } from '../../worker/main.js';
import { testConfig } from './env.js';

/** Bundles shared by the workers of a test file: one without the tracing interceptors, one with (README "Traces"). */
const bundles = new Map<boolean, Promise<WorkflowBundle>>();

export interface TestWorker {
  taskQueue: string;
  stop(): Promise<void>;
}

export async function startTestWorker(env: Record<string, string | undefined> = {}): Promise<TestWorker> {
  const config = testConfig('worker', env);
  const prisma = createPrisma(config.DATABASE_URL);
  const browser = await startBrowserRuntime(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined;
  if (!bundles.has(tracing)) bundles.set(tracing, bundleWorkflows({ tracing }));
  const worker = await createWorker({
    config,
    connection,
    workflowBundle: await bundles.get(tracing)!,
    deps: { config, prisma, log: createLogger({ name: 'worker-test', level: 'error' }), engines: createEngineSet(config, browser.pool), convert: convertInline },
  });
  const running = worker.run();
  return {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
      await browser.close();
      await prisma.$disconnect();
    },
  };
}

/** A task queue of one's own, so parallel test files never take each other's work. */
export function uniqueTaskQueue(prefix = 'test'): string {
  return `${prefix}-${randomUUID()}`;
}
