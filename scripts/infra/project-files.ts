/**
 * Entry points of other parts of the project that the stack drives (migrations, the key CLI, the
 * three service processes). Looked up at run time so a missing or broken one is reported by
 * file name instead of as a module-resolution stack trace.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../stack-config.js';

export const projectFiles = {
  migrate: 'scripts/migrate.ts',
  keys: 'scripts/keys.ts',
  users: 'scripts/users.ts',
  api: 'api/main.ts',
  worker: 'worker.ts',
  browser: 'browser-service/main.ts',
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

/** `applyMigrations(databaseUrl)` from scripts/migrate.ts. */
export async function applyMigrations(databaseUrl: string): Promise<void> {
  const file = requireProjectFile(projectFiles.migrate, 'apply database migrations');
  const mod = (await import(pathToFileURL(file).href)) as { applyMigrations?: (url: string) => Promise<unknown> };
  if (typeof mod.applyMigrations !== 'function') throw new Error(`${projectFiles.migrate} does not export applyMigrations(databaseUrl)`);
  await mod.applyMigrations(databaseUrl);
}
