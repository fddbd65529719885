import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const valid = {
  DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  AUTH_SECRET: 'a'.repeat(32),
  SCRAPE_SERVICE_TOKEN: 's'.repeat(32),
  AUTH_URL: 'https://api.example.com',
  CORS_ORIGIN: 'https://app.example.com',
  API_KEY_PEPPER: 'p'.repeat(16),
  WEBHOOK_SIGNING_SECRET: 'w'.repeat(16),
};

function problems(role: 'api' | 'worker' | 'cli', env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(role, { env });
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
}

describe('loadConfig', () => {
  it('accepts a complete API environment and applies defaults', () => {
    const config = loadConfig('api', { env: valid });
    expect(config.API_PORT).toBe(3000);
    expect(config.CRAWL_TTL_SECONDS).toBe(86400);
    expect(config.WORKER_CONCURRENCY).toBe(2);
    expect(config.ALLOW_PRIVATE_ADDRESSES).toBe(false);
    expect(config.SCRAPE_TIMEOUT_MS).toBe(30000);
  });

  it.each(['DATABASE_URL', 'REDIS_URL', 'AUTH_SECRET', 'AUTH_URL', 'CORS_ORIGIN', 'API_KEY_PEPPER'])('refuses an API environment without %s, naming it', (name) => {
    const found = problems('api', { ...valid, [name]: undefined });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${name} is required but not set`));
  });

  it.each([
    ['AUTH_SECRET', 'x'.repeat(31)],
    ['API_KEY_PEPPER', 'x'.repeat(15)],
    ['DATABASE_URL', 'mysql://u@h/db'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['AUTH_URL', 'api.example.com'],
    ['EGRESS_ALLOW_CIDRS', '10.0.0.0/33'],
    ['API_PORT', '70000'],
    ['WORKER_CONCURRENCY', '0'],
    ['ALLOW_PRIVATE_ADDRESSES', 'maybe'],
    ['SCRAPE_TIMEOUT_MS', '500'],
  ])('refuses a malformed %s, naming it', (name, value) => {
    const found = problems('api', { ...valid, [name]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${name}=.* is invalid`));
  });

  it('refuses ALLOW_PRIVATE_ADDRESSES in production unless explicitly forced', () => {
    const prod = { ...valid, NODE_ENV: 'production', ALLOW_PRIVATE_ADDRESSES: 'true' };
    expect(problems('api', prod)).toEqual([expect.stringMatching(/^ALLOW_PRIVATE_ADDRESSES=true is refused with NODE_ENV=production/)]);
    expect(problems('api', { ...prod, ALLOW_PRIVATE_ADDRESSES_IN_PRODUCTION: 'true' })).toEqual([]);
    expect(problems('api', { ...prod, NODE_ENV: 'development' })).toEqual([]);
  });

  it('never prints the value of a secret setting', () => {
    const [problem] = problems('api', { ...valid, AUTH_SECRET: 'short-secret-value' });
    expect(problem).toContain('AUTH_SECRET=(hidden)');
    expect(problem).not.toContain('short-secret-value');
  });

  it('requires only what the role needs: a worker needs no API secrets, but its webhook secret and the scrape service token', () => {
    const worker = { DATABASE_URL: valid.DATABASE_URL, REDIS_URL: valid.REDIS_URL, WEBHOOK_SIGNING_SECRET: 'w'.repeat(16), SCRAPE_SERVICE_TOKEN: 's'.repeat(32) };
    expect(problems('worker', worker)).toEqual([]);
    expect(problems('worker', { ...worker, SCRAPE_SERVICE_TOKEN: undefined })).toEqual([expect.stringMatching(/^SCRAPE_SERVICE_TOKEN is required/)]);
    expect(problems('worker', { ...worker, DATABASE_URL: undefined })).toEqual([expect.stringMatching(/^DATABASE_URL is required/)]);
    expect(problems('worker', { ...worker, WEBHOOK_SIGNING_SECRET: undefined })).toEqual([expect.stringMatching(/^WEBHOOK_SIGNING_SECRET is required/)]);
  });

  it('reads .env, .env.<NODE_ENV>, .env.local in rising precedence, the real environment above all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, '.env'), 'API_PORT=4001\nWORKER_CONCURRENCY=3\nLOG_LEVEL=debug\nCRAWL_TTL_SECONDS=600\n');
    writeFileSync(join(dir, '.env.test'), 'API_PORT=4002\nWORKER_CONCURRENCY=4\nLOG_LEVEL=warn\n');
    writeFileSync(join(dir, '.env.local'), 'API_PORT=4003\nWORKER_CONCURRENCY=5\n');
    const saved = { ...process.env };
    try {
      Object.assign(process.env, valid, { NODE_ENV: 'test', API_PORT: '4004' });
      delete process.env.WORKER_CONCURRENCY;
      delete process.env.LOG_LEVEL;
      delete process.env.CRAWL_TTL_SECONDS;
      const config = loadConfig('api', { cwd: dir });
      expect([config.API_PORT, config.WORKER_CONCURRENCY, config.LOG_LEVEL, config.CRAWL_TTL_SECONDS]).toEqual([4004, 5, 'warn', 600]);
    } finally {
      process.env = saved;
    }
  });
});
