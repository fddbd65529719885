/**
 * The 402 gate: with billing on, a request that starts billed work (a route declared `billed`)
 * holds one credit of its account while it runs, and is refused when none is left for the period
 * (credits used, plus those other requests hold). Holds are taken one at a time under the
 * account's billing row lock, so 20 concurrent scrapes at 5 credits left run exactly 5. The hold
 * is released when the request ends: a scrape's page was counted where it was stored
 * (activities/usage.ts), and a failed one costs nothing. A hold left by an API that died expires
 * after HOLD_SECONDS. A running crawl stops at zero where its pages are stored
 * (activities/crawl/store.ts), counting the holds too. Callers paying per request (x402) are
 * outside plans.
 */
import { randomUUID } from 'node:crypto';
import type { BillingSettings } from '../../core/billing-settings.js';
import { InsufficientCreditsError } from '../../core/errors.js';
import { ensureBillingRow, heldCredits, refreshCredits } from '../../prisma/billing.js';
import type { ApiDeps } from '../deps.js';

export interface Credits {
  granted: number;
  used: number;
  left: number;
}

/** The account's credits now (its row created on the free allowance, its period rolled over if due). */
export async function accountCredits(deps: ApiDeps, billing: BillingSettings, accountId: string): Promise<Credits> {
  return deps.prisma.$transaction(async (tx) => {
    await ensureBillingRow(tx, accountId, billing.freeCredits);
    await refreshCredits(tx, accountId, billing.freeCredits);
    const row = await tx.accountBilling.findUniqueOrThrow({ where: { accountId }, select: { creditsGranted: true, creditsUsed: true } });
    // Requests admitted at the same moment can take `used` a little past `granted`: nothing is left then.
    return { granted: row.creditsGranted, used: row.creditsUsed, left: Math.max(0, row.creditsGranted - row.creditsUsed) };
  });
}

/** Longer than any billed request runs (a scrape's timeout is at most 300 s). */
const HOLD_SECONDS = 900;

/**
 * Hold one credit of the account for a request, or throw 402 when none is left; returns the hold's
 * id for `releaseCredit`.
 */
export async function holdCredit(deps: ApiDeps, billing: BillingSettings, accountId: string): Promise<string> {
  const id = randomUUID();
  const refused = await deps.prisma.$transaction(async (tx) => {
    await ensureBillingRow(tx, accountId, billing.freeCredits);
    await tx.$queryRaw`SELECT 1 FROM account_billing WHERE account_id = ${accountId} FOR UPDATE`;
    const left = (await refreshCredits(tx, accountId, billing.freeCredits))!;
    await tx.creditHold.deleteMany({ where: { accountId, expiresAt: { lte: new Date() } } });
    if (left - (await heldCredits(tx, accountId)) < 1) return tx.accountBilling.findUniqueOrThrow({ where: { accountId }, select: { creditsGranted: true, creditsUsed: true } });
    await tx.creditHold.create({ data: { id, accountId, expiresAt: new Date(Date.now() + HOLD_SECONDS * 1000) } });
    return undefined;
  });
  if (refused) throw new InsufficientCreditsError(refused.creditsUsed, refused.creditsGranted, `${deps.config.AUTH_URL.replace(/\/+$/, '')}/dashboard/billing`);
  return id;
}

export async function releaseCredit(deps: ApiDeps, holdId: string): Promise<void> {
  await deps.prisma.creditHold.deleteMany({ where: { id: holdId } });
}
