/**
 * Pay per request (x402): the settings' cross-checks and their resolved form. The variables
 * themselves are in core/config-table.ts (spec: "Authentication", x402 variables). Fail closed:
 * X402_ENABLED=true without a receiving address, a zero price, or the testnet facilitator in
 * production stop the API at boot.
 */
import { isAddress } from 'viem';
import type { Config } from './config.js';

/** The public testnet facilitator: the development default, refused with NODE_ENV=production. */
export const TESTNET_FACILITATOR_URL = 'https://x402.org/facilitator';
const DEVELOPMENT_NETWORK = 'eip155:84532';
const PRODUCTION_NETWORK = 'eip155:8453';
/** Paid work must end this long before the authorization expires, so settlement can still use it. */
export const SETTLEMENT_MARGIN_MS = 12_000;

/** The protected operations; the same names as their rate limits (api/rate-limit.ts). */
export const paidOperations = ['scrape', 'crawl', 'batchScrape', 'crawlStatus', 'cancel', 'map'] as const;
export type PaidOperation = (typeof paidOperations)[number];

/** What one request pays: `units` times its operation's price (a search that scrapes its results: 1 + limit scrapes). */
export interface Charge {
  operation: PaidOperation;
  units: number;
}

/** `$0.001` × 3 → `$0.003`, exact to USDC's 6 decimals. */
export function priceOf(prices: Record<PaidOperation, string>, charge: Charge): string {
  const price = prices[charge.operation];
  if (charge.units === 1) return price;
  const [whole, fraction = ''] = price.replace(/^\$/, '').split('.');
  const micros = (BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'))) * BigInt(charge.units);
  const text = `${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`.replace(/\.?0+$/, '');
  return `$${text}`;
}

const priceVariables = {
  scrape: 'X402_SCRAPE_PRICE',
  crawl: 'X402_CRAWL_PRICE',
  batchScrape: 'X402_BATCH_SCRAPE_PRICE',
  crawlStatus: 'X402_CRAWL_STATUS_PRICE',
  cancel: 'X402_CRAWL_CANCEL_PRICE',
  map: 'X402_MAP_PRICE',
} as const satisfies Record<PaidOperation, keyof Config>;

export interface X402Settings {
  payTo: `0x${string}`;
  network: `eip155:${string}`;
  facilitatorUrl: string;
  facilitatorToken?: string;
  facilitatorTimeoutMs: number;
  maxTimeoutSeconds: number;
  /** Dollar prices (`$0.01`) by operation. */
  prices: Record<PaidOperation, string>;
}

type Values = Partial<Record<keyof Config, unknown>>;

function enabled(values: Values): boolean {
  return values.X402_ENABLED === undefined ? values.X402_PAY_TO !== undefined : values.X402_ENABLED === true;
}

/** `0.01` → `$0.01`. */
const dollars = (price: string) => (price.startsWith('$') ? price : `$${price}`);

function normalizedUrl(url: string): string {
  return url.trim().replace(/\/+$/, '').toLowerCase();
}

/** Problems with the x402 settings as a whole, for loadConfig's boot error. Empty when x402 is off. */
export function x402Problems(values: Values): string[] {
  if (!enabled(values)) return [];
  const problems: string[] = [];
  const payTo = values.X402_PAY_TO as string | undefined;
  if (payTo === undefined) problems.push('X402_PAY_TO is required when X402_ENABLED=true: set the wallet address that receives payments.');
  else if (!isAddress(payTo, { strict: true })) problems.push(`X402_PAY_TO=${payTo} is not a valid address: its mixed-case spelling fails the EIP-55 checksum (write it all lowercase to skip the check).`);
  else if (/^0x0{40}$/.test(payTo)) problems.push('X402_PAY_TO is the zero address; payments to it are burnt.');
  for (const name of ['X402_PRICE', ...Object.values(priceVariables)] as const) {
    const price = values[name] as string | undefined;
    if (price !== undefined && Number(price.replace('$', '')) <= 0) problems.push(`${name}=${price} must be more than zero.`);
  }
  const production = values.NODE_ENV === 'production';
  const facilitator = values.X402_FACILITATOR_URL as string | undefined;
  if (production && facilitator === undefined) {
    problems.push(`X402_FACILITATOR_URL is required with NODE_ENV=production: the default (${TESTNET_FACILITATOR_URL}) settles on a testnet only.`);
  } else if (production && normalizedUrl(facilitator!) === normalizedUrl(TESTNET_FACILITATOR_URL)) {
    problems.push(`X402_FACILITATOR_URL=${facilitator} is the testnet-only facilitator, refused with NODE_ENV=production: set a production facilitator.`);
  }
  const windowMs = ((values.X402_MAX_TIMEOUT_SECONDS as number | undefined) ?? 60) * 1000;
  const scrapeMs = (values.SCRAPE_TIMEOUT_MS as number | undefined) ?? 30_000;
  if (scrapeMs + SETTLEMENT_MARGIN_MS > windowMs) {
    problems.push(`X402_MAX_TIMEOUT_SECONDS=${windowMs / 1000} is too short for SCRAPE_TIMEOUT_MS=${scrapeMs}: a paid scrape must end ${SETTLEMENT_MARGIN_MS / 1000} s before its payment expires. Raise it to at least ${Math.ceil((scrapeMs + SETTLEMENT_MARGIN_MS) / 1000)}.`);
  }
  return problems;
}

/** The resolved settings, or undefined when x402 is off. Call on a config that passed x402Problems. */
export function x402Settings(config: Config): X402Settings | undefined {
  if (!enabled(config) || !config.X402_PAY_TO) return undefined;
  const production = config.NODE_ENV === 'production';
  const prices = Object.fromEntries(paidOperations.map((op) => [op, dollars(config[priceVariables[op]] ?? config.X402_PRICE)])) as Record<PaidOperation, string>;
  return {
    payTo: config.X402_PAY_TO as `0x${string}`,
    network: (config.X402_NETWORK ?? (production ? PRODUCTION_NETWORK : DEVELOPMENT_NETWORK)) as `eip155:${string}`,
    facilitatorUrl: (config.X402_FACILITATOR_URL ?? TESTNET_FACILITATOR_URL).replace(/\/+$/, ''),
    ...(config.X402_FACILITATOR_BEARER_TOKEN ? { facilitatorToken: config.X402_FACILITATOR_BEARER_TOKEN } : {}),
    facilitatorTimeoutMs: config.X402_FACILITATOR_TIMEOUT_MS,
    maxTimeoutSeconds: config.X402_MAX_TIMEOUT_SECONDS,
    prices,
  };
}
