/** The service's own processes under `up`: api, worker and browser service, logs prefixed by name. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../stack-config.js';
import { spawnChild, type Child } from './child.js';
import { processArgs, projectFiles, requireProjectFile } from './project-files.js';
import { waitUntilReady } from './ready.js';
import { WORKER_ENV } from './worker-launch.js';

const run = promisify(execFile);
type Env = Record<string, string | undefined>;

/** Start order: the browser service and worker first, so the API's first request finds them. */
export const appNames = ['browser', 'worker', 'api'] as const;
export type AppName = (typeof appNames)[number];

/** `echo` gets each output line prefixed with the name (tests pass a sink). */
export function startApp(name: AppName, env: Env, logDir: string, pidDir: string, echo: NodeJS.WritableStream = process.stdout): Child {
  return spawnChild({
    name,
    command: process.execPath,
    args: processArgs(name),
    cwd: repoRoot,
    env: name === 'worker' ? { ...env, ...WORKER_ENV } : env,
    logFile: join(logDir, `${name}.log`),
    pidDir,
    echo,
  });
}

/** Wait for `GET <apiUrl>/health` to answer 200. */
export function waitForHealth(apiUrl: string, api: Child, timeoutMs: number): Promise<void> {
  return waitUntilReady(
    'api',
    async () => {
      const res = await fetch(`${apiUrl}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status !== 200) throw new Error(`GET /health answered ${res.status}`);
      return true;
    },
    { timeoutMs, intervalMs: 300, child: api },
  );
}

/** Create the first API key unless one exists; returns the key (printed once) or undefined. */
export async function createFirstKey(env: Env): Promise<string | undefined> {
  const file = requireProjectFile(projectFiles.keys, 'create the first API key');
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file, 'create', '--name', 'default', '--if-none'], { cwd: repoRoot, env });
    return stdout.trim() || undefined;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${projectFiles.keys} create failed: ${e.stderr?.trim() || e.message}`);
  }
}

/** The e-mail of the first dashboard admin `up` creates. */
export const FIRST_ADMIN_EMAIL = 'admin@localhost';

/** Create the first dashboard admin unless a user exists; returns the password (printed once) or undefined. */
export async function createFirstAdmin(env: Env): Promise<string | undefined> {
  const file = requireProjectFile(projectFiles.users, 'create the first dashboard admin');
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file, 'create', '--email', FIRST_ADMIN_EMAIL, '--role', 'admin', '--if-none'], { cwd: repoRoot, env });
    return stdout.trim() || undefined;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${projectFiles.users} create failed: ${e.stderr?.trim() || e.message}`);
  }
}
