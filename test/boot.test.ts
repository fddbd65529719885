/** Each process refuses to boot on a missing or malformed setting, and says which. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testEnv } from './helpers/env.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = import.meta.resolve('tsx');
// An empty working directory, so no developer's .env file leaks into the test.
const cwd = mkdtempSync(join(tmpdir(), 'boot-'));

function boot(entry: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', tsx, join(root, entry)], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stderr: result.stderr };
}

describe('process boot', () => {
  it.each([
    ['api/main.ts', 'AUTH_SECRET', 'too-short', /AUTH_SECRET=\(hidden\) is invalid: must NOT have fewer than 32 characters/],
    ['api/main.ts', 'API_KEY_PEPPER', undefined, /API_KEY_PEPPER is required but not set/],
    ['api/main.ts', 'DATABASE_URL', 'mysql://root@127.0.0.1/db', /DATABASE_URL=\(hidden\) is invalid/],
    ['worker/main.ts', 'DATABASE_URL', undefined, /DATABASE_URL is required but not set/],
    ['worker/main.ts', 'WORKER_CONCURRENCY', 'lots', /WORKER_CONCURRENCY="lots" is invalid: must be integer/],
  ])('%s exits 1 when %s is %s', (entry, name, value, message) => {
    const { status, stderr } = boot(entry, testEnv({ [name]: value }));
    expect(status).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('too-short');
  });

  it.each([
    [{ X402_ENABLED: 'true' }, /X402_PAY_TO is required when X402_ENABLED=true/],
    [{ X402_PAY_TO: '0x52908400098527886E0F7030069857D2E4169EE7', NODE_ENV: 'production' }, /X402_FACILITATOR_URL is required with NODE_ENV=production/],
    [{ X402_PAY_TO: '0x52908400098527886E0F7030069857D2E4169EE7', NODE_ENV: 'production', X402_FACILITATOR_URL: 'https://x402.org/facilitator' }, /testnet-only facilitator, refused/],
  ])('the API exits 1 on x402 settings that cannot take payments safely (%o)', (env, message) => {
    const { status, stderr } = boot('api/main.ts', testEnv(env));
    expect(status).toBe(1);
    expect(stderr).toMatch(message);
  });
});
