/** Crawl webhooks, cancellation and expiry, end to end. */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, verifyWebhook } from '../core/webhook-signature.js';
import { ensureExpirySchedule } from '../worker/main.js';
import { startCrawlSite, treeSite } from './fixtures/crawl-site.js';
import { startReceiver, waitFor, type Receiver } from './fixtures/receiver.js';
import { DEFAULT_ACCOUNT_WEBHOOK_SECRET } from './helpers/env.js';
import { allDocuments, crawlToEnd, startCrawl, waitForCrawl } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startTestStack(), startReceiver(1)]);
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

const events = (type: string) => receiver.accepted().filter((h) => h.headers['x-pagewright-event'] === type);
const payload = (h: { body: string }) => JSON.parse(h.body) as Record<string, unknown>;

describe('crawl webhooks', () => {
  it('sends crawl.started, one crawl.page per page and crawl.completed, each signed and retried after a 500', async () => {
    const site = await startCrawlSite(treeSite(5));
    try {
      const hook = `${receiver.url}/hook`;
      const { id, docs } = await crawlToEnd(stack, { url: site.url, webhookUrls: [hook], webhookMetadata: { team: 'growth' } });
      const completed = await waitFor(() => events('crawl.completed').find((h) => payload(h).crawlId === id), 60_000);
      await waitFor(() => events('crawl.page').filter((h) => payload(h).crawlId === id).length === 5, 60_000);
      const mine = receiver.accepted().filter((h) => payload(h).crawlId === id);
      expect(mine.map((h) => h.headers['x-pagewright-event']).sort()).toEqual(['crawl.completed', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.started']);
      for (const h of mine) {
        expect(verifyWebhook(DEFAULT_ACCOUNT_WEBHOOK_SECRET, h.body, String(h.headers[SIGNATURE_HEADER]))).toBe(true);
        expect(payload(h).metadata).toEqual({ team: 'growth' });
      }
      // Every accepted delivery was refused once first: twice as many attempts as deliveries.
      const attempts = receiver.hits.filter((h) => h.body.includes(id));
      expect(attempts).toHaveLength(2 * mine.length);
      expect(payload(completed)).toMatchObject({ type: 'crawl.completed', crawlId: id, status: 'completed', completed: 5, total: 5, failed: 0 });
      const pageUrls = events('crawl.page').filter((h) => payload(h).crawlId === id).map((h) => (payload(h).data as { metadata: { sourceURL: string } }).metadata.sourceURL).sort();
      expect(pageUrls).toEqual(docs.map((d) => String(d.metadata.sourceURL)).sort());
    } finally {
      await site.close();
    }
  });

  it('sends crawl.failed when the seed cannot be crawled', async () => {
    const site = await startCrawlSite({ pages: { '/': [] }, robots: 'User-agent: *\nDisallow: /\n' });
    try {
      const { id } = await crawlToEnd(stack, { url: site.url, webhookUrls: [`${receiver.url}/hook`] });
      const failed = await waitFor(() => events('crawl.failed').find((h) => payload(h).crawlId === id), 60_000);
      expect(payload(failed)).toMatchObject({ type: 'crawl.failed', status: 'failed', completed: 0 });
      expect(String(payload(failed).error)).toMatch(/disallows the seed URL/);
    } finally {
      await site.close();
    }
  });
});

describe('cancelling a crawl', () => {
  it('is cancelled at once; no page starts and no document lands after the cancel settles', async () => {
    const site = await startCrawlSite(treeSite(300, 150));
    try {
      const id = await startCrawl(stack, { url: site.url, webhookUrls: [`${receiver.url}/hook`] });
      await waitFor(() => site.hits.length >= 5, 60_000);
      const cancel = await fetch(`${stack.api.url}/v1/crawl/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.key}` } });
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toEqual({ success: true, message: `Crawl ${id} cancelled.` });
      const right = await stack.get(`/v1/crawl/${id}`);
      expect(right.body.status).toBe('cancelled');

      await waitFor(() => events('crawl.cancelled').find((h) => payload(h).crawlId === id), 60_000);
      // In-flight pages finish or stop within their 150 ms page time plus a heartbeat; then nothing moves.
      await new Promise((r) => setTimeout(r, 3000));
      const settledHits = site.hits.length;
      const settledDocs = (await allDocuments(stack, id)).length;
      await new Promise((r) => setTimeout(r, 3000));
      expect(site.hits.length).toBe(settledHits);
      expect((await allDocuments(stack, id)).length).toBe(settledDocs);
      expect(settledDocs).toBeLessThan(300);
      const status = await waitForCrawl(stack, id);
      expect(status.status).toBe('cancelled');

      const again = await fetch(`${stack.api.url}/v1/crawl/${id}/cancel`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.key}` } });
      expect(await again.json()).toEqual({ success: true, message: `Crawl ${id} had already ended (cancelled).` });
    } finally {
      await site.close();
    }
  });

  it('answers 404 for an unknown id', async () => {
    const res = await fetch(`${stack.api.url}/v1/crawl/00000000-0000-4000-8000-000000000000`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.key}` } });
    expect(res.status).toBe(404);
  });
});

describe('expiry', () => {
  it('the expire-data Schedule deletes crawls and documents past their time, after which the crawl is 404', async () => {
    const site = await startCrawlSite(treeSite(3));
    const connection = await Connection.connect({ address: stack.api.deps.config.TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: stack.api.deps.config.TEMPORAL_NAMESPACE });
    // A schedule of this test's own: the shared `expire-data` one may point at another file's
    // worker (every worker/main.ts process creates it for its own task queue if it is missing).
    const scheduleId = `expire-data-${randomUUID()}`;
    try {
      const { id, docs } = await crawlToEnd(stack, { url: site.url });
      expect(docs).toHaveLength(3);
      const keep = await crawlToEnd(stack, { url: site.url });
      const { prisma } = stack.api.deps;
      await prisma.job.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await prisma.document.updateMany({ where: { jobId: id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await stack.get(`/v1/crawl/${id}`)).status).toBe(404);

      await ensureExpirySchedule(client, stack.worker.taskQueue, scheduleId);
      await client.schedule.getHandle(scheduleId).trigger();
      const deadline = Date.now() + 30_000;
      while ((await prisma.job.count({ where: { id } })) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await prisma.job.count({ where: { id } })).toBe(0);
      expect(await prisma.document.count({ where: { jobId: id } })).toBe(0);
      expect(await prisma.jobUrl.count({ where: { jobId: id } })).toBe(0);
      expect(await prisma.job.count({ where: { id: keep.id } })).toBe(1);
      expect((await stack.get(`/v1/crawl/${keep.id}`)).status).toBe(200);
    } finally {
      await client.schedule.getHandle(scheduleId).delete().catch(() => undefined);
      await connection.close();
      await site.close();
    }
  });
});
