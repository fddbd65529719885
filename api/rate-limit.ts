/**
 * Rate limits per endpoint and per caller (spec: "Errors", 429; "Scaling rules"). Counted in Redis,
 * so every API replica enforces one shared limit; counted in this process's memory, with the same
 * algorithm, while Redis is unreachable, and back in Redis as soon as it answers again.
 *
 * Algorithm: GCRA (generic cell rate algorithm), which is a token bucket that holds `limit`
 * requests and regains one every `60 s / limit`, stored as a single number per endpoint and caller:
 * the theoretical arrival time (TAT), when the bucket would be full again. A request is allowed when
 * adding one interval to the TAT keeps it within one bucket (`limit` intervals) of now. Times are
 * whole microseconds (the interval is rounded down, so a burst of exactly `limit` always fits), which
 * keeps the Lua script and the code below exact and identical. In Redis one atomic script does the
 * read, the decision and the write, with Redis's own clock, so replicas' clocks do not matter.
 */
import { once } from 'node:events';
import type { ClientContext, Redis, Result } from 'ioredis';
import type { Logger } from '../core/log.js';

export type RateLimitName = 'scrape' | 'crawl' | 'batchScrape' | 'crawlStatus' | 'cancel' | 'map' | 'monitor' | 'signIn' | 'signInAccount';

/** How each limit is named to callers (in the 429 message). */
export const rateLimitLabels: Record<RateLimitName, string> = {
  scrape: 'POST /v1|v2/scrape and POST /v1|v2/search (a search that scrapes counts 1 + limit)',
  crawl: 'POST /v1|v2/crawl, POST /v1|v2/extract, POST /v1/llmstxt and POST /v2/crawl/params-preview',
  batchScrape: 'POST /v1/batch/scrape and /v2/batch/scrape',
  crawlStatus: 'GET /v1|v2/crawl/{id}, GET /v1|v2/batch/scrape/{id}, their errors, GET /v2/crawl/active, GET /v1|v2/extract/{id}, GET /v1/llmstxt/{id}, GET /v1|v2/team/… and GET /v2/concurrency-check',
  cancel: 'DELETE /v1|v2/crawl/{id} (and /v1/…/cancel), DELETE /v1|v2/batch/scrape/{id}',
  map: 'POST /v1/map and /v2/map',
  monitor: '/v2/monitor',
  signIn: 'dashboard sign-in',
  signInAccount: 'dashboard sign-in to one e-mail address',
};

const PERIOD_US = 60_000_000;

export interface RateLimitPolicy {
  /** Requests per minute, and the burst size. */
  limit: number;
  /** Time one request occupies: 60 s / limit, rounded down to whole µs. */
  intervalUs: number;
  /** Size of the bucket in time: limit × interval (≤ 60 s). */
  capacityUs: number;
}

export function policyOf(limit: number): RateLimitPolicy {
  const intervalUs = Math.floor(PERIOD_US / limit);
  return { limit, intervalUs, capacityUs: intervalUs * limit };
}

/** One GCRA step. `storedTatUs` is undefined when nothing is stored; the returned TAT is what to store. */
export function gcra(policy: RateLimitPolicy, storedTatUs: number | undefined, nowUs: number): { allowed: boolean; tatUs: number } {
  const tat = Math.max(storedTatUs ?? 0, nowUs);
  if (tat + policy.intervalUs - nowUs > policy.capacityUs) return { allowed: false, tatUs: tat };
  return { allowed: true, tatUs: tat + policy.intervalUs };
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests that would be allowed right now, after this one. */
  remaining: number;
  /** Seconds until the whole burst is available again. */
  resetSeconds: number;
  /** Seconds until a refused request would be allowed; 0 when allowed. */
  retryAfterSeconds: number;
}

/** What a caller is told, from the backlog (TAT − now, in µs) after the step. */
export function decisionOf(policy: RateLimitPolicy, allowed: boolean, backlogUs: number): RateLimitDecision {
  const backlog = Math.max(0, backlogUs);
  return {
    allowed,
    limit: policy.limit,
    remaining: Math.max(0, Math.floor((policy.capacityUs - backlog) / policy.intervalUs)),
    resetSeconds: Math.ceil(backlog / 1e6),
    retryAfterSeconds: allowed ? 0 : Math.ceil((backlog + policy.intervalUs - policy.capacityUs) / 1e6),
  };
}

/**
 * The same step in Redis. `carried` is backlog counted in memory during an outage: it raises the TAT
 * (stored even when the request is refused), so a caller who spent a burst while Redis was away does
 * not get a fresh one when it comes back empty. Returns { allowed 0/1, backlog µs after the step }.
 */
const gcraLua = `
local interval = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local carried = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local stored = tonumber(redis.call('GET', KEYS[1]) or 0)
local tat = math.max(stored, now, now + carried)
local allowed = 0
if tat + interval - now <= capacity then
  tat = tat + interval
  allowed = 1
end
if tat > now and (allowed == 1 or tat > stored) then
  redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000))
end
return { allowed, tat - now }
`;

declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext> {
    pagewrightRateLimit(key: string, intervalUs: number, capacityUs: number, carriedUs: number): Result<[number, number], Context>;
  }
}

/** Per-process counters for while Redis is unreachable: a bounded map of TATs. */
export class MemoryCounters {
  private readonly tats = new Map<string, number>();
  private lastSweepUs = -Infinity;

  constructor(
    private readonly maxKeys: number,
    private readonly nowUs: () => number,
  ) {}

  get size(): number {
    return this.tats.size;
  }

  take(key: string, policy: RateLimitPolicy): { allowed: boolean; backlogUs: number } {
    const now = this.nowUs();
    const step = gcra(policy, this.tats.get(key), now);
    // Re-inserting keeps the map in least-recently-used order for eviction.
    this.tats.delete(key);
    if (step.tatUs > now) this.tats.set(key, step.tatUs);
    this.evict(now);
    return { allowed: step.allowed, backlogUs: step.tatUs - now };
  }

  /** Backlog (µs) counted here and not yet handed to Redis; 0 when none. */
  backlog(key: string): number {
    const tat = this.tats.get(key);
    return tat === undefined ? 0 : Math.max(0, tat - this.nowUs());
  }

  delete(key: string): void {
    this.tats.delete(key);
  }

  /** Expired entries go once a minute; past maxKeys, the least recently used go too, down to 90 %. */
  private evict(now: number): void {
    if (this.tats.size <= this.maxKeys && now - this.lastSweepUs < PERIOD_US) return;
    this.lastSweepUs = now;
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
    if (this.tats.size <= this.maxKeys) return;
    const target = Math.floor(this.maxKeys * 0.9);
    for (const key of this.tats.keys()) {
      if (this.tats.size <= target) break;
      this.tats.delete(key);
    }
  }
}

export interface RateLimiterOptions {
  redis: Redis;
  log: Logger;
  /** Requests per minute per caller for each limit; 0 = unlimited. */
  limits: Record<RateLimitName, number>;
  /** A Redis answer slower than this counts as unreachable for the request; default 250 ms. */
  redisTimeoutMs?: number;
  /** After Redis failed, count in memory this long before trying it again; default 1000 ms. */
  redisRetryMs?: number;
  /** Largest number of (limit, caller) entries kept in memory; default 100,000 (about 10 MB). */
  memoryMaxKeys?: number;
  /** Monotonic clock in µs (tests). */
  nowUs?: () => number;
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

export class RateLimiter {
  private readonly policies = new Map<RateLimitName, RateLimitPolicy>();
  private readonly memory: MemoryCounters;
  private readonly nowUs: () => number;
  private usingRedis = true;
  private retryRedisAtUs = -Infinity;
  /** Settles when the connection is first ready or first fails; the first requests wait for it. */
  private readonly firstConnection: Promise<void>;
  private booted = false;

  constructor(private readonly options: RateLimiterOptions) {
    for (const [name, limit] of Object.entries(options.limits) as [RateLimitName, number][]) if (limit > 0) this.policies.set(name, policyOf(limit));
    this.nowUs = options.nowUs ?? monotonicUs;
    this.memory = new MemoryCounters(options.memoryMaxKeys ?? 100_000, this.nowUs);
    options.redis.defineCommand('pagewrightRateLimit', { numberOfKeys: 1, lua: gcraLua });
    this.firstConnection = options.redis.status === 'ready' ? Promise.resolve() : once(options.redis, 'ready').then(() => undefined, () => undefined);
  }

  /**
   * Count a request of `subject` (`account:<id>`, `payer:<address>`) against a limit, as `units`
   * requests (at most the whole bucket, so it can always pass once the bucket is full). Undefined
   * when that limit is off. Never throws because of Redis.
   */
  async check(name: RateLimitName, subject: string, units = 1): Promise<RateLimitDecision | undefined> {
    const base = this.policies.get(name);
    if (!base) return undefined;
    const policy = units === 1 ? base : { ...base, intervalUs: base.intervalUs * Math.min(Math.max(1, Math.floor(units)), base.limit) };
    const key = `ratelimit:${name}:${subject}`;
    const { redis } = this.options;
    if (await this.redisUsable()) {
      try {
        const [allowed, backlogUs] = await this.withTimeout(redis.pagewrightRateLimit(key, policy.intervalUs, policy.capacityUs, this.memory.backlog(key)));
        this.memory.delete(key);
        this.useRedis();
        return decisionOf(policy, allowed === 1, backlogUs);
      } catch (err) {
        this.retryRedisAtUs = this.nowUs() + (this.options.redisRetryMs ?? 1000) * 1000;
        this.useMemory((err as Error).message);
      }
    }
    const step = this.memory.take(key, policy);
    return decisionOf(policy, step.allowed, step.backlogUs);
  }

  private async redisUsable(): Promise<boolean> {
    const { redis } = this.options;
    // At boot the connection may still be opening: wait for it briefly rather than count in memory.
    if (!this.booted && redis.status !== 'ready') await this.withTimeout(this.firstConnection).catch(() => undefined);
    this.booted = true;
    if (redis.status !== 'ready') {
      this.useMemory(`Redis connection is ${redis.status}`);
      return false;
    }
    return this.nowUs() >= this.retryRedisAtUs;
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.options.redisTimeoutMs ?? 250;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  private useMemory(reason: string): void {
    if (!this.usingRedis) return;
    this.usingRedis = false;
    this.options.log.warn('rate limits: Redis unreachable, counting in this process only until it is back', { reason });
  }

  private useRedis(): void {
    if (this.usingRedis) return;
    this.usingRedis = true;
    this.options.log.info('rate limits: back on Redis, shared by all API replicas');
  }
}
