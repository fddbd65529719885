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
  await tx.$executeRaw`
    INSERT INTO usage_day (account_id, day, pages)
    SELECT k.account_id, (now() AT TIME ZONE 'UTC')::date, ${pages} FROM crawl c JOIN api_key k ON k.id = c.api_key_id WHERE c.id = ${crawlId}
    ON CONFLICT (account_id, day) DO UPDATE SET pages = usage_day.pages + EXCLUDED.pages`;
}

/** Count one page for the account of the key (a scrape). */
export async function meterKeyPage(tx: Tx, apiKeyId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO usage_day (account_id, day, pages)
    SELECT k.account_id, (now() AT TIME ZONE 'UTC')::date, 1 FROM api_key k WHERE k.id = ${apiKeyId}
    ON CONFLICT (account_id, day) DO UPDATE SET pages = usage_day.pages + EXCLUDED.pages`;
}
