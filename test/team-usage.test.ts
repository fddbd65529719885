/**
 * The usage and queue endpoints (README "Usage and queue") against the real stack: pages scraped
 * and batch-scraped by two keys of one account, then the exact figures of credit usage (billing off
 * and on), history by month and by key, tokens counted by meterTokens, the queue and the
 * concurrency check, on v1 and v2; another account's key sees none of it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meterTokens } from '../prisma/usage.js';
import { NO_RATE_LIMITS } from '../scripts/infra/throwaway.js';
import type { FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { startTestApi, type TestApi } from './helpers/api.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { lastPageAt as lastPage, NO_LIMIT, usageAccount, usageMonth as month, type UsageKey as Key } from './helpers/usage.js';

const WORKER_CONCURRENCY = 3;
const FREE = 10;

let stack: TestStack;
let site: FixtureServer;
let billed: TestApi;

beforeAll(async () => {
  [stack, site] = await Promise.all([startTestStack({ WORKER_CONCURRENCY: String(WORKER_CONCURRENCY) }), startSite()]);
  // A second API, billing on, sharing the stack's worker (its task queue).
  billed = await startTestApi({
    env: {
      ALLOW_PRIVATE_ADDRESSES: 'true',
      ...NO_RATE_LIMITS,
      TEMPORAL_TASK_QUEUE: stack.api.deps.config.TEMPORAL_TASK_QUEUE,
      WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      BILLING_ACCESS_TOKEN: 'polar_oat_usage_test',
      BILLING_SUCCESS_URL: 'http://127.0.0.1:3000/dashboard/billing',
      BILLING_WEBHOOK_SECRET: 'usage-test-webhook-secret',
      BILLING_PLANS: 'prod_basic=50',
      BILLING_ENVIRONMENT: 'sandbox',
      BILLING_API_URL: 'http://127.0.0.1:1',
      BILLING_FREE_CREDITS: String(FREE),
    },
  });
}, 120_000);
afterAll(async () => {
  await Promise.all([stack?.close(), site?.close(), billed?.close()]);
});

const account = (keys: number) => usageAccount(stack.api.deps.prisma, keys);

async function call(method: string, path: string, key: string | undefined, body?: unknown, base = stack.api.url) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const get = (path: string, key: string | undefined, base?: string) => call('GET', path, key, undefined, base);

const thisMonth = month();
const today = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);

describe('billing off', () => {
  let a: { accountId: string; keys: Key[] };
  let b: { accountId: string; keys: Key[] };
  let batchId: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([account(2), account(1)]);
    const [a1, a2] = a.keys as [Key, Key];
    for (const path of ['/article', '/sjis']) expect((await call('POST', '/v1/scrape', a1.key, { url: `${site.url}${path}` })).status).toBe(200);
    const started = await call('POST', '/v1/batch/scrape', a2.key, { urls: ['/article', '/sjis', '/sjis-meta'].map((p) => `${site.url}${p}`) });
    expect(started.status).toBe(200);
    batchId = started.body.id as string;
    const done = await pollUntil(() => get(`/v1/batch/scrape/${batchId}`, a2.key), (r) => r.body.status !== 'scraping', 'batch ends');
    expect(done.body).toMatchObject({ status: 'completed', completed: 3, total: 3, creditsUsed: 3 });
  }, 120_000);

  it('credit usage: the month’s pages of every key of the account, no limit and no plan (v1 snake_case, v2 camelCase)', async () => {
    for (const k of a.keys) {
      expect(await get('/v1/team/credit-usage', k.key)).toEqual({
        status: 200,
        body: { success: true, data: { remaining_credits: NO_LIMIT, credits_used: 5, billing_period_start: thisMonth.startDate, billing_period_end: thisMonth.endDate } },
      });
      expect(await get('/v2/team/credit-usage', k.key)).toEqual({
        status: 200,
        body: { success: true, data: { remainingCredits: NO_LIMIT, creditsUsed: 5, billingPeriodStart: thisMonth.startDate, billingPeriodEnd: thisMonth.endDate } },
      });
    }
  });

  it('historical credit usage: per month, and with byApiKey per key (its prefix, never the key), most used first', async () => {
    const [a1, a2] = a.keys as [Key, Key];
    for (const v of ['v1', 'v2']) {
      expect(await get(`/${v}/team/credit-usage/historical`, a1.key)).toEqual({ status: 200, body: { success: true, periods: [{ ...thisMonth, creditsUsed: 5 }] } });
      expect(await get(`/${v}/team/credit-usage/historical?byApiKey=false`, a1.key)).toEqual({ status: 200, body: { success: true, periods: [{ ...thisMonth, creditsUsed: 5 }] } });
      const byKey = await get(`/${v}/team/credit-usage/historical?byApiKey=true`, a2.key);
      expect(byKey).toEqual({
        status: 200,
        body: {
          success: true,
          periods: [
            { ...thisMonth, apiKey: a2.prefix, creditsUsed: 3 },
            { ...thisMonth, apiKey: a1.prefix, creditsUsed: 2 },
          ],
        },
      });
      expect(JSON.stringify(byKey.body)).not.toContain(a1.key);
    }
  });

  it('counts from before per-key metering come in their month without apiKey, so a month’s periods add up; older than 12 months is left out', async () => {
    const r = await account(1);
    const [r1] = r.keys as [Key];
    const { prisma } = stack.api.deps;
    expect((await call('POST', '/v1/scrape', r1.key, { url: `${site.url}/article` })).status).toBe(200);
    const day = (back: number) => new Date(`${month(back).startDate.slice(0, 10)}T00:00:00Z`);
    await prisma.usageDay.createMany({ data: [{ accountId: r.accountId, day: day(2), pages: 7 }, { accountId: r.accountId, day: day(12), pages: 9 }] });
    await prisma.usageDay.update({ where: { accountId_day: { accountId: r.accountId, day: today() } }, data: { pages: { increment: 4 } } });
    expect((await get('/v1/team/credit-usage/historical', r1.key)).body).toEqual({ success: true, periods: [{ ...thisMonth, creditsUsed: 5 }, { ...month(2), creditsUsed: 7 }] });
    expect((await get('/v2/team/credit-usage/historical?byApiKey=true', r1.key)).body).toEqual({
      success: true,
      periods: [{ ...thisMonth, apiKey: r1.prefix, creditsUsed: 1 }, { ...thisMonth, creditsUsed: 4 }, { ...month(2), creditsUsed: 7 }],
    });
  });

  it('meterTokens counts tokens per account and key by API key id or by job; nothing without a key, nothing for 0, negative or fractional counts', async () => {
    const [a1, a2] = a.keys as [Key, Key];
    const { prisma } = stack.api.deps;
    await meterTokens(prisma, { apiKeyId: a1.id }, 1000);
    await prisma.$transaction((tx) => meterTokens(tx, { apiKeyId: a1.id }, 200));
    await meterTokens(prisma, { jobId: batchId }, 300);
    await meterTokens(prisma, { apiKeyId: undefined }, 50);
    await meterTokens(prisma, { jobId: randomUUID() }, 50);
    for (const odd of [0, -5, 2.5]) await meterTokens(prisma, { apiKeyId: a1.id }, odd);
    expect(await prisma.usageDay.findUniqueOrThrow({ where: { accountId_day: { accountId: a.accountId, day: today() } }, select: { pages: true, tokens: true } })).toEqual({ pages: 5, tokens: 1500n });
    const perKey = await prisma.usageKeyDay.findMany({ where: { apiKeyId: { in: [a1.id, a2.id] } }, select: { apiKeyId: true, pages: true, tokens: true }, orderBy: { tokens: 'desc' } });
    expect(perKey).toEqual([
      { apiKeyId: a1.id, pages: 2, tokens: 1200n },
      { apiKeyId: a2.id, pages: 3, tokens: 300n },
    ]);

    expect((await get('/v1/team/token-usage', a2.key)).body).toEqual({ success: true, data: { remaining_tokens: NO_LIMIT, tokens_used: 1500, billing_period_start: thisMonth.startDate, billing_period_end: thisMonth.endDate } });
    expect((await get('/v2/team/token-usage', a2.key)).body).toEqual({ success: true, data: { remainingTokens: NO_LIMIT, tokensUsed: 1500, billingPeriodStart: thisMonth.startDate, billingPeriodEnd: thisMonth.endDate } });
    for (const v of ['v1', 'v2']) {
      expect((await get(`/${v}/team/token-usage/historical`, a1.key)).body).toEqual({ success: true, periods: [{ ...thisMonth, tokensUsed: 1500 }] });
      expect((await get(`/${v}/team/token-usage/historical?byApiKey=true`, a1.key)).body).toEqual({
        success: true,
        periods: [
          { ...thisMonth, apiKey: a1.prefix, tokensUsed: 1200 },
          { ...thisMonth, apiKey: a2.prefix, tokensUsed: 300 },
        ],
      });
    }
    // Tokens are not credits.
    expect(((await get('/v2/team/credit-usage', a1.key)).body.data as { creditsUsed: number }).creditsUsed).toBe(5);
  });

  it('queue status and concurrency: the pages of the account’s running jobs, waiting and being fetched; the deployment’s capacity; the last page stored', async () => {
    const [a1, a2] = a.keys as [Key, Key];
    const { prisma } = stack.api.deps;
    const lastPageAt = await lastPage(prisma, a.accountId);
    const idle = { success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: WORKER_CONCURRENCY, mostRecentSuccess: lastPageAt };
    expect((await get('/v1/team/queue-status', a1.key)).body).toEqual(idle);
    expect(Date.now() - Date.parse(lastPageAt)).toBeLessThan(120_000);

    // Running jobs with known frontiers (no workflow drives them), one of each account, and one of A's already cancelled.
    const job = async (apiKeyId: string, status: string, urls: string[]) => {
      const id = randomUUID();
      await prisma.job.create({ data: { id, kind: 'batch_scrape', apiKeyId, url: `${site.url}/`, options: {}, status, expiresAt: new Date(Date.now() + 3_600_000) } });
      await prisma.jobUrl.createMany({ data: urls.map((s, i) => ({ jobId: id, urlKey: `k${i}`, url: `${site.url}/${i}`, depth: 0, discoveryDepth: 0, status: s })) });
      return id;
    };
    const made = [
      await job(a1.id, 'scraping', ['claimed', 'claimed', 'queued', 'queued', 'done', 'failed']),
      await job(a2.id, 'scraping', ['queued']),
      await job(a2.id, 'cancelled', ['queued', 'queued']),
      await job(b.keys[0]!.id, 'scraping', ['queued', 'queued', 'queued', 'claimed']),
    ];
    try {
      const busy = { success: true, jobsInQueue: 5, activeJobsInQueue: 2, waitingJobsInQueue: 3, maxConcurrency: WORKER_CONCURRENCY, mostRecentSuccess: lastPageAt };
      expect(await get('/v1/team/queue-status', a2.key)).toEqual({ status: 200, body: busy });
      expect(await get('/v2/team/queue-status', a1.key)).toEqual({ status: 200, body: busy });
      expect(await get('/v2/concurrency-check', a1.key)).toEqual({ status: 200, body: { success: true, concurrency: 2, maxConcurrency: WORKER_CONCURRENCY } });
      const other = b.keys[0]!.key;
      expect((await get('/v2/team/queue-status', other)).body).toEqual({ success: true, jobsInQueue: 4, activeJobsInQueue: 1, waitingJobsInQueue: 3, maxConcurrency: WORKER_CONCURRENCY, mostRecentSuccess: null });
      expect((await get('/v2/concurrency-check', other)).body).toEqual({ success: true, concurrency: 1, maxConcurrency: WORKER_CONCURRENCY });
    } finally {
      await prisma.job.deleteMany({ where: { id: { in: made } } });
    }
  });

  it('another account’s key sees none of it', async () => {
    const other = b.keys[0]!.key;
    expect((await get('/v1/team/credit-usage', other)).body).toEqual({ success: true, data: { remaining_credits: NO_LIMIT, credits_used: 0, billing_period_start: thisMonth.startDate, billing_period_end: thisMonth.endDate } });
    expect((await get('/v2/team/token-usage', other)).body).toEqual({ success: true, data: { remainingTokens: NO_LIMIT, tokensUsed: 0, billingPeriodStart: thisMonth.startDate, billingPeriodEnd: thisMonth.endDate } });
    for (const path of ['/v1/team/credit-usage/historical?byApiKey=true', '/v2/team/credit-usage/historical', '/v1/team/token-usage/historical', '/v2/team/token-usage/historical?byApiKey=true']) {
      expect([path, (await get(path, other)).body]).toEqual([path, { success: true, periods: [] }]);
    }
  });

  it('needs an API key (401 naming the header), and byApiKey must be a boolean (400)', async () => {
    for (const path of ['/v1/team/credit-usage', '/v2/team/token-usage/historical', '/v1/team/queue-status', '/v2/concurrency-check']) {
      expect([path, await get(path, undefined)]).toEqual([path, { status: 401, body: { success: false, code: 'unauthorized', error: 'Missing API key: send the header "Authorization: Bearer <API_KEY>".' } }]);
    }
    const bad = await get('/v2/team/credit-usage/historical?byApiKey=maybe', a.keys[0]!.key);
    expect(bad).toEqual({ status: 400, body: expect.objectContaining({ success: false, details: [{ field: 'query.byApiKey', message: 'must be boolean' }] }) });
  });
});

describe('billing on', () => {
  it('credits are the billing row’s: granted − used in its period; tokens over the same period, never limited', async () => {
    const c = await account(1);
    const [c1] = c.keys as [Key];
    for (const path of ['/article', '/sjis']) expect((await call('POST', '/v1/scrape', c1.key, { url: `${site.url}${path}` }, billed.url)).status).toBe(200);
    expect((await get('/v1/team/credit-usage', c1.key, billed.url)).body).toEqual({
      success: true,
      data: { remaining_credits: FREE - 2, plan_credits: FREE, credits_used: 2, billing_period_start: thisMonth.startDate, billing_period_end: thisMonth.endDate },
    });

    // A subscription's period, as a webhook would have set it (test/billing.test.ts drives those).
    const periodStart = new Date(Date.now() - 86_400_000);
    const periodEnd = new Date(periodStart.getTime() + 30 * 86_400_000);
    await billed.deps.prisma.accountBilling.update({ where: { accountId: c.accountId }, data: { status: 'active', productId: 'prod_basic', creditsGranted: 50, periodStart, periodEnd } });
    await meterTokens(billed.deps.prisma, { apiKeyId: c1.id }, 40);
    const period = { billingPeriodStart: periodStart.toISOString(), billingPeriodEnd: periodEnd.toISOString() };
    expect((await get('/v2/team/credit-usage', c1.key, billed.url)).body).toEqual({ success: true, data: { remainingCredits: 48, planCredits: 50, creditsUsed: 2, ...period } });
    expect((await get('/v2/team/token-usage', c1.key, billed.url)).body).toEqual({ success: true, data: { remainingTokens: NO_LIMIT, tokensUsed: 40, ...period } });

    // Used past the plan (requests admitted at the same moment): nothing left, never negative.
    await billed.deps.prisma.accountBilling.update({ where: { accountId: c.accountId }, data: { creditsUsed: 53 } });
    expect((await get('/v1/team/credit-usage', c1.key, billed.url)).body).toEqual({
      success: true,
      data: { remaining_credits: 0, plan_credits: 50, credits_used: 53, billing_period_start: period.billingPeriodStart, billing_period_end: period.billingPeriodEnd },
    });
  });
});
