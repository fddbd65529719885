/**
 * Generate the Prisma client into prisma/generated (git-ignored), skipping the work when nothing that
 * shapes it changed since the last run. Usage: `npx tsx scripts/prisma-generate.ts` (exit 1 on failure).
 *
 * The Prisma CLI insists on a native schema engine before any command and cannot download one here;
 * `generate` never runs it, so any existing file satisfies the check (shared/DEPENDENCY-NOTES.md).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const generated = fileURLToPath(new URL('../prisma/generated/', import.meta.url));
const hashFile = `${generated}.inputs-sha256`;
const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');

/** Everything the generated code depends on: the schema, the CLI config, and the Prisma versions. */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of ['prisma/schema.prisma', 'prisma.config.ts']) hash.update(readFileSync(`${root}${file}`));
  for (const pkg of ['prisma', '@prisma/client']) hash.update((require(`${pkg}/package.json`) as { version: string }).version);
  return hash.digest('hex');
}

function main(): number {
  const hash = inputsHash();
  const upToDate = existsSync(`${generated}client.ts`) && existsSync(hashFile) && readFileSync(hashFile, 'utf8') === hash;
  if (upToDate) {
    console.log('Prisma client is up to date (prisma/generated).');
    return 0;
  }
  rmSync(hashFile, { force: true }); // an interrupted run must not look finished
  // An explicit environment: nothing else from ours (DATABASE_URL and other secrets) reaches the CLI.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
    CHECKPOINT_DISABLE: '1', // no telemetry or update check over the network
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  };
  const run = spawnSync(process.execPath, [cli, 'generate', '--schema', 'prisma/schema.prisma'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
    const why = run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`;
    console.error(`prisma generate failed (${why}); the client in prisma/generated is missing or stale.`);
    return 1;
  }
  writeFileSync(hashFile, hash);
  console.log('Generated the Prisma client into prisma/generated.');
  return 0;
}

process.exit(main());
