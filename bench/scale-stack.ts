/**
 * The multi-process stack of bench/scale-out.ts and bench/kill-at-scale.ts: PostgreSQL, Redis and
 * the Temporal dev server on free ports with throwaway data, and every service process as deployed
 * (`npm run start:api` / `start:worker`, by scripts/infra): API replicas and workers are started and
 * stopped one by one, each on a port of its own, so a bench can grow the stack between crawls. The
 * bench's process runs none of the service's code.
 */
import { join } from 'node:path';
import { createKey } from '../api/keys-store.js';
import { waitForHealth } from '../scripts/infra/apps.js';
import { spawnChild, type Child } from '../scripts/infra/child.js';
import { readPidFile } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations, processArgs } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { startWorkerProcess, throwawayEnv } from '../scripts/infra/throwaway.js';
import { inheritedEnv, loadStackConfig, repoRoot, toolPath } from '../scripts/stack-config.js';
import { createPrisma, type PrismaClient } from '../prisma/client.js';
import { startWithStatements } from './pg-watch.js';

export interface ServiceProcess {
  name: string;
  child: Child;
  /** `http://127.0.0.1:<port>`: the API's address, or the worker's scrape endpoint (GET /metrics). */
  url: string;
}

export interface ScaleStack {
  prisma: PrismaClient;
  apiKey: string;
  /** pid of each infrastructure process. */
  infra: { postgres: number; redis: number; temporal: number };
  databaseUrl: string;
  startApi(name: string): Promise<ServiceProcess>;
  startWorker(name: string): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** `statements`: PostgreSQL with pg_stat_statements (bench/pg-watch.ts). */
export async function startScaleStack(options: { root: string; workerConcurrency: number; statements?: boolean }): Promise<ScaleStack> {
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
      (async () => {
        const start = () => startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_scale', ephemeral: true, pidDir, timeoutMs });
        return options.statements ? startWithStatements(start) : start();
      })(),
      startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
      startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), pidDir, timeoutMs }),
    ]);
    stops.push(() => pg.stop(), () => redis.stop(), () => temporal.stop());
    await applyMigrations(pg.url);
    const env = {
      ...throwawayEnv('bench-scale', { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }),
      // The fixture site is on loopback.
      ALLOW_PRIVATE_ADDRESSES: 'true',
      WORKER_CONCURRENCY: String(options.workerConcurrency),
    };
    const prisma = createPrisma(pg.url);
    stops.push(() => prisma.$disconnect());
    const { key } = await createKey(prisma, 'bench', env.API_KEY_PEPPER);
    const pid = (name: string) => {
      const record = readPidFile(pidDir, name);
      if (!record) throw new Error(`no pid file for ${name} in ${pidDir}`);
      return record.pid;
    };

    return {
      prisma,
      apiKey: key,
      infra: { postgres: pid('postgres'), redis: pid('redis'), temporal: pid('temporal') },
      databaseUrl: pg.url,
      async startApi(name) {
        const port = await freePort();
        const child = spawnChild({
          name,
          command: process.execPath,
          args: processArgs('api'),
          cwd: repoRoot,
          env: { PATH: inheritedEnv().PATH, ...env, API_PORT: String(port), LOG_LEVEL: 'warn' },
          logFile: join(root, `${name}.log`),
          pidDir,
        });
        stops.push(() => child.stop());
        const url = `http://127.0.0.1:${port}`;
        await waitForHealth(url, child, timeoutMs);
        return { name, child, url };
      },
      async startWorker(name) {
        const port = await freePort();
        const child = await startWorkerProcess({ env: { ...env, WORKER_SCRAPE_PORT: String(port) }, logFile: join(root, `${name}.log`), pidDir, name });
        stops.push(() => child.stop());
        return { name, child, url: `http://127.0.0.1:${port}` };
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Crawl pages this worker has finished (every attempt, any outcome), from its GET /metrics; undefined when it does not answer. */
export async function workerPages(worker: ServiceProcess): Promise<number | undefined> {
  try {
    const res = await fetch(`${worker.url}/metrics`, { signal: AbortSignal.timeout(2000) });
    if (res.status !== 200) return undefined;
    let sum = 0;
    for (const line of (await res.text()).split('\n')) {
      if (line.startsWith('pagewright_pages_total{') && line.includes('kind="crawl"')) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  } catch {
    return undefined;
  }
}
