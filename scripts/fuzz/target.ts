/**
 * The service the fuzzer attacks, as deployed but throwaway: PostgreSQL, Redis and the Temporal dev
 * server on free ports with data under `root`, migrations applied, worker/main.ts as a process of its
 * own, and the API in this process with the recorder (scripts/fuzz/recorder.ts) as its first
 * middleware. Settings as in production where it matters: private targets refused, every name
 * resolved only through DNS_SERVERS, which points at a closed loopback port, so each lookup fails
 * at once. Rate limits are off, so the fuzzer's volume reaches the handlers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from '../../api/app.js';
import { createApiDeps } from '../../api/deps.js';
import { createUser } from '../../api/accounts-store.js';
import { createKey } from '../../api/keys-store.js';
import { loadConfig } from '../../core/config.js';
import { createLogger } from '../../core/log.js';
import { NO_RATE_LIMITS, startWorkerProcess, throwawayEnv } from '../infra/throwaway.js';
import { startPostgres } from '../infra/postgres.js';
import { applyMigrations } from '../infra/project-files.js';
import { freePort } from '../infra/ready.js';
import { startRedis } from '../infra/redis.js';
import { startTemporal } from '../infra/temporal.js';
import { loadStackConfig, toolPath } from '../stack-config.js';
import { Recorder, type OpenApiDoc } from './recorder.js';

export interface FuzzTarget {
  apiUrl: string;
  apiKey: string;
  /** A signed-in dashboard admin: the session cookie and its CSRF token. */
  dashboard: { cookie: string; csrfToken: string };
  recorder: Recorder;
  stop(): Promise<void>;
}

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
      ...throwawayEnv('fuzz', { databaseUrl: pg.url, redisUrl: redis.url, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, chromiumPath: stack.STACK_CHROMIUM_PATH }, apiUrl),
      ALLOW_PRIVATE_ADDRESSES: 'false',
      DNS_SERVERS: `127.0.0.1:${closedDnsPort}`,
      ...NO_RATE_LIMITS,
    };

    log('starting the worker (worker/main.ts) ...');
    const worker = await startWorkerProcess({ env, logFile: join(root, 'worker.log'), pidDir });
    stops.push(() => worker.stop());

    const config = loadConfig('api', { env });
    const deps = createApiDeps(config, createLogger({ name: 'fuzz-api', level: 'error' }));
    const { prisma } = deps;
    const { app } = createApp(deps);
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
      await deps.close();
    });
    const { key } = await createKey(prisma, 'fuzz', config.API_KEY_PEPPER);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { apiUrl: url, apiKey: key, dashboard: await signedInAdmin(prisma, url), recorder, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** An admin of a new account, signed in through the dashboard's own endpoint. */
async function signedInAdmin(prisma: Parameters<typeof createUser>[0], apiUrl: string): Promise<FuzzTarget['dashboard']> {
  const password = randomBytes(18).toString('base64url');
  const accountId = randomUUID();
  await prisma.account.create({ data: { id: accountId, name: 'fuzz' } });
  const email = `fuzz-admin@${accountId.slice(0, 8)}.example`;
  await createUser(prisma, { accountId, email, password, role: 'admin' });
  const res = await fetch(`${apiUrl}/dashboard/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => /^(__Host-)?pw_session=/.test(c));
  const { csrfToken } = (await res.json()) as { csrfToken?: string };
  if (!res.ok || !cookie || !csrfToken) throw new Error(`the fuzz run's dashboard admin could not sign in (HTTP ${res.status})`);
  return { cookie, csrfToken };
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
