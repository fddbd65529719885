/**
 * `x-idempotency-key` on the requests that start jobs (POST /v1|v2/crawl, /v1|v2/batch/scrape): a
 * retried request answers with the job the first one started instead of starting another. Real
 * API, worker, Temporal and PostgreSQL against a loopback site.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { waitForCrawl } from './helpers/crawl.js';
import { TEST_PEPPER } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const send = (res: ServerResponse, title: string, links: string[] = []): void => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${title}</title><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`);
};

let site: FixtureServer;
let stack: TestStack;

beforeAll(async () => {
  [site, stack] = await Promise.all([
    startFixtureServer({
      '/': (_q, res) => send(res, 'home', ['/a']),
      '/a': (_q, res) => send(res, 'a'),
    }),
    startTestStack(),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

async function post(path: string, body: unknown, idempotencyKey?: string, key = stack.key): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(stack.api.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const jobsWithKey = (idempotencyKey: string) => stack.api.deps.prisma.job.count({ where: { idempotencyKey } });

describe('x-idempotency-key', () => {
  it('answers a repeated crawl start with the first crawl, which runs once', async () => {
    const key = randomUUID();
    const first = await post('/v1/crawl', { url: `${site.url}/`, limit: 5 }, key);
    const again = await post('/v1/crawl', { url: `${site.url}/`, limit: 5 }, key);
    expect(first.status).toBe(200);
    expect(again).toEqual({ status: 200, body: first.body });
    expect(await jobsWithKey(key)).toBe(1);
    const done = await waitForCrawl(stack, first.body.id as string);
    expect([done.status, done.total, done.completed]).toEqual(['completed', 2, 2]);
  });

  it('starts one batch scrape for five concurrent requests with one key', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/v1/batch/scrape', { urls: [`${site.url}/a`] }, key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await jobsWithKey(key)).toBe(1);
  });

  it('answers v1 and v2 alike with the job either started', async () => {
    const key = randomUUID();
    const v2 = await post('/v2/crawl', { url: `${site.url}/`, limit: 2 }, key);
    const v1 = await post('/v1/crawl', { url: `${site.url}/`, limit: 2 }, key);
    expect([v2.status, v1.status]).toEqual([200, 200]);
    expect(v1.body.id).toBe(v2.body.id);
    expect(await jobsWithKey(key)).toBe(1);
  });

  it('refuses a key used for a crawl on a batch scrape, with 409 naming the crawl', async () => {
    const key = randomUUID();
    const crawl = await post('/v1/crawl', { url: `${site.url}/`, limit: 1 }, key);
    const batch = await post('/v1/batch/scrape', { urls: [`${site.url}/a`] }, key);
    expect(batch.status).toBe(409);
    expect(batch.body).toMatchObject({ success: false, code: 'conflict' });
    expect(batch.body.error).toBe(`This x-idempotency-key was used to start a crawl (id ${crawl.body.id as string}); send a new key for a batch scrape.`);
    expect(await jobsWithKey(key)).toBe(1);
  });

  it('keeps keys per API key, and starts a new job for each request without a key', async () => {
    const key = randomUUID();
    const { key: otherApiKey } = await createKey(stack.api.deps.prisma, 'idempotency-other', TEST_PEPPER);
    const mine = await post('/v1/batch/scrape', { urls: [`${site.url}/a`] }, key);
    const theirs = await post('/v1/batch/scrape', { urls: [`${site.url}/a`] }, key, otherApiKey);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await jobsWithKey(key)).toBe(2);
    const plain = await Promise.all([post('/v1/batch/scrape', { urls: [`${site.url}/a`] }), post('/v1/batch/scrape', { urls: [`${site.url}/a`] })]);
    expect(plain.map((a) => a.status)).toEqual([200, 200]);
    expect(plain[0].body.id).not.toBe(plain[1].body.id);
  });

  it('refuses an empty or over-long key with 400 naming the header, and starts nothing', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const before = await stack.api.deps.prisma.job.count();
      const res = await post('/v1/crawl', { url: `${site.url}/`, limit: 1 }, key);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_request', details: [{ field: 'x-idempotency-key', message: 'must be 1-255 characters' }] });
      expect(await stack.api.deps.prisma.job.count()).toBe(before);
    }
  });
});
