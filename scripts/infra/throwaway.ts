/**
 * A throwaway stack for benches and fuzzing (not `up`, not the test suite): settings on freshly
 * started servers with secrets of its own, a task queue of its own and rate limits off, and
 * the worker (worker/main.ts) as a process.
 */
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeWorkflowBundle } from '../bundle-workflows.js';
import { inheritedEnv, repoRoot } from '../stack-config.js';
import { processArgs } from './project-files.js';
import { WORKER_ENV } from './worker-launch.js';
import { runOutput, spawnChild, type Child } from './child.js';
import { waitUntilReady } from './ready.js';

/** Rate limits off: a bench or fuzzer is one caller sending far more than any real one. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_SCRAPE_PER_MIN: '0',
  RATE_LIMIT_CRAWL_PER_MIN: '0',
  RATE_LIMIT_BATCH_SCRAPE_PER_MIN: '0',
  RATE_LIMIT_CRAWL_STATUS_PER_MIN: '0',
  RATE_LIMIT_CANCEL_PER_MIN: '0',
  RATE_LIMIT_MAP_PER_MIN: '0',
  RATE_LIMIT_MONITOR_PER_MIN: '0',
  // Sign-in cannot be unlimited; its most generous setting (test/dashboard-api.test.ts tests the limit).
  SIGN_IN_RATE_LIMIT_PER_MIN: '1000',
} as const;

export interface ThrowawayServers {
  databaseUrl: string;
  redisUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  chromiumPath: string;
}

/**
 * Every setting the API and the worker require, for `name` (`bench`, `fuzz`, ...), served at `apiUrl`,
 * with NO_RATE_LIMITS: every throwaway stack turns the limiter off here, so no caller has to remember.
 */
export function throwawayEnv(name: string, servers: ThrowawayServers, apiUrl = 'http://127.0.0.1:3000') {
  return {
    NODE_ENV: 'development',
    DATABASE_URL: servers.databaseUrl,
    REDIS_URL: servers.redisUrl,
    TEMPORAL_ADDRESS: servers.temporalAddress,
    TEMPORAL_NAMESPACE: servers.temporalNamespace,
    TEMPORAL_TASK_QUEUE: `${name}-${randomUUID()}`,
    AUTH_SECRET: `${name}-auth-secret-0123456789abcdef0123456789`,
    SCRAPE_SERVICE_TOKEN: `${name}-scrape-service-token-0123456789abcdef`,
    AUTH_URL: apiUrl,
    CORS_ORIGIN: apiUrl,
    API_KEY_PEPPER: `${name}-pepper-0123456789abcdef`,
    WEBHOOK_SIGNING_SECRET: `${name}-webhook-secret-0123456789`,
    CHROMIUM_PATH: servers.chromiumPath,
    LOG_LEVEL: 'warn',
    ...NO_RATE_LIMITS,
  };
}

/** Workflow bundles built by this process, by path: workers started in one run share one. */
const bundles = new Map<string, Promise<string>>();

/**
 * The worker as deployed (package.json's start:worker and worker-launch.ts's environment; a workflow bundle built
 * once per run, next to the log), in a process of its own; ready once it logs that it polls.
 */
export async function startWorkerProcess(options: { env: Record<string, string | undefined>; logFile: string; pidDir: string; nodeArgs?: string[]; name?: string }): Promise<Child> {
  const { env, logFile, pidDir } = options;
  const bundle = join(dirname(logFile), 'workflow-bundle.js');
  bundles.set(bundle, bundles.get(bundle) ?? writeWorkflowBundle(bundle));
  const child = spawnChild({
    name: options.name ?? 'worker',
    command: process.execPath,
    args: processArgs('worker', options.nodeArgs),
    cwd: repoRoot,
    env: { PATH: inheritedEnv().PATH, ...WORKER_ENV, WORKFLOW_BUNDLE_PATH: await bundles.get(bundle), ...env, LOG_LEVEL: 'info' },
    logFile,
    pidDir,
  });
  // Only this process's lines say it is up: a restart under the same name appends to the same log.
  await waitUntilReady('worker', async () => runOutput(child).includes('worker polling'), { timeoutMs: 180_000, intervalMs: 250, child });
  return child;
}
