/**
 * Subscription billing's settings: cross-checks and their resolved form (the variables are in
 * core/config-table.ts). Off unless BILLING_ACCESS_TOKEN is set; on, the API refuses to start
 * without every setting billing needs, naming each missing one (fail closed: an operator who set a
 * token must not believe billing is on when it is not).
 */
import type { Config } from './config.js';

export interface BillingSettings {
  accessToken: string;
  environment: 'sandbox' | 'production';
  /** Overrides the environment's Polar API URL (tests, proxies). */
  apiUrl?: string;
  successUrl: string;
  webhookSecret: string;
  /** Monthly page credits by Polar product id. */
  plans: Map<string, number>;
  freeCredits: number;
}

type Values = Record<string, unknown>;

const required = ['BILLING_SUCCESS_URL', 'BILLING_WEBHOOK_SECRET', 'BILLING_PLANS', 'BILLING_ENVIRONMENT'] as const;

/** `raw`: the variables as given, so one set to an invalid value is reported once (as invalid), not also as missing. */
export function billingProblems(values: Values, raw: Record<string, string | undefined>): string[] {
  if (values.BILLING_ACCESS_TOKEN === undefined) return [];
  return required.filter((name) => !raw[name]?.trim()).map((name) => `${name} is required when BILLING_ACCESS_TOKEN is set (subscription billing is on).`);
}

export function parsePlans(text: string): Map<string, number> {
  return new Map(text.split(',').map((pair) => {
    const [product, credits] = pair.split('=') as [string, string];
    return [product, Number(credits)];
  }));
}

/** Undefined when billing is off. Call after the config validated (billingProblems passed). */
export function billingSettings(config: Pick<Config, 'BILLING_ACCESS_TOKEN' | 'BILLING_ENVIRONMENT' | 'BILLING_API_URL' | 'BILLING_SUCCESS_URL' | 'BILLING_WEBHOOK_SECRET' | 'BILLING_PLANS' | 'BILLING_FREE_CREDITS'>): BillingSettings | undefined {
  if (config.BILLING_ACCESS_TOKEN === undefined) return undefined;
  return {
    accessToken: config.BILLING_ACCESS_TOKEN,
    environment: config.BILLING_ENVIRONMENT!,
    ...(config.BILLING_API_URL ? { apiUrl: config.BILLING_API_URL } : {}),
    successUrl: config.BILLING_SUCCESS_URL!,
    webhookSecret: config.BILLING_WEBHOOK_SECRET!,
    plans: parsePlans(config.BILLING_PLANS!),
    freeCredits: config.BILLING_FREE_CREDITS,
  };
}

/** What the workers need to stop a crawl at zero credits: undefined with billing off. */
export function creditCheck(config: Pick<Config, 'BILLING_ACCESS_TOKEN' | 'BILLING_FREE_CREDITS'>): { freeCredits: number } | undefined {
  return config.BILLING_ACCESS_TOKEN === undefined ? undefined : { freeCredits: config.BILLING_FREE_CREDITS };
}
