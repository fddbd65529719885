/**
 * Credits in PostgreSQL, shared by the API (the 402 gate, the billing page, webhooks) and the
 * workers (a crawl stops at zero). An account's `account_billing` row exists only once billing is
 * on. Periods roll over lazily, in the same statement that reads them:
 * - a subscription (active, past_due or canceled) gives its plan's credits until its period end;
 * - after that, or once revoked, the account is back on the free allowance;
 * - the free allowance is per calendar month (UTC), used credits back to zero each month.
 * Renewals (a paid order) reset a subscription's period explicitly (api/billing/apply.ts).
 */
import type { Prisma } from './generated/client.js';

type Tx = Prisma.TransactionClient;

/** Bring the row's period up to date (see above); returns the row's credits left, or undefined without a row. */
export async function refreshCredits(tx: Tx, accountId: string, freeCredits: number): Promise<number | undefined> {
  const rows = await tx.$queryRaw<{ left: number }[]>`
    UPDATE account_billing SET
      status = 'free', subscription_id = NULL, product_id = NULL, plan_name = NULL, cancel_at_period_end = false,
      credits_granted = ${freeCredits}, credits_used = 0,
      period_start = date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
      period_end = (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
    WHERE account_id = ${accountId} AND (period_end <= now() OR status = 'revoked')
    RETURNING credits_granted - credits_used AS left`;
  if (rows[0]) return rows[0].left;
  const current = await tx.$queryRaw<{ left: number }[]>`SELECT credits_granted - credits_used AS left FROM account_billing WHERE account_id = ${accountId}`;
  return current[0]?.left;
}

/** Start an account on the free allowance (billing on, first use); nothing if it has a row. */
export async function ensureBillingRow(tx: Tx, accountId: string, freeCredits: number): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO account_billing (account_id, status, credits_granted, credits_used, period_start, period_end)
    VALUES (${accountId}, 'free', ${freeCredits}, 0, date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
      (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC')
    ON CONFLICT (account_id) DO NOTHING`;
}

/** Credits left for the crawl's account (less those held), with its row locked until the transaction ends; undefined when the account is not billed. */
export async function lockCrawlCredits(tx: Tx, crawlId: string, freeCredits: number): Promise<number | undefined> {
  const owner = await tx.$queryRaw<{ account_id: string }[]>`
    SELECT b.account_id FROM job c JOIN api_key k ON k.id = c.api_key_id JOIN account_billing b ON b.account_id = k.account_id
    WHERE c.id = ${crawlId} FOR UPDATE OF b`;
  if (!owner[0]) return undefined;
  const left = await refreshCredits(tx, owner[0].account_id, freeCredits);
  // Credits held by requests in flight (api/billing/credits.ts) are not the crawl's to spend.
  return left === undefined ? undefined : left - (await heldCredits(tx, owner[0].account_id));
}

/** Credits the account's requests in flight hold (api/billing/credits.ts); expired holds count for nothing. */
export async function heldCredits(tx: Tx, accountId: string): Promise<number> {
  const rows = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM credit_hold WHERE account_id = ${accountId} AND expires_at > now()`;
  return rows[0]?.n ?? 0;
}
