/**
 * Rate limits through the real app and real Redis: per endpoint and per key, one limit shared by two
 * replicas, and in-memory limits while a dedicated Redis is stopped, back in Redis once it returns.
 * Traffic is GET /v1/crawl/{unknown id}: a 404 from PostgreSQL, counted like any authenticated request.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis, type RedisHandle } from '../scripts/infra/redis.js';
import { startTestApi, type TestApi } from './helpers/api.js';
import { TEST_PEPPER } from './helpers/env.js';

const limits = { RATE_LIMIT_CRAWL_STATUS_PER_MIN: '3', RATE_LIMIT_CANCEL_PER_MIN: '2' };

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
  body: { success: boolean; code?: string; error?: string };
}

async function call(api: TestApi, key: string | undefined, method = 'GET', path = `/v1/crawl/${randomUUID()}`, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(api.url + path, { method, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
  const h = (name: string) => res.headers.get(name);
  return { status: res.status, limit: h('ratelimit-limit'), remaining: h('ratelimit-remaining'), reset: h('ratelimit-reset'), retryAfter: h('retry-after'), body: (await res.json()) as Answer['body'] };
}
const statusOf = (api: TestApi, key: string) => call(api, key);
/** Status and RateLimit-Remaining, the two things most assertions need. */
const brief = (a: Answer) => [a.status, a.remaining];

/** A key of a new account of its own: limits count per account. */
async function newKey(api: TestApi, accountId?: string): Promise<{ key: string; id: string; accountId: string }> {
  const account = accountId ?? (await api.deps.prisma.account.create({ data: { id: randomUUID(), name: 'rate-limit' } })).id;
  return { ...(await createKey(api.deps.prisma, `rate-limit-${randomUUID()}`, TEST_PEPPER, account)), accountId: account };
}

async function readyUntil(api: TestApi, status: number, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${api.url}/ready`);
    await res.body?.cancel();
    if (res.status === status || Date.now() > deadline) return res.status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusMessage = 'Rate limit exceeded for GET /v1|v2/crawl/{id}, GET /v1|v2/batch/scrape/{id}, their errors, GET /v2/crawl/active, GET /v1|v2/extract/{id}, GET /v1/llmstxt/{id}, GET /v1|v2/team/… and GET /v2/concurrency-check: 3 requests per minute per account. Retry in 20 seconds.';

describe('rate limits on one Redis', () => {
  let api: TestApi;
  let replica: TestApi;
  let unlimited: TestApi;

  beforeAll(async () => {
    [api, replica, unlimited] = await Promise.all([
      startTestApi({ env: limits }),
      startTestApi({ env: limits }),
      startTestApi({ env: { RATE_LIMIT_CRAWL_STATUS_PER_MIN: '0' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([api?.close(), replica?.close(), unlimited?.close()]);
  });

  it('lets N requests through with RateLimit headers counting down, then answers 429 with Retry-After', async () => {
    const { key } = await newKey(api);
    const answers = [await statusOf(api, key), await statusOf(api, key), await statusOf(api, key)];
    expect(answers.map((a) => [a.status, a.limit, a.remaining, a.reset, a.retryAfter])).toEqual([
      [404, '3', '2', '20', null],
      [404, '3', '1', '40', null],
      [404, '3', '0', '60', null],
    ]);
    const refused = await statusOf(api, key);
    expect([refused.status, refused.limit, refused.remaining, refused.reset, refused.retryAfter]).toEqual([429, '3', '0', '60', '20']);
    expect(refused.body).toEqual({ success: false, code: 'rate_limited', error: statusMessage });
  });

  it('exposes the RateLimit headers to browsers through CORS', async () => {
    const { key } = await newKey(api);
    const res = await fetch(`${api.url}/v1/crawl/${randomUUID()}`, { headers: { authorization: `Bearer ${key}`, origin: 'http://allowed.example' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id,Retry-After,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset');
  });

  it('counts every key of an account against one limit: more keys buy no more requests', async () => {
    const a = await newKey(api);
    const sibling = await newKey(api, a.accountId);
    expect(brief(await statusOf(api, a.key))).toEqual([404, '2']);
    expect(brief(await statusOf(api, sibling.key))).toEqual([404, '1']);
    expect(brief(await statusOf(api, a.key))).toEqual([404, '0']);
    const refused = await statusOf(api, sibling.key);
    expect([refused.status, refused.body.error]).toEqual([429, statusMessage]);
  });

  it('counts each endpoint and each account apart, and both cancel routes against one limit', async () => {
    const a = await newKey(api);
    const b = await newKey(api);
    for (let i = 0; i < 3; i++) await statusOf(api, a.key);
    expect((await statusOf(api, a.key)).status).toBe(429);

    const cancel = await call(api, a.key, 'DELETE');
    expect([cancel.status, cancel.limit, cancel.remaining]).toEqual([404, '2', '1']);
    expect(brief(await call(api, a.key, 'DELETE', `/v1/crawl/${randomUUID()}/cancel`))).toEqual([404, '0']);
    const refused = await call(api, a.key, 'DELETE', `/v1/crawl/${randomUUID()}/cancel`);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Rate limit exceeded for DELETE /v1|v2/crawl/{id} (and /v1/…/cancel), DELETE /v1|v2/batch/scrape/{id}: 2 requests per minute per account. Retry in 30 seconds.');

    const other = await statusOf(api, b.key);
    expect([other.status, other.limit, other.remaining]).toEqual([404, '3', '2']);
  });

  it('counts every authenticated request, invalid ones included, and none that fail authentication', async () => {
    const { key } = await newKey(api);
    expect(brief(await call(api, key, 'GET', '/v1/crawl/not-a-crawl-id'))).toEqual([400, '2']);
    const anonymous = await call(api, undefined);
    expect([anonymous.status, anonymous.limit, anonymous.remaining]).toEqual([401, null, null]);
    expect(brief(await statusOf(api, key))).toEqual([404, '1']);
  });

  it('enforces one limit across two API replicas sharing Redis', async () => {
    const { key } = await newKey(api);
    expect(brief(await statusOf(api, key))).toEqual([404, '2']);
    expect(brief(await statusOf(replica, key))).toEqual([404, '1']);
    expect(brief(await statusOf(api, key))).toEqual([404, '0']);
    expect(brief(await statusOf(replica, key))).toEqual([429, '0']);
    expect(brief(await statusOf(api, key))).toEqual([429, '0']);
  });

  it('documents 429 with Retry-After and the RateLimit headers on exactly the limited routes', async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const doc = (await (await fetch(`${api.url}/api-reference?format=json`)).json()) as Doc;
    const limited = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).filter(([, op]) => op.responses['429']).map(([method]) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(limited).toEqual([
      'DELETE /v1/batch/scrape/{id}',
      'DELETE /v1/batch/scrape/{id}/errors',
      'DELETE /v1/crawl/{id}',
      'DELETE /v1/crawl/{id}/cancel',
      'DELETE /v1/crawl/{id}/errors',
      'DELETE /v2/batch/scrape/{id}',
      'DELETE /v2/crawl/{id}',
      'DELETE /v2/monitor/{id}',
      'GET /v1/batch/scrape/{id}',
      'GET /v1/batch/scrape/{id}/errors',
      'GET /v1/crawl/{id}',
      'GET /v1/crawl/{id}/errors',
      'GET /v1/extract/{id}',
      'GET /v1/llmstxt/{id}',
      'GET /v1/team/credit-usage',
      'GET /v1/team/credit-usage/historical',
      'GET /v1/team/queue-status',
      'GET /v1/team/token-usage',
      'GET /v1/team/token-usage/historical',
      'GET /v2/batch/scrape/{id}',
      'GET /v2/batch/scrape/{id}/errors',
      'GET /v2/concurrency-check',
      'GET /v2/crawl/active',
      'GET /v2/crawl/{id}',
      'GET /v2/crawl/{id}/errors',
      'GET /v2/extract/{id}',
      'GET /v2/monitor',
      'GET /v2/monitor/{id}',
      'GET /v2/monitor/{id}/checks',
      'GET /v2/monitor/{id}/checks/{checkId}',
      'GET /v2/team/credit-usage',
      'GET /v2/team/credit-usage/historical',
      'GET /v2/team/queue-status',
      'GET /v2/team/token-usage',
      'GET /v2/team/token-usage/historical',
      'PATCH /v2/monitor/{id}',
      'POST /v1/batch/scrape',
      'POST /v1/crawl',
      'POST /v1/extract',
      'POST /v1/llmstxt',
      'POST /v1/map',
      'POST /v1/scrape',
      'POST /v1/search',
      'POST /v2/batch/scrape',
      'POST /v2/crawl',
      'POST /v2/crawl/params-preview',
      'POST /v2/extract',
      'POST /v2/map',
      'POST /v2/monitor',
      'POST /v2/monitor/{id}/run',
      'POST /v2/scrape',
      'POST /v2/search',
    ]);
    expect(Object.keys(doc.paths['/v1/scrape']!.post!.responses['429']!.headers!)).toEqual(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    expect(Object.keys(doc.paths['/v1/scrape']!.post!.responses['200']!.headers!)).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
  });

  it('sends no RateLimit headers and never 429 when a limit is set to 0', async () => {
    const { key } = await newKey(unlimited);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await statusOf(unlimited, key));
    expect(answers.map((a) => [a.status, a.limit, a.remaining])).toEqual(Array.from({ length: 8 }, () => [404, null, null]));
  });
});

describe('rate limits while Redis is unreachable', () => {
  let redis: RedisHandle;
  let one: TestApi;
  let two: TestApi;

  beforeAll(async () => {
    redis = await startRedis({ port: await freePort(), serverPath: inject('redisServerPath'), name: 'redis-rate-limit-test' });
    [one, two] = await Promise.all([startTestApi({ env: { ...limits, REDIS_URL: redis.url } }), startTestApi({ env: { ...limits, REDIS_URL: redis.url } })]);
    expect([await readyUntil(one, 200), await readyUntil(two, 200)]).toEqual([200, 200]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await redis?.stop();
  });

  it('keeps answering with per-process limits, then returns to the shared Redis counters', async () => {
    const before = await newKey(one);
    expect(brief(await statusOf(one, before.key))).toEqual([404, '2']);
    expect(brief(await statusOf(two, before.key))).toEqual([404, '1']);

    // Background traffic straddles the stop and the restart: never anything but 404 or 429.
    const seen = new Set<number>();
    const background = await newKey(one);
    let running = true;
    let sent = 0;
    const traffic = (async () => {
      while (running) {
        seen.add((await statusOf(one, background.key)).status);
        sent++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    await redis.stop();
    expect([await readyUntil(one, 503), await readyUntil(two, 503)]).toEqual([503, 503]);
    // In memory now, counted by this process alone: a fresh burst of 3 for this key, then 429.
    const during = await newKey(one);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await statusOf(one, during.key));
    expect(answers.map(brief)).toEqual([[404, '2'], [404, '1'], [404, '0'], [429, '0']]);
    expect(answers[3]!.retryAfter).toBe('20');
    expect(answers[3]!.body).toEqual({ success: false, code: 'rate_limited', error: statusMessage });

    await redis.start();
    expect([await readyUntil(one, 200), await readyUntil(two, 200)]).toEqual([200, 200]);
    // However fast the outage went by, the background key gets past its burst of 3 after it.
    const until = sent + 4;
    while (sent < until) await new Promise((r) => setTimeout(r, 20));
    running = false;
    await traffic;
    expect([...seen].sort()).toEqual([404, 429]);
    // A replica whose last Redis call failed keeps counting in memory for redisRetryMs (1 s) before
    // trying Redis again, whatever /ready says; only then does its next request carry the burst over.
    await new Promise((r) => setTimeout(r, 1200));

    // The burst spent in memory is carried into the (restarted, empty) Redis, so the other replica,
    // which counted nothing itself, refuses this key too.
    const carried = await statusOf(one, during.key);
    expect(carried.status).toBe(429);
    const seenByTwo = await statusOf(two, during.key);
    expect(seenByTwo.status).toBe(429);
    expect(Number(seenByTwo.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(seenByTwo.retryAfter)).toBeLessThanOrEqual(20);

    // A new key is counted in Redis again: one limit across both replicas.
    const after = await newKey(one);
    expect(brief(await statusOf(one, after.key))).toEqual([404, '2']);
    expect(brief(await statusOf(two, after.key))).toEqual([404, '1']);
    expect(brief(await statusOf(one, after.key))).toEqual([404, '0']);
    expect(brief(await statusOf(two, after.key))).toEqual([429, '0']);
    const ttl = await one.deps.redis.pttl(`ratelimit:crawlStatus:account:${after.accountId}`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
