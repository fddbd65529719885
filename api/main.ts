/** The API process: load settings (exit naming any bad one), connect, listen, shut down cleanly. */
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { Redis } from 'ioredis';
import { loadConfigOrExit, secretNames } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { temporalConnectionOptions } from '../core/temporal-options.js';
import { createPrisma } from '../prisma/client.js';
import { createApp } from './app.js';
import type { ApiDeps } from './deps.js';
import { connectRedis } from './redis.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const log = createLogger({ name: 'api', level: config.LOG_LEVEL, secrets: secretNames.map((n) => (config as Record<string, unknown>)[n] as string) });
  if (config.ALLOW_PRIVATE_ADDRESSES) log.warn('ALLOW_PRIVATE_ADDRESSES is on: callers can make this service fetch loopback and private-network targets. Development and tests only.');
  const prisma = createPrisma(config.DATABASE_URL);
  const redis: Redis = connectRedis(config.REDIS_URL, log);
  // Lazy: the API starts (and /health answers) even while Temporal is still coming up.
  const connection = Connection.lazy(temporalConnectionOptions(config, readFileSync));
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const deps: ApiDeps = { config, prisma, redis, temporal, log };

  const server = createApp(deps).app.listen(config.API_PORT, config.API_HOST, () => {
    log.info('api listening', { url: `http://${config.API_HOST}:${config.API_PORT}`, reference: `${config.AUTH_URL}/api-reference` });
  });
  // Slow clients may not hold sockets forever.
  server.requestTimeout = 120_000;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 5_000;

  const stop = async (signal: string) => {
    log.info('api stopping', { signal });
    server.close();
    server.closeIdleConnections();
    await Promise.allSettled([prisma.$disconnect(), redis.quit(), connection.close()]);
    process.exit(0);
  };
  process.once('SIGINT', (s) => void stop(s));
  process.once('SIGTERM', (s) => void stop(s));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
