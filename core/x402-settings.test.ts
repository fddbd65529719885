/** x402 settings: off by default, fail closed, production refuses the testnet facilitator. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { x402Settings } from './x402-settings.js';

const base = {
  DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  AUTH_SECRET: 'a'.repeat(32),
  SCRAPE_SERVICE_TOKEN: 's'.repeat(32),
  AUTH_URL: 'http://127.0.0.1:3000',
  CORS_ORIGIN: 'http://127.0.0.1:3000',
  API_KEY_PEPPER: 'p'.repeat(16),
  WEBHOOK_SIGNING_SECRET: 'w'.repeat(16),
};
const payTo = '0x52908400098527886E0F7030069857D2E4169EE7';
const prodFacilitator = 'https://facilitator.example.com/x402';

function problems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig('api', { env: { ...base, ...env } });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}
const settings = (env: Record<string, string | undefined>) => x402Settings(loadConfig('api', { env: { ...base, ...env } }));

describe('x402 settings', () => {
  it('is off by default and with X402_ENABLED=false, on when X402_PAY_TO is set', () => {
    expect(settings({})).toBeUndefined();
    expect(settings({ X402_PAY_TO: payTo, X402_ENABLED: 'false' })).toBeUndefined();
    expect(settings({ X402_PAY_TO: payTo })).toEqual({
      payTo,
      network: 'eip155:84532',
      facilitatorUrl: 'https://x402.org/facilitator',
      facilitatorTimeoutMs: 30000,
      maxTimeoutSeconds: 60,
      prices: { scrape: '$0.01', crawl: '$0.01', batchScrape: '$0.01', crawlStatus: '$0.01', cancel: '$0.01', map: '$0.01' },
    });
  });

  it('takes per-operation prices over X402_PRICE, and the production network in production', () => {
    const s = settings({ X402_PAY_TO: payTo, X402_PRICE: '0.02', X402_CRAWL_PRICE: '$1.5', X402_MAP_PRICE: '0.000001', NODE_ENV: 'production', X402_FACILITATOR_URL: `${prodFacilitator}/`, X402_FACILITATOR_BEARER_TOKEN: 'tok' });
    expect(s).toMatchObject({ network: 'eip155:8453', facilitatorUrl: prodFacilitator, facilitatorToken: 'tok' });
    expect(s!.prices).toEqual({ scrape: '$0.02', crawl: '$1.5', batchScrape: '$0.02', crawlStatus: '$0.02', cancel: '$0.02', map: '$0.000001' });
  });

  it('refuses X402_ENABLED=true without a receiving address', () => {
    expect(problems({ X402_ENABLED: 'true' })).toEqual([expect.stringMatching(/^X402_PAY_TO is required when X402_ENABLED=true/)]);
  });

  it.each([
    ['X402_PAY_TO', '0x1234', /^X402_PAY_TO="0x1234" is invalid/],
    ['X402_PAY_TO', '0x52908400098527886e0F7030069857D2E4169EE7', /EIP-55 checksum/],
    ['X402_PAY_TO', `0x${'0'.repeat(40)}`, /zero address/],
    ['X402_SCRAPE_PRICE', '0', /^X402_SCRAPE_PRICE=0 must be more than zero/],
    ['X402_PRICE', '$0.0000001', /^X402_PRICE=.* is invalid/],
    ['X402_MAP_PRICE', '-1', /^X402_MAP_PRICE=.* is invalid/],
    ['X402_MAX_TIMEOUT_SECONDS', '301', /^X402_MAX_TIMEOUT_SECONDS="301" is invalid: must be <= 300/],
    ['X402_FACILITATOR_TIMEOUT_MS', '0', /^X402_FACILITATOR_TIMEOUT_MS="0" is invalid: must be >= 100/],
    ['X402_NETWORK', 'solana:mainnet', /^X402_NETWORK=.* is invalid/],
  ])('refuses %s=%s, naming it', (name, value, message) => {
    expect(problems({ X402_PAY_TO: payTo, [name]: value })).toEqual([expect.stringMatching(message)]);
  });

  it('refuses the testnet facilitator, or none, in production', () => {
    const prod = { X402_PAY_TO: payTo, NODE_ENV: 'production' };
    expect(problems(prod)).toEqual([expect.stringMatching(/^X402_FACILITATOR_URL is required with NODE_ENV=production/)]);
    expect(problems({ ...prod, X402_FACILITATOR_URL: 'https://X402.org/facilitator/' })).toEqual([expect.stringMatching(/testnet-only facilitator, refused/)]);
    expect(problems({ ...prod, X402_FACILITATOR_URL: prodFacilitator })).toEqual([]);
  });

  it('needs an authorization window long enough for a scrape and its settlement', () => {
    expect(problems({ X402_PAY_TO: payTo, X402_MAX_TIMEOUT_SECONDS: '30', SCRAPE_TIMEOUT_MS: '30000' })).toEqual([expect.stringMatching(/^X402_MAX_TIMEOUT_SECONDS=30 is too short .* at least 42/)]);
  });

  it('checks nothing while x402 is off, and only for the API', () => {
    expect(problems({ X402_SCRAPE_PRICE: '0', X402_ENABLED: 'false', X402_PAY_TO: payTo })).toEqual([]);
    expect(() => loadConfig('worker', { env: { ...base, WEBHOOK_SIGNING_SECRET: 'w'.repeat(16), X402_ENABLED: 'true' } })).not.toThrow();
  });
});
