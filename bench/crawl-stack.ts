/**
 * The service side of the crawl benchmark, as bench/scrape.ts starts it: the infrastructure of
 * bench/stack-infra.ts, the API in this
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
import { startWorkerProcess } from '../scripts/infra/throwaway.js';
import { startBenchInfra } from './stack-infra.js';

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
  const infra = await startBenchInfra({ root, name: 'crawl', workerConcurrency: options.workerConcurrency, ephemeral: !options.pgFsync });
  const { env, pidDir, pid } = infra;
  try {
    const worker = await startWorkerProcess({ env, logFile: join(root, 'worker.log'), pidDir, nodeArgs: options.workerNodeArgs });
    infra.onStop(() => worker.stop());

    // The API, as api/main.ts builds it.
    const apiConfig = loadConfig('api', { env });
    const deps = createApiDeps(apiConfig, createLogger({ name: 'bench-api', level: 'warn' }));
    const { prisma, temporal: temporalClient } = deps;
    const server = createApp(deps).app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    infra.onStop(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.close();
    });
    const { key } = await createKey(prisma, 'bench', apiConfig.API_KEY_PEPPER);

    const startWorker = async (name: string) => {
      const extra = await startWorkerProcess({ env, logFile: join(root, `${name}.log`), pidDir, nodeArgs: options.workerNodeArgs, name });
      infra.onStop(() => extra.stop());
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
      stop: infra.stop,
    };
  } catch (err) {
    await infra.stop();
    throw err;
  }
}
