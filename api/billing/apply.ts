/**
 * What a verified billing event does to an account (README "Billing"), in one transaction with its
 * record, so a replay (same webhook-id) changes nothing:
 * - subscription created / active / updated / uncanceled: the plan's credits for the subscription's
 *   period; a new period starts with nothing used, a change within the period keeps what was used;
 * - canceled (cancel at period end): access until the period ends, then the free allowance;
 * - past_due: the plan stays until the period ends (the provider retries the payment meanwhile);
 *   unpaid by then, the free allowance;
 * - revoked (or a subscription that has ended): the free allowance from now;
 * - order paid for a renewal (`subscription_cycle`): the new period's credits, nothing used.
 * Events can arrive out of order: a subscription event older (modified_at) than the state already
 * applied, or a renewal for a period already applied, is recorded as `ignored`.
 */
import type { BillingSettings } from '../../core/billing-settings.js';
import type { Logger } from '../../core/log.js';
import { ensureBillingRow } from '../../prisma/billing.js';
import type { Prisma, PrismaClient } from '../../prisma/client.js';
import type { BillingEvent } from './polar.js';

type Tx = Prisma.TransactionClient;
type Outcome = 'applied' | 'ignored';

interface SubscriptionData {
  id: string;
  status: string;
  modified_at: string | null;
  created_at: string;
  current_period_start: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
  customer_id: string;
  product_id: string;
  customer: { external_id?: string | null };
  product: { name: string };
}

interface OrderData {
  billing_reason: string;
  subscription_id: string | null;
  customer: { external_id?: string | null };
  subscription: { id: string; current_period_start: string; current_period_end: string } | null;
}

function statusOf(type: string, s: SubscriptionData): 'active' | 'canceled' | 'past_due' | 'revoked' | undefined {
  if (type === 'subscription.revoked' || s.status === 'canceled' || s.status === 'incomplete_expired') return 'revoked';
  if (s.status === 'past_due' || s.status === 'unpaid') return 'past_due';
  if (s.status === 'active' || s.status === 'trialing') return s.cancel_at_period_end ? 'canceled' : 'active';
  return undefined;
}

async function accountFor(tx: Tx, externalId: string | null | undefined, subscriptionId: string | null): Promise<string | undefined> {
  if (externalId && (await tx.account.findUnique({ where: { id: externalId }, select: { id: true } }))) return externalId;
  if (!subscriptionId) return undefined;
  const row = await tx.accountBilling.findFirst({ where: { subscriptionId }, select: { accountId: true } });
  return row?.accountId;
}

async function applySubscription(tx: Tx, settings: BillingSettings, type: string, s: SubscriptionData): Promise<{ accountId?: string; outcome: Outcome }> {
  const accountId = await accountFor(tx, s.customer.external_id, s.id);
  const status = statusOf(type, s);
  const credits = settings.plans.get(s.product_id);
  if (!accountId || !status || credits === undefined) return { accountId, outcome: 'ignored' };
  await ensureBillingRow(tx, accountId, settings.freeCredits);
  const [row] = await tx.$queryRaw<{ state_at: Date | null; period_start: Date; subscription_id: string | null }[]>`
    SELECT state_at, period_start, subscription_id FROM account_billing WHERE account_id = ${accountId} FOR UPDATE`;
  const stateAt = new Date(s.modified_at ?? s.created_at);
  if (row!.state_at && stateAt < row!.state_at) return { accountId, outcome: 'ignored' };
  const periodStart = new Date(s.current_period_start);
  const samePeriod = row!.subscription_id === s.id && row!.period_start.getTime() === periodStart.getTime();
  await tx.accountBilling.update({
    where: { accountId },
    data: {
      status,
      subscriptionId: s.id,
      customerId: s.customer_id,
      productId: s.product_id,
      planName: s.product.name,
      creditsGranted: credits,
      ...(samePeriod ? {} : { creditsUsed: 0 }),
      periodStart,
      periodEnd: new Date(s.current_period_end),
      cancelAtPeriodEnd: s.cancel_at_period_end,
      stateAt,
    },
  });
  return { accountId, outcome: 'applied' };
}

async function applyRenewal(tx: Tx, settings: BillingSettings, o: OrderData): Promise<{ accountId?: string; outcome: Outcome }> {
  const accountId = await accountFor(tx, o.customer.external_id, o.subscription_id);
  if (!accountId || o.billing_reason !== 'subscription_cycle' || !o.subscription) return { accountId, outcome: 'ignored' };
  const [row] = await tx.$queryRaw<{ status: string; period_start: Date; product_id: string | null; subscription_id: string | null }[]>`
    SELECT status, period_start, product_id, subscription_id FROM account_billing WHERE account_id = ${accountId} FOR UPDATE`;
  const start = new Date(o.subscription.current_period_start);
  // Only a period newer than the one applied, of the subscription the account has, and not revoked meanwhile.
  if (!row || row.subscription_id !== o.subscription.id || row.status === 'revoked' || start <= row.period_start) return { accountId, outcome: 'ignored' };
  const credits = settings.plans.get(row.product_id ?? '') ?? settings.freeCredits;
  await tx.accountBilling.update({
    where: { accountId },
    data: { creditsUsed: 0, creditsGranted: credits, periodStart: start, periodEnd: new Date(o.subscription.current_period_end), ...(row.status === 'past_due' ? { status: 'active' } : {}) },
  });
  return { accountId, outcome: 'applied' };
}

/** Record and apply one verified event; `false` when its webhook-id was seen before (a replay: nothing changes). */
export async function applyBillingEvent(prisma: PrismaClient, settings: BillingSettings, log: Logger, webhookId: string, event: BillingEvent): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const seen = await tx.billingEvent.findUnique({ where: { id: webhookId }, select: { id: true } });
    if (seen) return false;
    const { type } = event;
    const result = type.startsWith('subscription.')
      ? await applySubscription(tx, settings, type, event.data as unknown as SubscriptionData)
      : type === 'order.paid'
        ? await applyRenewal(tx, settings, event.data as unknown as OrderData)
        : { outcome: 'ignored' as const };
    await tx.billingEvent.create({ data: { id: webhookId, type, accountId: result.accountId ?? null, payload: event as unknown as Prisma.InputJsonValue, outcome: result.outcome } });
    log.info('billing event', { id: webhookId, type, account: result.accountId ?? null, outcome: result.outcome });
    return true;
  });
}
