/**
 * The service side of the crawl benchmark, as bench/scrape.ts starts it: PostgreSQL, Redis and the
 * Temporal dev server on free ports with throwaway data (tool paths from the stack settings,
 * STACK_PG_BIN_DIR, STACK_REDIS_SERVER, STACK_TEMPORAL_CLI), migrations applied, the API in this
 * process (it only answers the POST and the status polls), and worker/main.ts as a process of its own,
 * as deployed. `stop()` removes everything it started, in reverse order.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { createApp } from '../api/app.js';
import { createApiDeps } from '../api/deps.js';
import { createKey } from '../api/keys-store.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';
import type { Child } from '../scripts/infra/child.js';
import { startWorkerProcess, throwawayEnv } from '../scripts/infra/throwaway.js';
import { readPidFile } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { loadStackConfig, toolPath } from '../scripts/stack-config.js';

export interface CrawlStack {
  apiUrl: string;
  apiKey: string;
  /** The API's own Prisma client, to count documents directly. */
  prisma: PrismaClient;
  temporal: Client;
  worker: Child;
  /** pid of each service process: postgres, redis, temporal, worker. */
  pids: Record<'postgres' | 'redis' | 'temporal' | 'worker', number>;
  /** Starts one more worker/main.ts process with the same settings (its log: `<root>/<name>.log`); stop() stops it too. */
  startWorker(name: string): Promise<Child>;
  stop(): Promise<void>;
}

export interface CrawlStackOptions {
  /** Scratch directory (data, logs, pid files); the caller removes it. */
  root: string;
  workerConcurrency: number;
  /** PostgreSQL with fsync and synchronous commit on, as in production; default off (throwaway data, like the tests). */
  pgFsync: boolean;
  /** Extra Node options for the worker process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (the profile is written when it stops). */
  workerNodeArgs?: string[];
}

export async function startCrawlStack(options: CrawlStackOptions): Promise<CrawlStack> {
  const { root } = options;
  const stack = loadStackConfig();
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((err: unknown) => console.error('teardown:', err));
  };
  try {
    const [pgPort, redisPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const timeoutMs = stack.STACK_READY_TIMEOUT_MS;
    const pidDir = join(root, 'run');
    const [pg, redis, temporal] = await Promise.all([
      startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_bench', ephemeral: !options.pgFsync, pidDir, timeoutMs }),
      startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
      startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), pidDir, timeoutMs }),
    ]);
    stops.push(() => pg.stop(), () => redis.stop(), () => temporal.stop());
    await applyMigrations(pg.url);

    const env = {
      ...throwawayEnv('bench-crawl', { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }),
      // The fixture site is on loopback.
      ALLOW_PRIVATE_ADDRESSES: 'true',
      WORKER_CONCURRENCY: String(options.workerConcurrency),
    };
    const worker = await startWorkerProcess({ env, logFile: join(root, 'worker.log'), pidDir, nodeArgs: options.workerNodeArgs });
    stops.push(() => worker.stop());

    // The API, as api/main.ts builds it.
    const apiConfig = loadConfig('api', { env });
    const deps = createApiDeps(apiConfig, createLogger({ name: 'bench-api', level: 'warn' }));
    const { prisma, temporal: temporalClient } = deps;
    const server = createApp(deps).app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    stops.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.close();
    });
    const { key } = await createKey(prisma, 'bench', apiConfig.API_KEY_PEPPER);

    const pid = (name: string) => {
      const record = readPidFile(pidDir, name);
      if (!record) throw new Error(`no pid file for ${name} in ${pidDir}`);
      return record.pid;
    };
    const startWorker = async (name: string) => {
      const extra = await startWorkerProcess({ env, logFile: join(root, `${name}.log`), pidDir, nodeArgs: options.workerNodeArgs, name });
      stops.push(() => extra.stop());
      return extra;
    };
    return {
      apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: key,
      prisma,
      temporal: temporalClient,
      worker,
      pids: { postgres: pid('postgres'), redis: pid('redis'), temporal: pid('temporal'), worker: pid('worker') },
      startWorker,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
