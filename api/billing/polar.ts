/**
 * The one adapter to the billing provider, Polar (@polar-sh/sdk, API version 2026-10): checkout for
 * an account, the customer portal, and webhook verification (Standard Webhooks signatures, checked
 * by the SDK). Accounts are Polar customers by external id: the account id.
 */
import { createPolar, webhooks } from '@polar-sh/sdk/2026-10';
import type { BillingSettings } from '../../core/billing-settings.js';

export type BillingEvent = Awaited<ReturnType<typeof webhooks.validateEvent>>;
export const { PolarWebhookVerificationError, PolarWebhookUnknownTypeError } = webhooks;

const TIMEOUT_SECONDS = 15;

export interface BillingProvider {
  checkoutUrl(accountId: string, productId: string): Promise<string>;
  portalUrl(accountId: string): Promise<string>;
  verify(body: string, headers: Record<string, string>): Promise<BillingEvent>;
}

export function polarProvider(settings: BillingSettings): BillingProvider {
  const polar = createPolar({
    accessToken: settings.accessToken,
    environment: settings.environment,
    timeout: TIMEOUT_SECONDS,
    ...(settings.apiUrl ? { baseUrl: settings.apiUrl } : {}),
  });
  return {
    async checkoutUrl(accountId, productId) {
      const checkout = await polar.checkouts.create({ products: [productId], success_url: settings.successUrl, external_customer_id: accountId });
      return checkout.url;
    },
    async portalUrl(accountId) {
      const session = await polar.customerSessions.create({ external_customer_id: accountId });
      return session.customer_portal_url;
    },
    verify: (body, headers) => webhooks.validateEvent(body, headers, settings.webhookSecret),
  };
}
