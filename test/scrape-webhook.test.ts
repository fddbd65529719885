/** Scrape webhooks: delivered after the response, signed, retried after the receiver first fails. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { accountWebhookSecret, SIGNATURE_HEADER, verifyWebhook } from '../core/webhook-signature.js';
import { startReceiver, waitFor } from './fixtures/receiver.js';
import type { FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { newAccount, signIn } from './helpers/dashboard.js';
import { DEFAULT_ACCOUNT_WEBHOOK_SECRET, TEST_PEPPER, TEST_WEBHOOK_SECRET } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let stack: TestStack;

beforeAll(async () => {
  [site, receiver, stack] = await Promise.all([startSite(), startReceiver(1), startTestStack()]);
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), receiver?.close()]);
});

describe('scrape webhooks', () => {
  it('POSTs the signed result with the request metadata, retrying after a 500', async () => {
    const res = await stack.post('/v1/scrape', { url: `${site.url}/article`, formats: ['markdown'], webhookUrls: [`${receiver.url}/hook`], metadata: { job: 42 } });
    expect(res.status).toBe(200);
    const [delivery] = await waitFor(() => receiver.accepted().length > 0 && receiver.accepted());
    expect(receiver.hits).toHaveLength(2);
    expect(receiver.hits[0]!.headers['x-pagewright-delivery']).toBe(delivery!.headers['x-pagewright-delivery']);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['x-pagewright-event']).toBe('scrape.completed');
    expect(delivery!.headers['x-pagewright-delivery']).toBe(res.body.scrape_id);
    expect(verifyWebhook(DEFAULT_ACCOUNT_WEBHOOK_SECRET, delivery!.body, String(delivery!.headers[SIGNATURE_HEADER]))).toBe(true);
    expect(verifyWebhook('some-other-secret-value', delivery!.body, String(delivery!.headers[SIGNATURE_HEADER]))).toBe(false);
    const payload = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(payload.type).toBe('scrape.completed');
    expect(payload.scrapeId).toBe(res.body.scrape_id);
    expect(payload.metadata).toEqual({ job: 42 });
    expect((payload.data as { markdown: string }).markdown).toBe((res.body.data as { markdown: string }).markdown);
  });

  it("signs each account's deliveries with that account's own secret, which admins reveal and rotate", async () => {
    const { prisma } = stack.api.deps;
    const teams = await Promise.all([0, 1].map(async () => {
      const { accountId, email } = await newAccount(prisma);
      const { key } = await createKey(prisma, 'hooks', TEST_PEPPER, accountId);
      return { accountId, key, admin: await signIn(stack.api.url, email) };
    }));
    const [a, b] = teams as [(typeof teams)[0], (typeof teams)[0]];
    const revealed = await a.admin.call('POST', '/webhook-secret/reveal', {});
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({ version: 1, rotatedAt: null, secret: accountWebhookSecret(TEST_WEBHOOK_SECRET, a.accountId, 1) });
    const secretA = revealed.body.secret as string;
    expect(secretA).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    // B points a scrape's webhook at A's receiver: it does not verify with A's secret.
    const delivered = async (key: string, job: string) => {
      const res = await stack.call('POST', '/v1/scrape', { url: `${site.url}/article`, formats: ['markdown'], webhookUrls: [`${receiver.url}/hook`], metadata: { job } }, key);
      expect(res.status).toBe(200);
      return waitFor(() => receiver.accepted().find((h) => h.headers['x-pagewright-delivery'] === res.body.scrape_id));
    };
    const fromB = await delivered(b.key, 'from-b');
    const fromA = await delivered(a.key, 'from-a');
    const header = (h: typeof fromA) => String(h.headers[SIGNATURE_HEADER]);
    expect(verifyWebhook(secretA, fromA.body, header(fromA))).toBe(true);
    expect(verifyWebhook(secretA, fromB.body, header(fromB))).toBe(false);
    expect(verifyWebhook(accountWebhookSecret(TEST_WEBHOOK_SECRET, b.accountId, 1), fromB.body, header(fromB))).toBe(true);
    expect(verifyWebhook(TEST_WEBHOOK_SECRET, fromB.body, header(fromB))).toBe(false);

    // Rotating: the new secret signs from then on, the old one no longer verifies.
    const rotated = await a.admin.call('POST', '/webhook-secret/rotate', {});
    expect(rotated.body).toMatchObject({ version: 2, rotatedAt: expect.any(String) });
    expect(rotated.body.secret).not.toBe(secretA);
    const after = await delivered(a.key, 'after-rotation');
    expect(verifyWebhook(rotated.body.secret as string, after.body, header(after))).toBe(true);
    expect(verifyWebhook(secretA, after.body, header(after))).toBe(false);

    // Members see when it changed, not the secret.
    const { email } = await newAccount(prisma, 'member');
    const member = await signIn(stack.api.url, email);
    expect((await member.call('GET', '/webhook-secret')).body).toEqual({ version: 1, rotatedAt: null });
    expect((await member.call('POST', '/webhook-secret/reveal', {})).status).toBe(403);
    expect((await member.call('POST', '/webhook-secret/rotate', {})).status).toBe(403);
  });

  it('refuses a webhook URL the URL policy forbids when the job or monitor is created, naming the field', async () => {
    const ok = `${receiver.url}/hook`;
    const bad = 'http://receiver.example:25/hook'; // SMTP's port: never a webhook
    const cases: [string, unknown, string][] = [
      ['/v1/scrape', { url: `${site.url}/article`, webhookUrls: [ok, bad] }, 'webhookUrls[1]'],
      ['/v1/crawl', { url: site.url, webhook: bad }, 'webhook'],
      ['/v1/batch/scrape', { urls: [`${site.url}/article`], webhook: { url: bad } }, 'webhook.url'],
      ['/v2/monitor', { name: 'm', schedule: { text: 'weekly' }, targets: [{ type: 'scrape', urls: [`${site.url}/article`] }], webhook: { url: bad } }, 'webhook.url'],
    ];
    for (const [path, body, field] of cases) {
      const res = await stack.post(path, body);
      expect([path, res.status, (res.body.details as { field: string }[] | undefined)?.map((d) => d.field)]).toEqual([path, 400, [field]]);
      expect((res.body.details as { message: string }[])[0]!.message).toMatch(/^is not a URL webhooks may be sent to: /);
    }
    expect(receiver.accepted().filter((h) => h.body.includes('receiver.example'))).toEqual([]);
  });
});

