/**
 * The API's Redis connection. Commands fail fast while Redis is unreachable (no offline queue), so
 * /ready answers 503 at once and callers can fall back, instead of requests hanging on a queue.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../core/log.js';

export function connectRedis(url: string, log?: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // Keep trying to come back, at most once a second.
    retryStrategy: (times) => Math.min(times * 200, 1000),
    lazyConnect: false,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) log?.warn('redis unavailable', { error: err.message });
    down = true;
  });
  redis.on('ready', () => {
    if (down) log?.info('redis back');
    down = false;
  });
  return redis;
}
