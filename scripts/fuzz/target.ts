/**
 * The service the fuzzer attacks, as deployed but throwaway: PostgreSQL, Redis and the Temporal dev
 * server on free ports with data under `root`, migrations applied, worker.ts as a process of its
 * own, and the API in this process with the recorder (scripts/fuzz/recorder.ts) as its first
 * middleware. Settings as in production where it matters: private targets refused, every name
 * resolved only through DNS_SERVERS, which points at a closed loopback port, so each lookup fails
 * at once. Rate limits are off, so the fuzzer's volume reaches the handlers.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../../api/app.js';
import { createKey } from '../../api/keys-store.js';
import { connectRedis } from '../../api/redis.js';
import { loadConfig } from '../../core/config.js';
import { createLogger } from '../../core/log.js';
import { createPrisma } from '../../prisma/client.js';
import { spawnChild } from '../infra/child.js';
import { startPostgres } from '../infra/postgres.js';
import { applyMigrations } from '../infra/project-files.js';
import { freePort, waitUntilReady } from '../infra/ready.js';
import { startRedis } from '../infra/redis.js';
import { startTemporal } from '../infra/temporal.js';
import { inheritedEnv, loadStackConfig, repoRoot, toolPath } from '../stack-config.js';
import { Recorder, type OpenApiDoc } from './recorder.js';

export interface FuzzTarget {
  apiUrl: string;
  apiKey: string;
  recorder: Recorder;
  stop(): Promise<void>;
}

/** Every per-route rate limit, switched off (0 = unlimited). */
const NO_RATE_LIMITS = {
  RATE_LIMIT_SCRAPE_PER_MIN: '0',
  RATE_LIMIT_CRAWL_PER_MIN: '0',
  RATE_LIMIT_CRAWL_STATUS_PER_MIN: '0',
  RATE_LIMIT_CANCEL_PER_MIN: '0',
  RATE_LIMIT_MAP_PER_MIN: '0',
};

export async function startFuzzTarget(root: string, log: (line: string) => void): Promise<FuzzTarget> {
  const stack = loadStackConfig();
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((err: unknown) => console.error('teardown:', err));
  };
  try {
    const [pgPort, redisPort, temporalPort, apiPort, closedDnsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const pidDir = join(root, 'run');
    const timeoutMs = stack.STACK_READY_TIMEOUT_MS;
    log('starting PostgreSQL, Redis and the Temporal dev server ...');
    const [pg, redis, temporal] = await Promise.all([
      startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_fuzz', ephemeral: true, pidDir, timeoutMs }),
      startRedis({ port: redisPort, serverPath: toolPath(stack.STACK_REDIS_SERVER), logFile: join(root, 'redis.log'), pidDir, timeoutMs }),
      startTemporal({ cliPath: toolPath(stack.STACK_TEMPORAL_CLI), port: temporalPort, logFile: join(root, 'temporal.log'), pidDir, timeoutMs }),
    ]);
    stops.push(() => pg.stop(), () => redis.stop(), () => temporal.stop());
    await applyMigrations(pg.url);

    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const env = {
      NODE_ENV: 'development',
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      TEMPORAL_TASK_QUEUE: `fuzz-${randomUUID()}`,
      AUTH_SECRET: 'fuzz-auth-secret-0123456789abcdef0123456789',
      AUTH_URL: apiUrl,
      CORS_ORIGIN: apiUrl,
      API_KEY_PEPPER: 'fuzz-pepper-0123456789abcdef',
      WEBHOOK_SIGNING_SECRET: 'fuzz-webhook-secret-0123456789',
      CHROMIUM_PATH: stack.STACK_CHROMIUM_PATH,
      ALLOW_PRIVATE_ADDRESSES: 'false',
      DNS_SERVERS: `127.0.0.1:${closedDnsPort}`,
      LOG_LEVEL: 'warn',
      ...NO_RATE_LIMITS,
    };

    log('starting the worker (worker.ts) ...');
    const logFile = join(root, 'worker.log');
    const worker = spawnChild({ name: 'worker', command: process.execPath, args: ['--import', 'tsx', 'worker.ts'], cwd: repoRoot, env: { PATH: inheritedEnv().PATH, ...env, LOG_LEVEL: 'info' }, logFile, pidDir });
    stops.push(() => worker.stop());
    await waitUntilReady('worker', async () => readFileSync(logFile, 'utf8').includes('worker polling'), { timeoutMs: 180_000, intervalMs: 250, child: worker });

    const config = loadConfig('api', { env });
    const prisma = createPrisma(config.DATABASE_URL);
    const apiRedis = connectRedis(config.REDIS_URL);
    const connection = Connection.lazy({ address: config.TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const { app } = createApp({ config, prisma, redis: apiRedis, temporal: client, log: createLogger({ name: 'fuzz-api', level: 'error' }) });
    const doc = (await fetchDocument(app)) as OpenApiDoc;
    const recorder = new Recorder(doc);
    app.middleware.unshift(recorder.middleware());
    const server = app.listen(apiPort, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    // As api/main.ts sets them.
    server.requestTimeout = 120_000;
    server.headersTimeout = 20_000;
    server.keepAliveTimeout = 5_000;
    stops.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.allSettled([prisma.$disconnect(), apiRedis.quit(), connection.close()]);
    });
    const { key } = await createKey(prisma, 'fuzz', config.API_KEY_PEPPER);
    return { apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: key, recorder, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The document the API serves, read through the app itself before it listens. */
async function fetchDocument(app: ReturnType<typeof createApp>['app']): Promise<unknown> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api-reference?format=json`);
    return await res.json();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
