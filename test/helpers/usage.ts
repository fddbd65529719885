/**
 * For the usage and queue endpoints' tests (test/team-usage.test.ts and the SDK contract tests): a
 * fresh account with keys, so its figures are exact whatever else the shared database holds, and the
 * month and "no limit" values the answers carry (README "Usage and queue").
 */
import { createKey } from '../../api/keys-store.js';
import type { PrismaClient } from '../../prisma/client.js';
import { newAccount } from './dashboard.js';
import { TEST_PEPPER } from './env.js';

/** `remaining_credits` with billing off, and `remaining_tokens` always: Number.MAX_SAFE_INTEGER. */
export const NO_LIMIT = 9007199254740991;

export type UsageKey = { id: string; key: string; prefix: string };

export async function usageAccount(prisma: PrismaClient, keys = 1): Promise<{ accountId: string; keys: UsageKey[] }> {
  const { accountId } = await newAccount(prisma);
  const made: UsageKey[] = [];
  for (let i = 0; i < keys; i++) made.push(await createKey(prisma, `usage-${i}`, TEST_PEPPER, accountId));
  return { accountId, keys: made };
}

/** The UTC calendar month `back` months before the current one, as the historical periods write it. */
export function usageMonth(back = 0): { startDate: string; endDate: string } {
  const now = new Date();
  return {
    startDate: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString(),
    endDate: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 1)).toISOString(),
  };
}

/** When the account last stored a page today (what queue status reports as mostRecentSuccess). */
export async function lastPageAt(prisma: PrismaClient, accountId: string): Promise<string> {
  const day = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  return (await prisma.usageDay.findUniqueOrThrow({ where: { accountId_day: { accountId, day } } })).lastPageAt!.toISOString();
}
