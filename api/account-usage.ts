/**
 * What the team usage and queue endpoints report (README "Usage and queue"), read from what is
 * metered (usage_day, usage_key_day, account_billing) and from the job tables, for one account: every
 * key of it. One page stored is one credit; LLM tokens are counted but never charged.
 */
import { billingSettings } from '../core/billing-settings.js';
import { Prisma } from '../prisma/client.js';
import { accountCredits } from './billing/credits.js';
import type { ApiDeps } from './deps.js';

/**
 * "No limit", where the clients need a number (their `remainingCredits` / `remaining_tokens` are
 * required integers): the largest integer a JSON number carries exactly. Sent for credits with
 * billing off, and for tokens always (there is no token plan).
 */
export const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** Historical answers cover the current calendar month and the 11 before it. */
export const HISTORY_MONTHS = 12;

export interface Period {
  start: Date;
  /** Exclusive. */
  end: Date;
}

export interface CurrentUsage {
  remaining: number;
  /** The period's plan: credits granted with billing on; absent without a plan. */
  plan?: number;
  used: number;
  period: Period;
}

export type Metered = 'pages' | 'tokens';

/** The UTC calendar month `monthsBack` months before the one `at` is in. */
export function calendarMonth(at: Date, monthsBack = 0): Period {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() - monthsBack;
  return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
}

/** A day as PostgreSQL takes it whatever the session's time zone: `2026-11-01`. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** `pages` or `tokens` of the account over the whole UTC days from the period's start to its end. */
async function usedIn(deps: ApiDeps, accountId: string, what: Metered, period: Period): Promise<number> {
  const rows = await deps.prisma.$queryRaw<{ used: bigint | null }[]>`
    SELECT sum(${Prisma.raw(what)})::bigint AS used FROM usage_day
    WHERE account_id = ${accountId} AND day >= ${utcDay(period.start)}::date AND day < ${utcDay(period.end)}::date`;
  return Number(rows[0]?.used ?? 0);
}

/**
 * The account's credits now. Billing on: its billing row's period (rolled over if due), remaining =
 * granted − used (never below 0). Billing off: nothing is limited; the current UTC month's pages.
 */
export async function creditUsage(deps: ApiDeps, accountId: string): Promise<CurrentUsage> {
  const billing = billingSettings(deps.config);
  if (!billing) {
    const period = calendarMonth(new Date());
    return { remaining: NO_LIMIT, used: await usedIn(deps, accountId, 'pages', period), period };
  }
  const credits = await accountCredits(deps, billing, accountId);
  const row = await deps.prisma.accountBilling.findUniqueOrThrow({ where: { accountId }, select: { periodStart: true, periodEnd: true } });
  return { remaining: credits.left, plan: credits.granted, used: credits.used, period: { start: row.periodStart, end: row.periodEnd } };
}

/** The account's LLM tokens in the credits' period (billing on) or the current UTC month; there is no token plan. */
export async function tokenUsage(deps: ApiDeps, accountId: string): Promise<CurrentUsage> {
  const { period } = await creditUsage(deps, accountId);
  return { remaining: NO_LIMIT, used: await usedIn(deps, accountId, 'tokens', period), period };
}

export interface HistoricalPeriod {
  startDate: string;
  endDate: string;
  /** The key's prefix (never the key); absent for the account as a whole, or for counts from before per-key metering. */
  apiKey?: string;
  used: number;
}

/**
 * Use per calendar month (UTC), newest first, months without any left out. `byApiKey`: one entry per
 * key and month (most used first), from usage_key_day; what the account counted in a month beyond
 * its keys' sum (pages stored before per-key metering began) comes last, without `apiKey`.
 */
export async function historicalUsage(deps: ApiDeps, accountId: string, what: Metered, byApiKey: boolean): Promise<HistoricalPeriod[]> {
  const since = utcDay(calendarMonth(new Date(), HISTORY_MONTHS - 1).start);
  const column = Prisma.raw(what);
  const months = await deps.prisma.$queryRaw<{ month: Date; used: bigint }[]>`
    SELECT date_trunc('month', day)::date AS month, sum(${column})::bigint AS used FROM usage_day
    WHERE account_id = ${accountId} AND day >= ${since}::date
    GROUP BY 1 HAVING sum(${column}) > 0 ORDER BY 1 DESC`;
  const dates = (month: Date) => {
    const { start, end } = calendarMonth(month);
    return { startDate: start.toISOString(), endDate: end.toISOString() };
  };
  if (!byApiKey) return months.map((m) => ({ ...dates(m.month), used: Number(m.used) }));
  const keys = await deps.prisma.$queryRaw<{ month: Date; prefix: string; used: bigint }[]>`
    SELECT date_trunc('month', u.day)::date AS month, k.prefix, sum(u.${column})::bigint AS used
    FROM usage_key_day u JOIN api_key k ON k.id = u.api_key_id
    WHERE k.account_id = ${accountId} AND u.day >= ${since}::date
    GROUP BY 1, k.id, k.prefix HAVING sum(u.${column}) > 0 ORDER BY 1 DESC, 3 DESC, 2`;
  return months.flatMap((m) => {
    const mine = keys.filter((k) => k.month.getTime() === m.month.getTime()).map((k) => ({ ...dates(m.month), apiKey: k.prefix, used: Number(k.used) }));
    const rest = Number(m.used) - mine.reduce((n, k) => n + k.used, 0);
    return rest > 0 ? [...mine, { ...dates(m.month), used: rest }] : mine;
  });
}

export interface QueueStatus {
  /** Pages of the account's running crawls and batch scrapes waiting for a lane. */
  waiting: number;
  /** Pages of them being fetched now (claimed by a lane). */
  active: number;
  /** When the account last stored a page, within the last 24 hours. */
  mostRecentSuccess: Date | null;
}

export async function queueStatus(deps: ApiDeps, accountId: string): Promise<QueueStatus> {
  const [counts, recent] = await Promise.all([
    deps.prisma.$queryRaw<{ active: number; waiting: number }[]>`
      SELECT count(*) FILTER (WHERE u.status = 'claimed')::int AS active, count(*) FILTER (WHERE u.status = 'queued')::int AS waiting
      FROM job j JOIN api_key k ON k.id = j.api_key_id JOIN job_url u ON u.job_id = j.id
      WHERE k.account_id = ${accountId} AND j.status = 'scraping' AND u.status IN ('queued', 'claimed')`,
    deps.prisma.$queryRaw<{ at: Date | null }[]>`
      SELECT max(last_page_at) AS at FROM usage_day
      WHERE account_id = ${accountId} AND day >= (now() AT TIME ZONE 'UTC' - interval '1 day')::date AND last_page_at > now() - interval '24 hours'`,
  ]);
  return { active: counts[0]?.active ?? 0, waiting: counts[0]?.waiting ?? 0, mostRecentSuccess: recent[0]?.at ?? null };
}

/**
 * Pages the deployment fetches at once: WORKER_CONCURRENCY (as the API is configured: set it alike on
 * API and workers) times the workers serving now. Shared by all accounts: there is no per-account cap.
 */
export async function maxConcurrency(deps: ApiDeps): Promise<number> {
  return deps.config.WORKER_CONCURRENCY * (await deps.scrapeWorkers.liveCount());
}
