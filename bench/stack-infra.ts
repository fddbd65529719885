/**
 * The infrastructure both bench stacks start (bench/crawl-stack.ts, bench/scale-stack.ts):
 * PostgreSQL, Redis and the Temporal dev server on free ports with throwaway data (tool paths from
 * the stack settings, STACK_PG_BIN_DIR, STACK_REDIS_SERVER, STACK_TEMPORAL_CLI), migrations applied,
 * and the settings every service process of the bench gets. `stop()` stops what was started, and
 * whatever the caller handed to `onStop`, in reverse order.
 */
import { join } from 'node:path';
import { readPidFile } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal } from '../scripts/infra/temporal.js';
import { throwawayEnv } from '../scripts/infra/throwaway.js';
import { loadStackConfig, toolPath } from '../scripts/stack-config.js';
import { startWithStatements } from './pg-watch.js';

export interface BenchInfraOptions {
  /** Scratch directory (data, logs, pid files); the caller removes it. */
  root: string;
  /** Names the database and the services' settings (`bench-<name>`). */
  name: string;
  workerConcurrency: number;
  /** PostgreSQL without fsync and synchronous commit (throwaway data, like the tests). */
  ephemeral: boolean;
  /** PostgreSQL with pg_stat_statements (bench/pg-watch.ts). */
  statements?: boolean;
}

export async function startBenchInfra(options: BenchInfraOptions) {
  const { root } = options;
  const stack = loadStackConfig();
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((err: unknown) => console.error('teardown:', err));
  };
  const timeoutMs = stack.STACK_READY_TIMEOUT_MS;
  const pidDir = join(root, 'run');
  try {
    const [pgPort, redisPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const startPg = () => startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: `pagewright_${options.name}`, ephemeral: options.ephemeral, pidDir, timeoutMs });
    const [pg, redis, temporal] = await Promise.all([
      options.statements ? startWithStatements(startPg) : startPg(),
      startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
      startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), pidDir, timeoutMs }),
    ]);
    stops.push(() => pg.stop(), () => redis.stop(), () => temporal.stop());
    await applyMigrations(pg.url);
    const env = {
      ...throwawayEnv(`bench-${options.name}`, { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }),
      // The fixture site is on loopback.
      ALLOW_PRIVATE_ADDRESSES: 'true',
      WORKER_CONCURRENCY: String(options.workerConcurrency),
    };
    const pid = (name: string) => {
      const record = readPidFile(pidDir, name);
      if (!record) throw new Error(`no pid file for ${name} in ${pidDir}`);
      return record.pid;
    };
    return { databaseUrl: pg.url, env, pidDir, timeoutMs, pid, onStop: (fn: () => Promise<unknown>) => stops.push(fn), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
