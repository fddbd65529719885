/**
 * The billing page's endpoints: the account's plan, credits and period for everyone in it; checkout
 * and the provider's customer portal for admins (README "Billing"). With billing off, the page
 * says usage is unlimited.
 */
import { ApiError, invalidBody } from '../../../core/errors.js';
import { accountCredits } from '../../billing/credits.js';
import type { BillingProvider } from '../../billing/polar.js';
import type { BillingSettings } from '../../../core/billing-settings.js';
import { dashboardRoute, emptyBody } from '../define.js';
import { billingRedirectSchema, billingSchema } from '../schemas.js';

export interface Billing {
  settings: BillingSettings;
  provider: BillingProvider;
}

const providerFailed = (err: unknown) => new ApiError(502, 'billing_unavailable', `The billing provider did not answer: ${(err as Error).message}. Try again shortly.`);

export function billingRoutes(billing: Billing | undefined) {
  return [
    dashboardRoute({
      method: 'get',
      path: '/billing',
      access: 'member',
      response: billingSchema,
      async handler(ctx, { session }) {
        if (!billing) return { enabled: false as const };
        const credits = await accountCredits(ctx.state.deps, billing.settings, session.account.id);
        const row = await ctx.state.deps.prisma.accountBilling.findUniqueOrThrow({ where: { accountId: session.account.id } });
        return {
          enabled: true as const,
          status: row.status,
          planName: row.planName,
          credits,
          periodEnd: row.periodEnd.toISOString(),
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          hasSubscription: row.customerId !== null,
          plans: [...billing.settings.plans].map(([productId, monthlyCredits]) => ({ productId, monthlyCredits })),
        };
      },
    }),
    dashboardRoute({
      method: 'post',
      path: '/billing/checkout',
      access: 'admin',
      body: { type: 'object', additionalProperties: false, required: ['productId'], properties: { productId: { type: 'string', minLength: 1, maxLength: 200 } } },
      response: billingRedirectSchema,
      async handler(ctx, { body, session }) {
        if (!billing) throw new ApiError(404, 'billing_off', 'Billing is off on this server.');
        if (!billing.settings.plans.has(body.productId)) throw invalidBody([{ field: 'productId', message: 'is not one of the plans (BILLING_PLANS)' }]);
        try {
          return { url: await billing.provider.checkoutUrl(session.account.id, body.productId) };
        } catch (err) {
          throw providerFailed(err);
        }
      },
    }),
    dashboardRoute({
      method: 'post',
      path: '/billing/portal',
      access: 'admin',
      body: emptyBody,
      response: billingRedirectSchema,
      async handler(ctx, { session }) {
        if (!billing) throw new ApiError(404, 'billing_off', 'Billing is off on this server.');
        try {
          return { url: await billing.provider.portalUrl(session.account.id) };
        } catch (err) {
          throw providerFailed(err);
        }
      },
    }),
  ];
}
