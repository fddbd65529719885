/**
 * Vitest global setup: real PostgreSQL, Redis and Temporal dev server on free ports, with throwaway
 * data in a temp dir, migrated, shared by every test file (see test/provided.d.ts for what tests
 * can inject). Anything that cannot start fails the run with the reason; nothing is skipped.
 */
import { accessSync, chmodSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installSignalCleanup } from '../scripts/infra/child.js';
import { isAlive, reapStale } from '../scripts/infra/pid-files.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis } from '../scripts/infra/redis.js';
import { startTemporal, testDynamicConfig } from '../scripts/infra/temporal.js';
import { loadStackConfig, toolPath } from '../scripts/stack-config.js';

const prefix = 'pagewright-test-';
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Stop what an earlier run killed outright (SIGKILL, OOM) left behind, and remove its temp dir. */
async function reapAbandonedRuns(): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(prefix))) {
    const dir = join(tmpdir(), name);
    let owner: number | undefined;
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    } catch {
      // No owner file yet: a concurrent run between mkdtemp and writing it, unless it is old.
      if (Date.now() - statSync(dir).mtimeMs < 60_000) continue;
    }
    if (owner !== undefined && isAlive(owner)) continue;
    await reapStale(join(dir, 'run'));
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertExecutable(what: string, path: string, setting: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`Test infrastructure: ${what} not found or not executable at ${path}; set ${setting} (./scripts/stack test does)`);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cfg = loadStackConfig();
  const redisServerPath = toolPath(cfg.STACK_REDIS_SERVER);
  const temporalCliPath = toolPath(cfg.STACK_TEMPORAL_CLI);
  assertExecutable('Chromium', cfg.STACK_CHROMIUM_PATH, 'STACK_CHROMIUM_PATH');

  await reapAbandonedRuns();
  const root = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
  writeFileSync(join(root, 'owner.pid'), String(process.pid));
  installSignalCleanup();
  const pidDir = join(root, 'run');
  const timeoutMs = cfg.STACK_READY_TIMEOUT_MS;

  const started: { stop(): Promise<void> }[] = [];
  const track = async <T extends { stop(): Promise<void> }>(starting: Promise<T>) => {
    const service = await starting;
    started.push(service);
    return service;
  };
  const stopAll = () => Promise.allSettled(started.map((s) => s.stop()));
  const [pgPort, redisPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const starting = [
    track(startPostgres({ dataDir: join(root, 'pg'), port: pgPort, binDir: cfg.STACK_PG_BIN_DIR, database: 'pagewright_test', ephemeral: true, pidDir, timeoutMs })),
    track(startRedis({ port: redisPort, serverPath: redisServerPath, logFile: join(root, 'redis.log'), pidDir, timeoutMs })),
    track(startTemporal({ cliPath: temporalCliPath, port: temporalPort, logFile: join(root, 'temporal.log'), extraArgs: testDynamicConfig, pidDir, timeoutMs })),
  ] as const;
  const problems = (await Promise.allSettled(starting)).flatMap((r) => (r.status === 'rejected' ? [message(r.reason)] : []));
  if (problems.length) {
    await stopAll();
    throw new Error(`Test infrastructure could not start (logs kept in ${root} until the next run):\n${problems.join('\n')}`);
  }
  const [pg, redis, temporal] = await Promise.all(starting);
  try {
    await applyMigrations(pg.url);
  } catch (err) {
    await stopAll();
    throw new Error(`Test infrastructure: database migrations failed: ${message(err)}`);
  }

  project.provide('databaseUrl', pg.url);
  project.provide('postgresAdminUrl', pg.adminUrl);
  project.provide('redisUrl', redis.url);
  project.provide('temporalAddress', temporal.address);
  project.provide('temporalNamespace', temporal.namespace);
  project.provide('redisServerPath', redisServerPath);
  project.provide('temporalCliPath', temporalCliPath);
  project.provide('chromiumPath', cfg.STACK_CHROMIUM_PATH);
  // Checked by the SDK tests that use it (test/helpers/sdk-python.ts), so a missing venv fails those
  // tests saying why instead of every test file.
  project.provide('sdkPythonPath', toolPath(cfg.STACK_SDK_PYTHON));
  // Checked by the deployment tests that use them (test/helpers/deploy.ts), naming what is missing.
  project.provide('deployTools', {
    helm: toolPath(cfg.STACK_HELM),
    kubeconform: toolPath(cfg.STACK_KUBECONFORM),
    k8sSchemas: toolPath(cfg.STACK_K8S_SCHEMAS),
    composeSchema: toolPath(cfg.STACK_COMPOSE_SCHEMA),
  });

  return async () => {
    await stopAll();
    rmSync(root, { recursive: true, force: true });
  };
}
