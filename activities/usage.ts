/**
 * Usage metering: pages stored per account and UTC day (usage_day), counted inside the transaction
 * that stores them, so a retried store can neither lose nor double a count. Callers paying per
 * request (x402) have no account and are not metered here.
 */
import type { Prisma } from '../prisma/client.js';

type Tx = Prisma.TransactionClient;

/** Count `pages` for the account of the crawl's (or batch's) key. */
export async function meterCrawlPages(tx: Tx, crawlId: string, pages: number): Promise<void> {
  if (pages <= 0) return;
  const owner = await tx.$queryRaw<{ account_id: string }[]>`SELECT k.account_id FROM crawl c JOIN api_key k ON k.id = c.api_key_id WHERE c.id = ${crawlId}`;
  if (owner[0]) await meter(tx, owner[0].account_id, pages);
}

/** Count one page for the account of the key (a scrape, a map). */
export async function meterKeyPage(tx: Tx, apiKeyId: string): Promise<void> {
  const owner = await tx.$queryRaw<{ account_id: string }[]>`SELECT account_id FROM api_key WHERE id = ${apiKeyId}`;
  if (owner[0]) await meter(tx, owner[0].account_id, 1);
}

/** The day's usage, and the billing period's credits when the account is billed (billing on). */
async function meter(tx: Tx, accountId: string, pages: number): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO usage_day (account_id, day, pages) VALUES (${accountId}, (now() AT TIME ZONE 'UTC')::date, ${pages})
    ON CONFLICT (account_id, day) DO UPDATE SET pages = usage_day.pages + EXCLUDED.pages`;
  await tx.$executeRaw`UPDATE account_billing SET credits_used = credits_used + ${pages} WHERE account_id = ${accountId}`;
}
