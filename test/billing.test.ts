/**
 * Subscription billing against the real stack, with the real Polar SDK pointed at a local server
 * that speaks Polar's wire format and signs its webhooks (test/fixtures/polar.ts): checkout, then
 * webhook, then credits; usage consuming them and the 402 at zero; a crawl stopping cleanly at
 * zero; renewal; cancel then revoke; bad signatures, replays and events out of order; and with
 * billing off, no 402 ever.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { loadConfig } from '../core/config.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { POLAR_TOKEN, POLAR_WEBHOOK_SECRET, renewalOrder, startFakePolar, subscription, type FakePolar } from './fixtures/polar.js';
import type { FixtureServer } from './fixtures/server.js';
import { freePort } from '../scripts/infra/ready.js';
import { startSite } from './fixtures/site.js';
import { newAccount, signIn, type DashboardClient } from './helpers/dashboard.js';
import { testEnv, TEST_PEPPER } from './helpers/env.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const FREE = 2;
const DAY = 86_400_000;

let polar: FakePolar;
let stack: TestStack;
let site: FixtureServer;
let tree: FixtureServer;

const billingEnv = (polarUrl: string) => ({
  BILLING_ACCESS_TOKEN: POLAR_TOKEN,
  BILLING_SUCCESS_URL: 'http://127.0.0.1:3000/dashboard/billing',
  BILLING_WEBHOOK_SECRET: POLAR_WEBHOOK_SECRET,
  BILLING_PLANS: 'prod_basic=5,prod_pro=50',
  BILLING_ENVIRONMENT: 'sandbox',
  BILLING_API_URL: polarUrl,
  BILLING_FREE_CREDITS: String(FREE),
});

beforeAll(async () => {
  polar = await startFakePolar();
  [stack, site, tree] = await Promise.all([startTestStack(billingEnv(polar.url)), startSite(), startCrawlSite(treeSite(30))]);
}, 120_000);
afterAll(async () => {
  await Promise.all([stack?.close(), site?.close(), tree?.close(), polar?.close()]);
});

/** A new account with an admin signed in and an API key. */
async function team(): Promise<{ accountId: string; admin: DashboardClient; key: string }> {
  const { accountId, email } = await newAccount(stack.api.deps.prisma);
  const admin = await signIn(stack.api.url, email);
  const { key } = await createKey(stack.api.deps.prisma, 'billing', TEST_PEPPER, accountId);
  return { accountId, admin, key };
}

const hook = (type: string, data: object, options?: { id?: string; secret?: string }) => polar.send(`${stack.api.url}/billing/webhook`, type, data, options);
const billing = async (admin: DashboardClient) => (await admin.call('GET', '/billing')).body;

function period(startOffsetDays = 0) {
  const start = new Date(Date.now() + startOffsetDays * DAY - DAY);
  return { periodStart: start, periodEnd: new Date(start.getTime() + 30 * DAY) };
}

describe('settings', () => {
  it('refuses to start with a billing token but without what billing needs, naming each variable', () => {
    expect(() => loadConfig('api', { env: testEnv({ BILLING_ACCESS_TOKEN: POLAR_TOKEN }) })).toThrow(
      /BILLING_SUCCESS_URL is required when BILLING_ACCESS_TOKEN is set[\s\S]*BILLING_WEBHOOK_SECRET is required[\s\S]*BILLING_PLANS is required[\s\S]*BILLING_ENVIRONMENT is required/,
    );
    expect(() => loadConfig('api', { env: testEnv({ ...billingEnv('http://127.0.0.1:1'), BILLING_PLANS: 'prod_basic=lots' }) })).toThrow(/^Invalid configuration:\n  BILLING_PLANS="prod_basic=lots" is invalid: has the wrong format\. [^\n]*$/);
  });
});

describe('billing on', () => {
  it('documents the 402 on the operations that start billed work', async () => {
    const doc = (await (await fetch(`${stack.api.url}/api-reference`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    for (const [path, method] of [['/v1/scrape', 'post'], ['/v1/crawl', 'post'], ['/v1/batch/scrape', 'post'], ['/v1/map', 'post'], ['/v2/scrape', 'post'], ['/v2/crawl', 'post'], ['/v2/batch/scrape', 'post'], ['/v2/map', 'post'], ['/v2/monitor', 'post'], ['/v2/monitor/{id}/run', 'post']] as const) {
      expect([path, doc.paths[path]![method]!.responses['402']?.description]).toEqual([path, expect.stringContaining('insufficient_credits')]);
    }
    expect(doc.paths['/v1/crawl/{id}']!.get!.responses['402']).toBeUndefined();
  });

  it('checkout through the SDK, then the webhook, then the plan’s credits', async () => {
    const { accountId, admin } = await team();
    expect(await billing(admin)).toMatchObject({ enabled: true, status: 'free', planName: null, credits: { granted: FREE, used: 0, left: FREE }, hasSubscription: false, plans: [{ productId: 'prod_basic', monthlyCredits: 5 }, { productId: 'prod_pro', monthlyCredits: 50 }] });
    const checkout = await admin.call('POST', '/billing/checkout', { productId: 'prod_basic' });
    expect(checkout.status).toBe(200);
    const made = polar.checkouts.at(-1)!;
    expect(made).toMatchObject({ products: ['prod_basic'], success_url: 'http://127.0.0.1:3000/dashboard/billing', external_customer_id: accountId });
    expect(checkout.body).toEqual({ url: `${polar.url}/checkout/${made.id}` });
    const unknown = await admin.call('POST', '/billing/checkout', { productId: 'prod_nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ details: [{ field: 'productId' }] });

    const sub = { id: `sub_${randomUUID()}`, accountId, productId: 'prod_basic', ...period(), modifiedAt: new Date() };
    expect((await hook('subscription.created', subscription({ ...sub, status: 'incomplete' }))).status).toBe(202);
    expect(await billing(admin)).toMatchObject({ status: 'free', credits: { granted: FREE } });
    expect((await hook('subscription.active', subscription({ ...sub, modifiedAt: new Date(Date.now() + 1000) }))).status).toBe(202);
    expect(await billing(admin)).toMatchObject({ status: 'active', planName: 'Basic', credits: { granted: 5, used: 0, left: 5 }, periodEnd: sub.periodEnd.toISOString(), cancelAtPeriodEnd: false, hasSubscription: true });
    const portal = await admin.call('POST', '/billing/portal', {});
    expect(portal.body).toEqual({ url: `${polar.url}/portal/${accountId}` });
  });

  it('members see the plan but cannot change it', async () => {
    const { accountId, admin } = await team();
    const invite = await admin.call('POST', '/team/invites', { role: 'member' });
    const token = (invite.body.url as string).split('/').at(-1)!;
    const email = `member-${randomUUID().slice(0, 8)}@example.test`;
    await fetch(`${stack.api.url}/dashboard/api/invites/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, email, password: 'correct horse battery staple' }) });
    const member = await signIn(stack.api.url, email);
    expect((await member.call('GET', '/billing')).body).toMatchObject({ enabled: true, status: 'free' });
    for (const path of ['/billing/checkout', '/billing/portal']) {
      const res = await member.call('POST', path, path.endsWith('checkout') ? { productId: 'prod_basic' } : {});
      expect(res.status).toBe(403);
    }
    expect(polar.checkouts.filter((c) => c.external_customer_id === accountId)).toEqual([]);
  });

  it('usage consumes credits; at zero, scrape, crawl, batch scrape and map (v1 and v2) get 402 insufficient_credits', async () => {
    const { admin, key } = await team();
    for (let i = 0; i < FREE; i++) expect((await stack.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key)).status).toBe(200);
    expect(await billing(admin)).toMatchObject({ credits: { granted: FREE, used: FREE, left: 0 } });
    const attempts: [string, unknown][] = [
      ['/v1/scrape', { url: `${site.url}/article` }],
      ['/v1/crawl', { url: `${site.url}/article` }],
      ['/v1/batch/scrape', { urls: [`${site.url}/article`] }],
      ['/v1/map', { url: `${site.url}/article` }],
      ['/v2/scrape', { url: `${site.url}/article` }],
      ['/v2/crawl', { url: `${site.url}/article` }],
      ['/v2/batch/scrape', { urls: [`${site.url}/article`] }],
      ['/v2/map', { url: `${site.url}/article` }],
    ];
    for (const [path, body] of attempts) {
      const res = await stack.call('POST', path, body, key);
      expect([path, res.status, res.body.code]).toEqual([path, 402, 'insufficient_credits']);
      expect(res.body.error).toBe(`This account has no credits left for this period (2 of 2 used). An admin can upgrade the plan at ${stack.api.url}/dashboard/billing; credits also renew with the next period.`);
    }
    // Reading what exists is not billed.
    expect((await stack.call('GET', `/v1/crawl/${randomUUID()}`, undefined, key)).status).toBe(404);
  });

  it('20 concurrent scrapes at 5 credits left: exactly 5 run, 15 get 402, and used never passes granted', async () => {
    const { accountId, admin, key } = await team();
    await hook('subscription.active', subscription({ id: `sub_${randomUUID()}`, accountId, productId: 'prod_basic', ...period(), modifiedAt: new Date() }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => stack.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key)));
    const statuses = answers.map((a) => a.status);
    expect([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 402).length]).toEqual([5, 15]);
    expect(await billing(admin)).toMatchObject({ credits: { granted: 5, used: 5, left: 0 } });
    expect(await stack.api.deps.prisma.creditHold.count({ where: { accountId } })).toBe(0);
  });

  it('a scrape that fails gives its held credit back', async () => {
    const { accountId, admin, key } = await team();
    // Time enough for the browser fallback on a loaded machine: a 408 here would be a timeout, not the failure under test.
    const unreachable = await stack.call('POST', '/v1/scrape', { url: `http://127.0.0.1:${await freePort()}/nothing`, timeout: 30000 }, key);
    expect([unreachable.status, unreachable.body.code]).toEqual([502, 'scrape_failed']);
    expect(await billing(admin)).toMatchObject({ credits: { granted: FREE, used: 0, left: FREE } });
    expect(await stack.api.deps.prisma.creditHold.count({ where: { accountId } })).toBe(0);
  });

  it('a map costs one credit', async () => {
    const { admin, key } = await team();
    expect((await stack.call('POST', '/v1/map', { url: `${site.url}/article` }, key)).status).toBe(200);
    expect(await billing(admin)).toMatchObject({ credits: { used: 1, left: FREE - 1 } });
  });

  it('a crawl running into zero credits stops cleanly, as if its limit were reached, and says why', async () => {
    const { accountId, admin, key } = await team();
    await hook('subscription.active', subscription({ id: `sub_${randomUUID()}`, accountId, productId: 'prod_basic', ...period(), modifiedAt: new Date() }));
    const started = await stack.call('POST', '/v1/crawl', { url: `${tree.url}/`, limit: 30 }, key);
    expect(started.status).toBe(200);
    const id = started.body.id as string;
    const done = await pollUntil(() => stack.call('GET', `/v1/crawl/${id}`, undefined, key), (r) => r.body.status !== 'scraping', 'crawl ends');
    expect(done.body).toMatchObject({ status: 'completed', completed: 5, total: 5, creditsUsed: 5, failed: 0, error: "Stopped early: the account has no credits left. An admin can upgrade the plan on the dashboard's Billing page." });
    expect((done.body.data as unknown[]).length).toBe(5);
    expect((done.body.skipped as Record<string, number>).credits_exhausted).toBeGreaterThan(0);
    expect(await stack.api.deps.prisma.jobUrl.count({ where: { jobId: id, status: { in: ['queued', 'claimed'] } } })).toBe(0);
    expect(await billing(admin)).toMatchObject({ credits: { granted: 5, used: 5, left: 0 } });
  });

  it('a renewal resets the credits; replaying it changes nothing', async () => {
    const { accountId, admin, key } = await team();
    const first = period();
    const sub = { id: `sub_${randomUUID()}`, accountId, productId: 'prod_basic', ...first, modifiedAt: new Date() };
    await hook('subscription.active', subscription(sub));
    expect((await stack.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key)).status).toBe(200);
    expect(await billing(admin)).toMatchObject({ credits: { used: 1, left: 4 } });
    const next = { periodStart: first.periodEnd, periodEnd: new Date(first.periodEnd.getTime() + 30 * DAY) };
    const id = `msg_${randomUUID()}`;
    expect((await hook('order.paid', renewalOrder({ accountId, subscriptionId: sub.id, ...next }), { id })).status).toBe(202);
    expect(await billing(admin)).toMatchObject({ status: 'active', credits: { granted: 5, used: 0, left: 5 }, periodEnd: next.periodEnd.toISOString() });
    expect((await stack.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key)).status).toBe(200);
    const replay = await hook('order.paid', renewalOrder({ accountId, subscriptionId: sub.id, ...next }), { id });
    expect(replay).toEqual({ status: 200, body: { success: true, replay: true } });
    expect(await billing(admin)).toMatchObject({ credits: { used: 1, left: 4 } });
    expect(await stack.api.deps.prisma.billingEvent.count({ where: { id } })).toBe(1);
  });

  it('canceled keeps the plan to the period’s end; revoked ends it now (back to the free allowance)', async () => {
    const { accountId, admin } = await team();
    const sub = { id: `sub_${randomUUID()}`, accountId, productId: 'prod_pro', ...period() };
    await hook('subscription.active', subscription({ ...sub, modifiedAt: new Date(Date.now() - 2000) }));
    await hook('subscription.canceled', subscription({ ...sub, cancelAtPeriodEnd: true, modifiedAt: new Date(Date.now() - 1000) }));
    expect(await billing(admin)).toMatchObject({ status: 'canceled', planName: 'Pro', cancelAtPeriodEnd: true, credits: { granted: 50, left: 50 }, periodEnd: sub.periodEnd.toISOString() });
    await hook('subscription.revoked', subscription({ ...sub, status: 'canceled', cancelAtPeriodEnd: true, modifiedAt: new Date() }));
    expect(await billing(admin)).toMatchObject({ status: 'free', planName: null, credits: { granted: FREE, used: 0, left: FREE } });
  });

  it('a subscription whose period ended without renewal falls back to the free allowance', async () => {
    const { accountId, admin } = await team();
    const ended = { periodStart: new Date(Date.now() - 40 * DAY), periodEnd: new Date(Date.now() - 10 * DAY) };
    await hook('subscription.past_due', subscription({ id: `sub_${randomUUID()}`, accountId, productId: 'prod_pro', status: 'past_due', ...ended, modifiedAt: new Date() }));
    expect(await billing(admin)).toMatchObject({ status: 'free', credits: { granted: FREE, used: 0 } });
  });

  it('refuses a bad signature and records nothing; events out of order end in the right state', async () => {
    const { accountId, admin } = await team();
    const sub = { id: `sub_${randomUUID()}`, accountId, productId: 'prod_pro', ...period() };
    const forged = await hook('subscription.active', subscription({ ...sub, modifiedAt: new Date() }), { secret: `whsec_${Buffer.from('not the secret').toString('base64')}` });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ success: false, code: 'invalid_signature' });
    expect(await stack.api.deps.prisma.billingEvent.count({ where: { accountId } })).toBe(0);
    expect(await billing(admin)).toMatchObject({ status: 'free' });
    // The cancellation (newer) arrives before the activation (older): the older one is recorded, not applied.
    await hook('subscription.canceled', subscription({ ...sub, cancelAtPeriodEnd: true, modifiedAt: new Date(Date.now() + 5000) }));
    const late = await hook('subscription.active', subscription({ ...sub, modifiedAt: new Date() }));
    expect(late.status).toBe(202);
    expect(await billing(admin)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true, credits: { granted: 50 } });
    const outcomes = await stack.api.deps.prisma.billingEvent.findMany({ where: { accountId }, orderBy: { receivedAt: 'asc' }, select: { type: true, outcome: true } });
    expect(outcomes).toEqual([{ type: 'subscription.canceled', outcome: 'applied' }, { type: 'subscription.active', outcome: 'ignored' }]);
  });
});

describe('billing off', () => {
  it('never answers 402 for credits and never stops a crawl, even for an account billed before', async () => {
    const plain = await startTestStack();
    try {
      const { accountId, email } = await newAccount(plain.api.deps.prisma);
      const { key } = await createKey(plain.api.deps.prisma, 'no-billing', TEST_PEPPER, accountId);
      // As if billing had been on once and this account had used everything.
      await plain.api.deps.prisma.accountBilling.create({ data: { accountId, status: 'free', creditsGranted: 1, creditsUsed: 1, periodStart: new Date(Date.now() - DAY), periodEnd: new Date(Date.now() + DAY) } });
      expect((await plain.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key)).status).toBe(200);
      const started = await plain.call('POST', '/v1/crawl', { url: `${tree.url}/`, limit: 6 }, key);
      const done = await pollUntil(() => plain.call('GET', `/v1/crawl/${started.body.id as string}`, undefined, key), (r) => r.body.status !== 'scraping', 'crawl ends');
      expect(done.body).toMatchObject({ status: 'completed', completed: 6, total: 6 });
      expect(done.body.error).toBeUndefined();
      const admin = await signIn(plain.api.url, email);
      expect((await admin.call('GET', '/billing')).body).toEqual({ enabled: false });
      expect((await fetch(`${plain.api.url}/billing/webhook`, { method: 'POST' })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
