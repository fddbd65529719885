/** /ready follows its dependencies: 503 naming Redis while a dedicated Redis is stopped, 200 once it is back. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '../scripts/infra/ready.js';
import { startRedis, type RedisHandle } from '../scripts/infra/redis.js';
import { startTestApi, type TestApi } from './helpers/api.js';

let redis: RedisHandle;
let api: TestApi;

beforeAll(async () => {
  redis = await startRedis({ port: await freePort(), serverPath: inject('redisServerPath'), name: 'redis-ready-test' });
  api = await startTestApi({ env: { REDIS_URL: redis.url } });
});
afterAll(async () => {
  await api?.close();
  await redis?.stop();
});

async function readyUntil(status: number, timeoutMs = 15_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${api.url}/ready`);
    if (res.status === status || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('GET /ready', () => {
  it('is 200 while PostgreSQL and Redis answer', async () => {
    const res = await readyUntil(200);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: 'ready', checks: { database: 'up', keyValueStore: 'up', temporal: 'up' } });
  });

  it('says Temporal is down, for information, and stays ready: scrapes and reads do not need it', async () => {
    const lonely = await startTestApi({ env: { REDIS_URL: redis.url, TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` } });
    try {
      // Its Redis connection opens first (503 until then), as for any new API.
      let res = await fetch(`${lonely.url}/ready`);
      for (let tries = 0; res.status !== 200 && tries < 50; tries++) {
        await new Promise((r) => setTimeout(r, 200));
        res = await fetch(`${lonely.url}/ready`);
      }
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, status: 'ready', checks: { database: 'up', keyValueStore: 'up', temporal: 'down' } });
    } finally {
      await lonely.close();
    }
  });

  it('is 503 naming the key-value store while Redis is stopped, and 200 again after it returns', async () => {
    await redis.stop();
    const down = await readyUntil(503);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    const body = (await down.json()) as { success: boolean; code: string; error: string; details: { field: string }[] };
    expect(body.success).toBe(false);
    expect(body.code).toBe('service_unavailable');
    expect(body.error).toBe('Not ready: key-value store (Redis) down.');
    expect(body.details.map((d) => d.field)).toEqual(['keyValueStore']);
    // Liveness is unaffected.
    expect((await fetch(`${api.url}/health`)).status).toBe(200);

    await redis.start();
    const up = await readyUntil(200);
    expect(up.status).toBe(200);
  });
});
