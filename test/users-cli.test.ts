/** The operators' user command: create prints a generated password once, reset-password replaces it and ends sessions. */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPassword } from '../api/accounts-store.js';
import { createPrisma } from '../prisma/client.js';
import { testEnv } from './helpers/env.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), 'users-'));
const users = (args: string[], input?: string) =>
  spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'scripts/users.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...testEnv() },
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });

const prisma = createPrisma(testEnv().DATABASE_URL!);
afterAll(async () => prisma.$disconnect());

describe('npm run users', () => {
  it('creates a user with a generated argon2id password, printed once', async () => {
    const email = `Cli-${randomUUID().slice(0, 8)}@Example.test`;
    const created = users(['create', '--email', email, '--role', 'admin']);
    expect(created.status).toBe(0);
    const password = created.stdout.trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(created.stderr).toContain(`Created admin ${email.toLowerCase()} in account default. The password is shown once`);
    const row = await prisma.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    expect(row).toMatchObject({ role: 'admin', accountId: 'default' });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await checkPassword(row.passwordHash, password)).toBe(true);
    expect(users(['list']).stdout).toContain(`${email.toLowerCase()}\tadmin\taccount default`);
    const again = users(['create', '--email', email]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('resets a password (read from standard input with --password-stdin) and ends the user’s sessions', async () => {
    const email = `reset-${randomUUID().slice(0, 8)}@example.test`;
    expect(users(['create', '--email', email]).status).toBe(0);
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    await prisma.session.create({ data: { id: randomUUID(), userId: user.id, csrfToken: 'x', expiresAt: new Date(Date.now() + 60_000) } });
    const reset = users(['reset-password', '--email', email, '--password-stdin'], 'a chosen password 123\n');
    expect(reset.status).toBe(0);
    expect(reset.stdout.trim()).toBe('a chosen password 123');
    const after = await prisma.user.findUniqueOrThrow({ where: { email } });
    expect(await checkPassword(after.passwordHash, 'a chosen password 123')).toBe(true);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect(users(['reset-password', '--email', `missing-${email}`]).status).toBe(1);
    expect(users(['create']).status).toBe(2);
  });
});
