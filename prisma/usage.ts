/**
 * Usage metering: pages stored per account and UTC day (usage_day), and with billing on the
 * period's credits (account_billing), counted in the statement or transaction that stores the
 * pages, so a retried store can neither lose nor double a count. Callers paying per request (x402)
 * have no account and are not metered here.
 */
import { Prisma } from './client.js';

type Tx = Prisma.TransactionClient;

/**
 * The metering, as common table expressions over a relation `owner(account_id)` defined before
 * them in the same WITH: the one place usage and credits are counted.
 */
export const meteringCtes = (pages: number) => Prisma.sql`
  usage AS (
    INSERT INTO usage_day (account_id, day, pages) SELECT account_id, (now() AT TIME ZONE 'UTC')::date, ${pages} FROM owner
    ON CONFLICT (account_id, day) DO UPDATE SET pages = usage_day.pages + EXCLUDED.pages RETURNING 1),
  credits AS (UPDATE account_billing SET credits_used = credits_used + ${pages} WHERE account_id IN (SELECT account_id FROM owner) RETURNING 1)`;

/** Count `pages` for the account of the crawl's (or batch's) key. */
export async function meterCrawlPages(tx: Tx, crawlId: string, pages: number): Promise<void> {
  if (pages <= 0) return;
  await tx.$executeRaw`
    WITH owner AS (SELECT k.account_id FROM job c JOIN api_key k ON k.id = c.api_key_id WHERE c.id = ${crawlId}),
    ${meteringCtes(pages)}
    SELECT 1`;
}

/** Count `pages` for the account of an API key: work the API does itself (a search). */
export async function meterKeyPages(db: Pick<Tx, '$executeRaw'>, apiKeyId: string, pages: number): Promise<void> {
  if (pages <= 0) return;
  await db.$executeRaw`
    WITH owner AS (SELECT account_id FROM api_key WHERE id = ${apiKeyId}),
    ${meteringCtes(pages)}
    SELECT 1`;
}
