/** Settings for processes started by tests: the global test infrastructure plus throwaway secrets. */
import { inject } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../api/keys-store.js';
import { loadConfig } from '../../core/config.js';
import { accountWebhookSecret } from '../../core/webhook-signature.js';

export const TEST_PEPPER = 'test-pepper-0123456789abcdef';
export const TEST_WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
/** What deliveries for keys of the `default` account (the test stacks' keys) are signed with. */
export const DEFAULT_ACCOUNT_WEBHOOK_SECRET = accountWebhookSecret(TEST_WEBHOOK_SECRET, DEFAULT_ACCOUNT_ID, 1);

export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: inject('temporalNamespace'),
    AUTH_SECRET: 'test-auth-secret-0123456789abcdef0123456789',
    SCRAPE_SERVICE_TOKEN: 'test-scrape-service-token-0123456789abcdef',
    AUTH_URL: 'http://127.0.0.1:3000',
    CORS_ORIGIN: 'http://allowed.example',
    API_KEY_PEPPER: TEST_PEPPER,
    WEBHOOK_SIGNING_SECRET: TEST_WEBHOOK_SECRET,
    CHROMIUM_PATH: inject('chromiumPath'),
    LOG_LEVEL: 'error',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

export function testConfig<R extends 'api' | 'worker' | 'cli'>(role: R, overrides: Record<string, string | undefined> = {}) {
  return loadConfig(role, { env: testEnv(overrides) });
}
