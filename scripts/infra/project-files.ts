/**
 * Entry points of other parts of the project that the stack drives (migrations, the key CLI, the
 * three service processes). Looked up at run time so a missing or broken one is reported by
 * file name instead of as a module-resolution stack trace.
 *
 * The service processes are started as package.json's `start:api`, `start:worker` and
 * `start:browser-service` scripts say (the Docker image, docker-compose.yml and the Helm chart run
 * the same scripts): `processArgs` reads the script and runs its `node` command line directly,
 * without npm in between, so signals reach the process itself. Under npm they do too because each
 * script is `exec node ...`: npm runs scripts through `sh -c`, and without `exec` the shell stays
 * between npm and node, dies of the SIGTERM npm forwards and leaves node running unwarned, to be
 * killed when its container stops (test/deploy-probes.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../stack-config.js';

export const projectFiles = {
  migrate: 'scripts/migrate.ts',
  keys: 'scripts/keys.ts',
  users: 'scripts/users.ts',
} as const;

/** The service processes, by the name the stack gives them, and their package.json scripts (compose and the Helm chart run the same ones: test/deploy-parity.test.ts). */
export const processScripts = {
  api: 'start:api',
  worker: 'start:worker',
  browser: 'start:browser-service',
} as const;

export class MissingProjectFileError extends Error {
  constructor(readonly file: string, readonly purpose: string) {
    super(`${file} is missing (needed to ${purpose})`);
    this.name = 'MissingProjectFileError';
  }
}

/** Absolute path of a project file; throws MissingProjectFileError naming it when absent. */
export function requireProjectFile(file: string, purpose: string): string {
  const abs = join(repoRoot, file);
  if (!existsSync(abs)) throw new MissingProjectFileError(file, purpose);
  return abs;
}

/**
 * The Node arguments of a service process (its flags, `--import tsx`, its entry file), from its
 * package.json script `exec node <args>`. `extra` flags go before the entry's. Throws naming the script
 * or the entry file when either is missing.
 */
export function processArgs(name: keyof typeof processScripts, extra: readonly string[] = []): string[] {
  const script = processScripts[name];
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const [command, ...args] = (scripts[script] ?? '').trim().replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node' || args.length === 0) throw new Error(`package.json has no "${script}" script of the form "exec node <flags> <entry>" (needed to start the ${name} process)`);
  const entry = args.pop()!;
  requireProjectFile(entry, `start the ${name} process`);
  return [...extra, ...args, entry];
}

/** `applyMigrations(databaseUrl)` from scripts/migrate.ts. */
export async function applyMigrations(databaseUrl: string): Promise<void> {
  const file = requireProjectFile(projectFiles.migrate, 'apply database migrations');
  const mod = (await import(pathToFileURL(file).href)) as { applyMigrations?: (url: string) => Promise<unknown> };
  if (typeof mod.applyMigrations !== 'function') throw new Error(`${projectFiles.migrate} does not export applyMigrations(databaseUrl)`);
  await mod.applyMigrations(databaseUrl);
}
