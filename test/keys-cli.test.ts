/** The operators' key command: create prints a key once, list shows it without the secret, revoke rejects it. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findActiveKey } from '../api/keys-store.js';
import { createPrisma } from '../prisma/client.js';
import { TEST_PEPPER, testEnv } from './helpers/env.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), 'keys-'));
const keys = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'scripts/keys.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...testEnv() },
    encoding: 'utf8',
    timeout: 30_000,
  });

const prisma = createPrisma(testEnv().DATABASE_URL!);
afterAll(async () => prisma.$disconnect());

describe('npm run keys', () => {
  it('creates, lists and revokes a key', async () => {
    const name = `cli-${Date.now()}`;
    const created = keys('create', '--name', name);
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^pw_[A-Za-z0-9_-]{32}$/);
    expect(created.stderr).toMatch(new RegExp(`Created API key "${name}" \\(id [0-9a-f-]{36}\\)\\. It is shown once`));

    expect(await findActiveKey(prisma, key, TEST_PEPPER)).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), accountId: 'default' });

    const listed = keys('list');
    expect(listed.status).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.includes(JSON.stringify(name)));
    expect(line).toBeDefined();
    expect(line).toContain(`${key.slice(0, 9)}…`);
    expect(line).toContain('last used never');
    expect(line!.endsWith('\tactive')).toBe(true);
    expect(listed.stdout).not.toContain(key);

    const revoked = keys('revoke', key.slice(0, 9));
    expect(revoked.status).toBe(0);
    expect(revoked.stderr.trim()).toBe('Revoked 1 key.');
    expect(keys('list').stdout.split('\n').find((l) => l.includes(JSON.stringify(name)))).toMatch(/\trevoked \d{4}-/);

    expect(await findActiveKey(prisma, key, TEST_PEPPER)).toBe('revoked');
    expect(keys('revoke', 'pw_nothing').status).toBe(1);
  });

  it('create --if-none prints nothing when an active key exists', () => {
    keys('create', '--name', 'ensure-one');
    const again = keys('create', '--if-none');
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('exits 2 with usage on an unknown command', () => {
    const res = keys('frobnicate');
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('usage: keys create');
  });
});
