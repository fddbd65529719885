/**
 * The 402 gate: with billing on, a request that starts billed work (a route declared `billed`) is
 * refused when its account has no credits left for the period. Callers paying per request (x402)
 * are outside plans. Pages are counted where they are stored (activities/usage.ts); a running crawl
 * stops at zero there (activities/crawl/store.ts).
 */
import type { BillingSettings } from '../../core/billing-settings.js';
import { InsufficientCreditsError } from '../../core/errors.js';
import { ensureBillingRow, refreshCredits } from '../../prisma/billing.js';
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

export async function requireCredits(deps: ApiDeps, billing: BillingSettings, accountId: string): Promise<void> {
  const credits = await accountCredits(deps, billing, accountId);
  if (credits.left <= 0) throw new InsufficientCreditsError(credits.used, credits.granted, `${deps.config.AUTH_URL.replace(/\/+$/, '')}/dashboard/billing`);
}
