/**
 * The worker process: registers the workflows and activities on the task queue and polls Temporal.
 * `createWorker` is also used by tests, which run real workers in-process against the dev server.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkflowBundle, type WorkflowBundleOption } from '@temporalio/worker';
import { createConvertPool, defaultConvertThreads } from './convert-pool.js';
import { createEngineSet } from '../activities/engines/index.js';
import { startBrowserRuntime } from '../browser/runtime.js';
import { activityDeps, type WorkerDeps } from '../activities/deps.js';
import { createActivities } from '../activities/index.js';
import { startScrapeService } from './scrape-endpoint.js';
import { freeLoopbackPort, temporalMetricsReader, temporalTelemetry } from './temporal-metrics.js';
import { serverProbe, temporalLog } from './temporal-log.js';
import { loadConfigOrExit, secretNames, type RequiredFor } from '../core/config.js';
import { createLogger, type Logger } from '../core/log.js';
import { pagesQueue } from '../core/contracts.js';
import { laneSlots } from '../core/crawl/lanes.js';
import { temporalConnectionOptions } from '../core/temporal-options.js';
import { createPrisma } from '../prisma/client.js';
import { startTracing } from '../telemetry/tracing.js';
import { temporalWorkerTracing } from '../telemetry/temporal-worker.js';

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
const workflowTracingPath = fileURLToPath(new URL('../workflows/tracing.ts', import.meta.url));

/**
 * Workflow sources use ESM `.js` specifiers for `.ts` files; teach the bundler to map them.
 * `tracing`: with the workflow interceptors of traces (workflows/tracing.ts, README "Traces"). Only
 * then: they bring the OpenTelemetry SDK into the sandbox, ~1.7 MB more code and ~40 MiB more
 * resident memory for an idle worker (bench/worker-memory.ts --idle-only --prebuilt-bundle).
 */
export async function bundleWorkflows(options: { tracing?: boolean } = {}): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: options.tracing ? [workflowTracingPath] : [],
    webpackConfigHook: (config) => ({
      ...config,
      resolve: { ...config.resolve, extensionAlias: { '.js': ['.ts', '.js'] } },
    }),
    logger: { trace() {}, debug() {}, info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m), log() {} },
  });
}

/** Whether a bundle can trace workflows: it was built with `tracing`, so it holds the OpenTelemetry interceptors' code. */
export function bundleTraces(bundle: WorkflowBundleOption): boolean {
  return ('code' in bundle ? bundle.code : readFileSync(bundle.codePath, 'utf8')).includes('class OpenTelemetryInboundInterceptor');
}

/** The bundle to run: the one given, unless tracing is on and it cannot trace workflows; then one bundled now, with tracing. */
async function workflowsFor(tracing: boolean, given: WorkflowBundleOption | undefined, log: Logger): Promise<WorkflowBundleOption> {
  if (given && (!tracing || bundleTraces(given))) return given;
  if (given) log.warn('tracing is on, but the workflow bundle was built without it (scripts/bundle-workflows.ts --tracing): bundling the workflows now, with tracing');
  return bundleWorkflows({ tracing });
}

/** On SIGTERM, in-flight pages may finish (or reach their next heartbeat) this long before they are cancelled. */
export const SHUTDOWN_GRACE_TIME = '20s';

/** Slots for the light activities (discovery, bookkeeping, webhook deliveries): I/O-bound, short. */
export const LIGHT_ACTIVITY_SLOTS = 32;

/**
 * The worker's two pollers (and its scrape endpoint, worker/scrape-endpoint.ts): the main task queue (workflows, light
 * activities) and `<queue>-pages` (crawl page lanes). A worker holds at most laneSlots(WORKER_CONCURRENCY)
 * lanes, so a crawl's lanes spread over workers, and its page slots (WORKER_CONCURRENCY) bound the
 * pages in flight across all of them. Pages get their own queue so lanes never take the slots a
 * crawl's own bookkeeping and webhooks need.
 */
export interface WorkerGroup {
  run(): Promise<void>;
  shutdown(): void;
  runUntil<R>(promise: Promise<R>): Promise<R>;
}

export async function createWorker(options: {
  config: RequiredFor<'worker'>;
  connection: NativeConnection;
  deps: WorkerDeps;
  /** Already bundled (tests share one), or a file from scripts/bundle-workflows.ts; else bundled now (also when tracing is on and it was built without). */
  workflowBundle?: WorkflowBundleOption;
  taskQueue?: string;
  /** More Prometheus text for the scrape endpoint's `GET /metrics` (the Temporal SDK's, from main()). */
  metrics?: () => Promise<string>;
}): Promise<WorkerGroup> {
  const { config, connection } = options;
  const taskQueue = options.taskQueue ?? config.TEMPORAL_TASK_QUEUE;
  // Aborted when shutdown begins: lanes stop claiming and return, so their crawls move to other workers at once.
  const stopping = new AbortController();
  // Traces when OTEL_EXPORTER_OTLP_ENDPOINT is set (README "Traces"): activity spans, workflow spans through the sink, page spans.
  const tracing = startTracing(config, 'worker', options.deps.log);
  const { interceptors, sinks } = temporalWorkerTracing(tracing);
  const deps = activityDeps({ ...options.deps, stopping: stopping.signal, tracing });
  const { crawlLane, crawlPage, ...light } = createActivities(deps);
  // Scrapes come straight from the API to this endpoint (README "Scrape path"), not through Temporal.
  const scrapes = await startScrapeService(deps, taskQueue, { metrics: options.metrics });
  const main = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue,
    workflowBundle: await workflowsFor(tracing.tracer !== undefined, options.workflowBundle, options.deps.log),
    activities: light,
    maxConcurrentActivityTaskExecutions: LIGHT_ACTIVITY_SLOTS,
    shutdownGraceTime: SHUTDOWN_GRACE_TIME,
    interceptors,
    sinks,
  });
  const pages = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: pagesQueue(taskQueue),
    // crawlPage: one page per activity, for crawl runs started before page lanes (workflows/crawl-per-page.ts).
    activities: { crawlLane, crawlPage },
    maxConcurrentActivityTaskExecutions: laneSlots(config.WORKER_CONCURRENCY),
    shutdownGraceTime: SHUTDOWN_GRACE_TIME,
    interceptors,
  });
  const shutdown = () => {
    stopping.abort();
    // Withdrawn from Redis at once, so the API stops sending scrapes here while in-flight ones finish.
    void scrapes.close();
    for (const w of [main, pages]) if (w.getState() === 'RUNNING') w.shutdown();
  };

  const both = async <R>(start: (w: Worker) => Promise<R>): Promise<R> => {
    // If one poller dies, stop the other too rather than run half a worker.
    const runs = [main, pages].map((w) =>
      start(w).catch((err: unknown) => {
        shutdown();
        throw err;
      }),
    );
    try {
      return (await Promise.all(runs))[0]!;
    } finally {
      await scrapes.close();
      await tracing.shutdown();
    }
  };
  return { run: () => both((w) => w.run()), shutdown, runUntil: (promise) => both((w) => w.runUntil(promise)) };
}

/** How often the expiry Schedule deletes documents and crawls past CRAWL_TTL_SECONDS. */
export const EXPIRY_INTERVAL = '10 minutes';

/** Create the `expire-data` Schedule once; later workers find it there. (Tests pass an id of their own.) */
export async function ensureExpirySchedule(client: Client, taskQueue: string, scheduleId = 'expire-data'): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: EXPIRY_INTERVAL }] },
      action: { type: 'startWorkflow', workflowType: 'expireData', taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  const temporalMetricsPort = await freeLoopbackPort();
  const log = createLogger({ name: 'worker', level: config.LOG_LEVEL, secrets: secretNames.map((n) => (config as Record<string, unknown>)[n] as string) });
  // The SDK's own log in ours, a Temporal outage said once rather than at every retry (worker/temporal-log.ts).
  const probe = serverProbe(temporalConnectionOptions(config, readFileSync));
  const sdkLog = temporalLog({ log, probe: probe.probe });
  Runtime.install({ logger: sdkLog.logger, telemetryOptions: { ...temporalTelemetry(temporalMetricsPort), logging: sdkLog.logging } });
  if (config.ALLOW_PRIVATE_ADDRESSES) log.warn('ALLOW_PRIVATE_ADDRESSES is on: targets on loopback and private networks can be fetched. Development and tests only.');
  const prisma = createPrisma(config.DATABASE_URL);
  const browser = await startBrowserRuntime(config);
  const engines = createEngineSet(config, browser.pool);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config, readFileSync));
  // Pages convert on worker threads: a 200 KB page is ~170 ms of CPU that would otherwise stall
  // heartbeats and the other activities' I/O (bench/convert-stall.ts).
  const convertPool = createConvertPool({ threads: config.WORKER_CONVERT_THREADS ?? defaultConvertThreads(config.WORKER_CONCURRENCY) });
  const workflowBundle = config.WORKFLOW_BUNDLE_PATH ? { codePath: config.WORKFLOW_BUNDLE_PATH } : undefined;
  const worker = await createWorker({ config, connection, workflowBundle, deps: { config, prisma, log, engines, convert: convertPool.convert }, metrics: temporalMetricsReader(temporalMetricsPort) });
  const clientConnection = await Connection.connect(temporalConnectionOptions(config, readFileSync));
  await ensureExpirySchedule(new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE }), config.TEMPORAL_TASK_QUEUE);
  await clientConnection.close();
  log.info('worker polling', { taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE, concurrency: config.WORKER_CONCURRENCY, convertThreads: convertPool.size });
  // Worker.run() installs SIGINT/SIGTERM handlers that start a graceful shutdown; ours also tells
  // page lanes at once, so they hand their crawls back instead of using up the grace time.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
  await worker.run();
  await convertPool.close();
  await connection.close();
  await browser.close();
  await prisma.$disconnect();
  sdkLog.close();
  await probe.close();
  log.info('worker stopped');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
