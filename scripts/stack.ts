/**
 * `./scripts/stack up | stop | test` after the bash wrapper has installed packages and tools.
 *  - up: PostgreSQL, Redis and the Temporal dev server (+ UI) with data in .stack/, migrations,
 *    a first API key, then the api, worker and browser service in the foreground; Ctrl-C stops all.
 *    Once the API answers, a crashed api, worker or browser service is restarted with backoff
 *    (scripts/infra/supervise.ts) and the rest keeps running; a crash before that fails `up`.
 *    PostgreSQL, Redis and Temporal are restarted the same way once all three are up.
 *  - stop: stops a running `up` from another terminal, and anything a crashed `up` left behind.
 *  - test: `vitest run [args]`; the test infrastructure is started by test/global-setup.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeWorkflowBundle } from './bundle-workflows.js';
import { appNames, createFirstAdmin, createFirstKey, FIRST_ADMIN_EMAIL, startApp, waitForHealth } from './infra/apps.js';
import { describeExit, type Child } from './infra/child.js';
import { readEnvFile, stackEnv, writeEnvFile } from './infra/env-file.js';
import { isRunning, readPidFile, reapStale, removePidFile, terminate, writePidFile } from './infra/pid-files.js';
import { startPostgres } from './infra/postgres.js';
import { applyMigrations } from './infra/project-files.js';
import { assertPortFree } from './infra/ready.js';
import { startRedis } from './infra/redis.js';
import { supervise } from './infra/supervise.js';
import { startTemporal } from './infra/temporal.js';
import { inheritedEnv, loadStackConfig, repoRoot, toolPath, type StackConfig } from './stack-config.js';

const home = join(repoRoot, '.stack');
const dirs = { run: join(home, 'run'), logs: join(home, 'logs'), env: join(home, 'env') };
const self = { command: 'stack.ts', stopSignal: 'SIGTERM' } as const;
const say = (line: string) => process.stderr.write(`stack: ${line}\n`);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface Stoppable {
  stop(): Promise<void>;
}

async function up(cfg: StackConfig): Promise<void> {
  const previous = readPidFile(dirs.run, 'stack');
  if (previous && isRunning(previous)) throw new Error(`already running (pid ${previous.pid}); stop it with ./scripts/stack stop`);
  const reaped = await reapStale(dirs.run);
  if (reaped.length) say(`stopped processes left by an earlier run: ${reaped.join(', ')}`);
  await Promise.all([
    assertPortFree('PostgreSQL', cfg.STACK_PG_PORT, 'STACK_PG_PORT'),
    assertPortFree('Redis', cfg.STACK_REDIS_PORT, 'STACK_REDIS_PORT'),
    assertPortFree('Temporal', cfg.STACK_TEMPORAL_PORT, 'STACK_TEMPORAL_PORT'),
    assertPortFree('Temporal UI', cfg.STACK_TEMPORAL_UI_PORT, 'STACK_TEMPORAL_UI_PORT'),
    assertPortFree('api', cfg.STACK_API_PORT, 'STACK_API_PORT'),
    assertPortFree('browser service', cfg.STACK_BROWSER_PORT, 'STACK_BROWSER_PORT'),
  ]);
  mkdirSync(dirs.logs, { recursive: true });
  writePidFile(dirs.run, 'stack', { pid: process.pid, ...self });

  // Infrastructure, then apps; stopped in reverse, each layer in parallel. The servers while
  // starting; their supervisors once all three are up.
  let infra: Stoppable[] = [];
  // The app processes while starting; their supervisors once the stack is up.
  let apps: Stoppable[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await Promise.allSettled(apps.map((a) => a.stop()));
    await Promise.allSettled(infra.map((s) => s.stop()));
    removePidFile(dirs.run, 'stack');
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(0));

  try {
    const timeoutMs = cfg.STACK_READY_TIMEOUT_MS;
    const common = { pidDir: dirs.run, timeoutMs };
    say('starting PostgreSQL, Redis and Temporal…');
    const track = async <T extends Stoppable>(starting: Promise<T>) => {
      const service = await starting;
      infra.push(service);
      return service;
    };
    const starting = [
      track(startPostgres({ ...common, dataDir: join(home, 'pg'), port: cfg.STACK_PG_PORT, binDir: cfg.STACK_PG_BIN_DIR, logFile: join(dirs.logs, 'postgres.log') })),
      track(startRedis({ ...common, port: cfg.STACK_REDIS_PORT, serverPath: toolPath(cfg.STACK_REDIS_SERVER), dataDir: join(home, 'redis'), logFile: join(dirs.logs, 'redis.log') })),
      track(startTemporal({
        ...common,
        cliPath: toolPath(cfg.STACK_TEMPORAL_CLI),
        port: cfg.STACK_TEMPORAL_PORT,
        uiPort: cfg.STACK_TEMPORAL_UI_PORT,
        dbFile: join(home, 'temporal', 'temporal.db'),
        logFile: join(dirs.logs, 'temporal.log'),
      })),
    ] as const;
    // Let all three finish (or fail) so every failure is reported and every success gets stopped.
    const problems = (await Promise.allSettled(starting)).flatMap((r) => (r.status === 'rejected' ? [message(r.reason)] : []));
    if (problems.length) throw new Error(problems.join('\n'));
    const [pg, redis, temporal] = await Promise.all(starting);
    // From here on a server that dies is restarted with backoff, on its port and data, like the apps:
    // the API and workers reconnect by themselves, and crawls carry on (Temporal keeps them in its SQLite file).
    infra = [pg, redis, temporal].map((server) => supervise(server.child(), { restart: server.respawn, log: say }));

    const settings = stackEnv(readEnvFile(dirs.env), {
      databaseUrl: pg.url,
      redisUrl: redis.url,
      temporalAddress: temporal.address,
      temporalUiUrl: temporal.uiUrl,
      apiPort: cfg.STACK_API_PORT,
      browserPort: cfg.STACK_BROWSER_PORT,
      chromiumPath: cfg.STACK_CHROMIUM_PATH,
    });
    writeEnvFile(dirs.env, settings, 'Written by ./scripts/stack up: addresses are rewritten each time; secrets and lines you add are kept.');
    say('applying database migrations…');
    await applyMigrations(pg.url);
    // The workers load their workflows from a bundle built now, from the code they run.
    say('bundling the workflows…');
    const env = { ...inheritedEnv(), ...settings, WORKFLOW_BUNDLE_PATH: await writeWorkflowBundle(join(home, 'workflow-bundle.js')) };
    const key = await createFirstKey(env);
    const adminPassword = await createFirstAdmin(env);

    // A process that dies before the API answers is most likely misconfigured: fail `up` with its log.
    let supervised = false;
    const startedAt = Date.now();
    const started: Child[] = [];
    apps = started;
    for (const name of appNames) {
      const app = startApp(name, env, dirs.logs, dirs.run);
      started.push(app);
      void app.exited.then((exit) => {
        if (stopping || supervised) return;
        say(`${name} ${describeExit(exit)} while starting; stopping the stack (log: ${relative(process.cwd(), app.logFile)})`);
        void shutdown(1);
      });
    }
    const apiUrl = settings.AUTH_URL;
    await waitForHealth(apiUrl, started[appNames.indexOf('api')]!, timeoutMs);
    // From here on a crash is restarted with backoff while the rest keeps serving.
    supervised = true;
    apps = started.map((app, i) => supervise(app, { restart: () => startApp(appNames[i]!, env, dirs.logs, dirs.run), log: say, startedAt }));

    const rel = (p: string) => relative(process.cwd(), p) || '.';
    const lines = [
      '',
      `  API            ${apiUrl}`,
      `  API reference  ${apiUrl}/api-reference`,
      `  Dashboard      ${apiUrl}/dashboard`,
      `  Temporal UI    ${temporal.uiUrl}`,
      `  Settings       ${rel(dirs.env)}`,
      `  Logs           ${rel(dirs.logs)}/ (api, worker, browser, postgres, redis, temporal)`,
      '  Stop           Ctrl-C here, or ./scripts/stack stop from another terminal',
      ...(key ? ['', `  Your first API key (shown only this once; keep it): ${key}`] : []),
      ...(adminPassword ? ['', `  Dashboard sign-in (shown only this once; keep it): ${FIRST_ADMIN_EMAIL} / ${adminPassword}`, '  Reset it with: npm run users -- reset-password --email ' + FIRST_ADMIN_EMAIL] : []),
      '',
    ];
    process.stdout.write(`\nPagewright is running.\n${lines.join('\n')}\n`);
  } catch (err) {
    // Once shutting down (an app died, Ctrl-C), a start-up wait failing is a consequence, not news.
    if (!stopping) say(`up failed: ${message(err)}`);
    await shutdown(1);
  }
}

async function stop(): Promise<void> {
  const record = readPidFile(dirs.run, 'stack');
  const running = record !== undefined && isRunning(record);
  if (running) {
    say(`stopping the stack (pid ${record.pid})…`);
    await terminate(record, 60_000);
  }
  // Also what a crashed `up` left behind (or what outlived a SIGKILLed one just now).
  const reaped = await reapStale(dirs.run);
  if (reaped.length) say(`stopped leftover processes: ${reaped.join(', ')}`);
  say(running || reaped.length ? 'stopped' : 'nothing was running');
}

function test(args: string[]): Promise<number> {
  const vitest = join(repoRoot, 'node_modules', '.bin', 'vitest');
  const child = spawn(vitest, ['run', ...args], { cwd: repoRoot, env: inheritedEnv(), stdio: 'inherit' });
  // Ctrl-C reaches vitest directly (same process group): only wait for its teardown. A SIGTERM
  // aimed at us alone is passed on.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const [command, ...rest] = process.argv.slice(2);
try {
  const cfg = loadStackConfig();
  if (command === 'up') await up(cfg);
  else if (command === 'stop') await stop();
  else if (command === 'test') process.exitCode = await test(rest);
  else throw new Error(`unknown command '${command ?? ''}' (expected up, stop or test)`);
} catch (err) {
  say(message(err));
  process.exitCode = 1;
}
