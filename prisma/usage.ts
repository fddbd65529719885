/**
 * Usage metering: pages stored and LLM tokens used per account and UTC day (usage_day) and per API
 * key and day (usage_key_day), and with billing on the period's credits (account_billing), counted
 * in the statement or transaction that stores the pages, so a retried store can neither lose nor
 * double a count. Callers paying per request (x402) have no account and are not metered here.
 */
import { Prisma, type PrismaClient } from './client.js';

type Tx = Prisma.TransactionClient;

const today = Prisma.sql`(now() AT TIME ZONE 'UTC')::date`;

/**
 * The metering, as common table expressions over a relation `owner(account_id, api_key_id, pages)`
 * defined before them in the same WITH: the one place usage and credits are counted. One page is one
 * credit. Owners may repeat (a store of several crawls): each account's and key's pages are summed,
 * and their rows are written in order of id, so that two such statements lock them in the same order.
 */
export const meteringCtes = Prisma.sql`
  usage AS (
    INSERT INTO usage_day (account_id, day, pages, last_page_at) SELECT account_id, ${today}, sum(pages)::int, now() FROM owner GROUP BY account_id ORDER BY account_id
    ON CONFLICT (account_id, day) DO UPDATE SET pages = usage_day.pages + EXCLUDED.pages, last_page_at = EXCLUDED.last_page_at RETURNING 1),
  key_usage AS (
    INSERT INTO usage_key_day (api_key_id, day, pages) SELECT api_key_id, ${today}, sum(pages)::int FROM owner GROUP BY api_key_id ORDER BY api_key_id
    ON CONFLICT (api_key_id, day) DO UPDATE SET pages = usage_key_day.pages + EXCLUDED.pages RETURNING 1),
  credits AS (
    UPDATE account_billing b SET credits_used = b.credits_used + o.pages
    FROM (SELECT account_id, sum(pages)::int AS pages FROM owner GROUP BY account_id) o WHERE b.account_id = o.account_id RETURNING 1)`;

/** Count `pages` for the account of an API key: work the API does itself (a search). */
export async function meterKeyPages(db: Pick<Tx, '$executeRaw'>, apiKeyId: string, pages: number): Promise<void> {
  if (pages <= 0) return;
  await db.$executeRaw`
    WITH owner AS (SELECT account_id, id AS api_key_id, ${pages}::int AS pages FROM api_key WHERE id = ${apiKeyId}),
    ${meteringCtes}
    SELECT 1`;
}

/** Whose tokens: the API key of a request (a scrape), or the job (crawl, batch scrape) whose key it is. */
export type TokenOwner = { apiKeyId: string | undefined } | { jobId: string };

/**
 * Count LLM `tokens` (prompt plus completion, as the endpoint reported them) for the owner's account
 * and key today. Tokens are not credits: billing does not charge them. Nothing is counted for a job
 * or request without a key (x402). Not idempotent: call it once per LLM call, in the transaction that
 * records the call's result when there is one.
 */
export async function meterTokens(db: Tx | PrismaClient, owner: TokenOwner, tokens: number): Promise<void> {
  if (!Number.isSafeInteger(tokens) || tokens <= 0) return;
  const key =
    'jobId' in owner
      ? Prisma.sql`SELECT k.account_id, k.id AS api_key_id FROM job c JOIN api_key k ON k.id = c.api_key_id WHERE c.id = ${owner.jobId}`
      : Prisma.sql`SELECT account_id, id AS api_key_id FROM api_key WHERE id = ${owner.apiKeyId ?? null}`;
  await db.$executeRaw`
    WITH owner AS (${key}),
    usage AS (
      INSERT INTO usage_day (account_id, day, tokens) SELECT account_id, ${today}, ${tokens} FROM owner
      ON CONFLICT (account_id, day) DO UPDATE SET tokens = usage_day.tokens + EXCLUDED.tokens RETURNING 1),
    key_usage AS (
      INSERT INTO usage_key_day (api_key_id, day, tokens) SELECT api_key_id, ${today}, ${tokens} FROM owner
      ON CONFLICT (api_key_id, day) DO UPDATE SET tokens = usage_key_day.tokens + EXCLUDED.tokens RETURNING 1)
    SELECT 1`;
}
