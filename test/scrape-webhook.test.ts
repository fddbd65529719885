/** Scrape webhooks: delivered after the response, signed, retried after the receiver first fails. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, verifyWebhook } from '../core/webhook-signature.js';
import { startReceiver, waitFor } from './fixtures/receiver.js';
import type { FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { TEST_WEBHOOK_SECRET } from './helpers/env.js';
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
    expect(verifyWebhook(TEST_WEBHOOK_SECRET, delivery!.body, String(delivery!.headers[SIGNATURE_HEADER]))).toBe(true);
    expect(verifyWebhook('some-other-secret-value', delivery!.body, String(delivery!.headers[SIGNATURE_HEADER]))).toBe(false);
    const payload = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(payload.type).toBe('scrape.completed');
    expect(payload.scrapeId).toBe(res.body.scrape_id);
    expect(payload.metadata).toEqual({ job: 42 });
    expect((payload.data as { markdown: string }).markdown).toBe((res.body.data as { markdown: string }).markdown);
  });
});
