/** The GCRA step, the in-memory counters and the limiter's fallback, on a controlled clock. */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/log.js';
import { decisionOf, gcra, MemoryCounters, policyOf, RateLimiter, type RateLimitPolicy } from './rate-limit.js';

const S = 1_000_000; // µs

/** Run requests at the given times (µs) through gcra, returning what each caller is told. */
function run(policy: RateLimitPolicy, times: number[]) {
  let tat: number | undefined;
  return times.map((now) => {
    const step = gcra(policy, tat, now);
    tat = step.tatUs;
    return decisionOf(policy, step.allowed, step.tatUs - now);
  });
}

describe('policyOf', () => {
  it('spreads a minute over the limit in whole microseconds, rounding down so the full burst fits', () => {
    expect(policyOf(3)).toEqual({ limit: 3, intervalUs: 20 * S, capacityUs: 60 * S });
    expect(policyOf(600)).toEqual({ limit: 600, intervalUs: 100_000, capacityUs: 60 * S });
    expect(policyOf(7)).toEqual({ limit: 7, intervalUs: 8_571_428, capacityUs: 59_999_996 });
  });
});

describe('gcra', () => {
  it('allows a burst of exactly the limit, counting remaining down, then refuses with Retry-After', () => {
    const t0 = 1_000 * S;
    expect(run(policyOf(3), [t0, t0 + 1000, t0 + 2000, t0 + 3000])).toEqual([
      { allowed: true, limit: 3, remaining: 2, resetSeconds: 20, retryAfterSeconds: 0 },
      { allowed: true, limit: 3, remaining: 1, resetSeconds: 40, retryAfterSeconds: 0 },
      { allowed: true, limit: 3, remaining: 0, resetSeconds: 60, retryAfterSeconds: 0 },
      { allowed: false, limit: 3, remaining: 0, resetSeconds: 60, retryAfterSeconds: 20 },
    ]);
  });

  it('allows the whole burst whatever the rounding of the interval', () => {
    const burst = run(policyOf(7), Array.from({ length: 8 }, () => 0));
    expect(burst.map((d) => d.allowed)).toEqual([true, true, true, true, true, true, true, false]);
    expect(burst.map((d) => d.remaining)).toEqual([6, 5, 4, 3, 2, 1, 0, 0]);
  });

  it('gives back one request per interval after a burst, and the whole burst after a minute', () => {
    const p = policyOf(3);
    const decisions = run(p, [0, 0, 0, 20 * S - 1, 20 * S, 20 * S + 1, 100 * S, 100 * S, 100 * S, 100 * S]);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, true, false, true, true, true, false]);
    // Just short of the interval: retry in 1 µs, rounded up to a whole second.
    expect(decisions[3]!.retryAfterSeconds).toBe(1);
    expect(decisions[5]!.retryAfterSeconds).toBe(20);
  });

  it('does not count refused requests, so hammering does not push the next allowed one back', () => {
    const p = policyOf(2);
    const times = [0, 0, ...Array.from({ length: 50 }, (_, i) => i * 100_000), 30 * S];
    const decisions = run(p, times);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    expect(decisions.at(-1)!.allowed).toBe(true);
  });

  it('never lets more than limit + elapsed/interval requests through at a steady overload', () => {
    const p = policyOf(10); // one per 6 s
    const times = Array.from({ length: 600 }, (_, i) => i * 500_000); // two a second for 300 s
    const allowed = run(p, times).filter((d) => d.allowed).length;
    expect(allowed).toBe(10 + Math.floor(times.at(-1)! / p.intervalUs));
  });
});

describe('MemoryCounters', () => {
  it('counts each key apart', () => {
    const m = new MemoryCounters(100, () => 0);
    const p = policyOf(1);
    expect(m.take('a', p).allowed).toBe(true);
    expect(m.take('a', p).allowed).toBe(false);
    expect(m.take('b', p).allowed).toBe(true);
    expect(m.backlog('a')).toBe(60 * S);
    expect(m.backlog('c')).toBe(0);
  });

  it('drops expired entries once a minute', () => {
    let now = 0;
    const m = new MemoryCounters(100, () => now);
    const p = policyOf(60); // an entry lives 1 s
    for (let i = 0; i < 10; i++) m.take(`k${i}`, p);
    expect(m.size).toBe(10);
    now = 30 * S;
    m.take('late', p);
    expect(m.size).toBe(11); // not swept yet
    now = 61 * S;
    m.take('later', p);
    expect(m.size).toBe(1);
  });

  it('stays within maxKeys by evicting the least recently used, down to 90 %', () => {
    const m = new MemoryCounters(10, () => 0);
    const p = policyOf(1);
    for (let i = 0; i < 10; i++) m.take(`k${i}`, p);
    m.take('k0', p); // k0 is now the most recent
    m.take('k10', p);
    expect(m.size).toBe(9);
    expect(m.backlog('k0')).toBe(60 * S);
    expect(m.backlog('k1')).toBe(0);
    expect(m.backlog('k10')).toBe(60 * S);
  });
});

/** A Redis whose connection claims to be ready but whose script never answers (a hung server). */
function hungRedis(): Redis {
  return Object.assign(new EventEmitter(), {
    status: 'ready',
    defineCommand: () => undefined,
    pagewrightRateLimit: () => new Promise(() => undefined),
  }) as unknown as Redis;
}

describe('RateLimiter fallback', () => {
  it('counts in memory when Redis hangs, after the timeout, and logs the switch once', async () => {
    const lines: string[] = [];
    const log = createLogger({ name: 't', write: (l) => lines.push(l) });
    const limiter = new RateLimiter({ redis: hungRedis(), log, limits: { scrape: 2, crawl: 0, batchScrape: 0, crawlStatus: 1, cancel: 1, map: 1, monitor: 0, signIn: 0, signInAccount: 0 }, redisTimeoutMs: 50 });
    const started = Date.now();
    const decisions = [await limiter.check('scrape', 'key:a'), await limiter.check('scrape', 'key:a'), await limiter.check('scrape', 'key:a')];
    // One request waits for the timeout; the next ones skip Redis for a second.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(decisions.map((d) => [d!.allowed, d!.remaining])).toEqual([[true, 1], [true, 0], [false, 0]]);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string; reason: string })).map((l) => [l.msg, l.reason])).toEqual([
      ['rate limits: Redis unreachable, counting in this process only until it is back', 'Redis did not answer within 50 ms'],
    ]);
  });

  it('answers undefined (no limit, no headers) for a limit set to 0', async () => {
    const limiter = new RateLimiter({ redis: hungRedis(), log: createLogger({ name: 't', write: () => undefined }), limits: { scrape: 1, crawl: 0, batchScrape: 0, crawlStatus: 1, cancel: 1, map: 1, monitor: 0, signIn: 0, signInAccount: 0 } });
    expect(await limiter.check('crawl', 'key:a')).toBeUndefined();
  });
});
