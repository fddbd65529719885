/**
 * prisma/migrations produce exactly what prisma/schema.prisma describes, and scripts/migrate.ts keeps
 * the history the way `prisma migrate deploy` does. Each test works in databases of its own.
 */
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  applyMigrations,
  diffToSchema,
  MigrationApplyError,
  MigrationChecksumError,
  migrationList,
  migrationsDir,
  NonEmptyDatabaseError,
  readMigrations,
  withSchemaEngine,
} from '../scripts/migrate.js';

const adminUrl = inject('postgresAdminUrl');
const created: string[] = [];
const migrationNames = readMigrations().map((m) => m.name);
const noFilters = { externalTables: [], externalEnums: [] };

async function sql<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

async function freshDatabase(label: string): Promise<string> {
  const name = `migrations_${label}_${process.pid}_${Date.now().toString(36)}`;
  await sql(adminUrl, `CREATE DATABASE "${name}"`);
  created.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const prismaView = (url: string, dir = migrationsDir) =>
  withSchemaEngine(url, (engine) => engine.diagnoseMigrationHistory({ migrationsList: migrationList(dir), optInToShadowDatabase: false, filters: noFilters }));

afterAll(async () => {
  await Promise.all(created.map((name) => sql(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
});

describe('prisma/migrations', () => {
  it('is not empty and starts with a lockfile for postgresql', () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(migrationList().lockfile.content).toContain('provider = "postgresql"');
  });

  it('replayed into an empty database leave nothing to add for schema.prisma, and no shadow database behind', async () => {
    // The replay happens in a shadow database of its own; the database connected to is only read.
    expect(await diffToSchema(adminUrl, 'migrations')).toBe('');
    expect(await sql(adminUrl, `SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'`)).toEqual([]);
  });
});

describe('applyMigrations', () => {
  it('applies every migration in order and leaves a database identical to schema.prisma', async () => {
    const url = await freshDatabase('apply');
    expect(await applyMigrations(url)).toEqual(migrationNames);
    expect(await diffToSchema(url, 'database')).toBe('');
  });

  it('records rows Prisma reads as a complete, unedited history', async () => {
    const url = await freshDatabase('history');
    await applyMigrations(url);
    const rows = await sql(url, 'SELECT migration_name, checksum, logs, applied_steps_count, finished_at IS NOT NULL AS finished, rolled_back_at FROM _prisma_migrations ORDER BY started_at');
    expect(rows).toEqual(readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum, logs: null, applied_steps_count: 1, finished: true, rolled_back_at: null })));
    expect(await prismaView(url)).toEqual({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });
  });

  it('applies nothing when run again, and exactly once when two runners race', async () => {
    const url = await freshDatabase('race');
    const results = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    expect(results.map((r) => r.length).sort()).toEqual([0, migrationNames.length]);
    expect(await applyMigrations(url)).toEqual([]);
    expect(await sql(url, 'SELECT count(*)::int AS n FROM _prisma_migrations')).toEqual([{ n: migrationNames.length }]);
  });

  it('refuses a migration whose file no longer matches its recorded checksum, as Prisma would flag it', async () => {
    const url = await freshDatabase('tamper');
    await applyMigrations(url);
    const [first] = migrationNames;
    await sql(url, `UPDATE _prisma_migrations SET checksum = repeat('0', 64) WHERE migration_name = '${first}'`);
    const refused = await applyMigrations(url).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(MigrationChecksumError);
    expect(refused).toMatchObject({ migrationName: first, recorded: '0'.repeat(64) });
    expect((await prismaView(url)).editedMigrationNames).toEqual([first]);
  });

  it('rolls a failing migration back completely and records nothing for it', async () => {
    const url = await freshDatabase('failing');
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    try {
      cpSync(migrationsDir, dir, { recursive: true });
      mkdirSync(join(dir, '99990101000000_broken'));
      writeFileSync(join(dir, '99990101000000_broken', 'migration.sql'), 'CREATE TABLE "half_done" (id int);\nSELECT 1/0;\n');
      const failure = await applyMigrations(url, dir).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(MigrationApplyError);
      expect(failure).toMatchObject({ migrationName: '99990101000000_broken' });
      expect(await sql(url, `SELECT to_regclass('half_done') IS NULL AS absent`)).toEqual([{ absent: true }]);
      expect((await sql<{ migration_name: string }>(url, 'SELECT migration_name FROM _prisma_migrations ORDER BY started_at')).map((r) => r.migration_name)).toEqual(migrationNames);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a database that has tables but no migration history', async () => {
    const url = await freshDatabase('foreign');
    await sql(url, 'CREATE TABLE someone_elses (id int)');
    await expect(applyMigrations(url)).rejects.toBeInstanceOf(NonEmptyDatabaseError);
  });
});

describe('diffToSchema', () => {
  it('reports a missing index as the statement that would restore it', async () => {
    const url = await freshDatabase('drift');
    await applyMigrations(url);
    await sql(url, 'DROP INDEX "document_expires_at_idx"');
    expect(await diffToSchema(url, 'database')).toBe('-- CreateIndex\nCREATE INDEX "document_expires_at_idx" ON "document"("expires_at");\n');
  });
});
