/** The API process: load settings (exit naming any bad one), connect, listen, shut down cleanly. */
import { createServer } from 'node:http';
import { loadConfigOrExit, secretNames } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { createApp } from './app.js';
import { createApiDeps } from './deps.js';
import { drainable } from './drain.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const log = createLogger({ name: 'api', level: config.LOG_LEVEL, secrets: secretNames.map((n) => (config as Record<string, unknown>)[n] as string) });
  if (config.ALLOW_PRIVATE_ADDRESSES) log.warn('ALLOW_PRIVATE_ADDRESSES is on: callers can make this service fetch loopback and private-network targets. Development and tests only.');
  const deps = createApiDeps(config, log);

  const requests = drainable(createApp(deps).app.callback());
  const server = createServer(requests.listener).listen(config.API_PORT, config.API_HOST, () => {
    log.info('api listening', { url: `http://${config.API_HOST}:${config.API_PORT}`, reference: `${config.AUTH_URL}/api-reference` });
  });
  // Slow clients may not hold sockets forever.
  server.requestTimeout = 120_000;
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 5_000;

  // Requests in flight are answered (up to the grace period) before PostgreSQL, Redis and Temporal are let go.
  const stop = async (signal: string) => {
    log.info('api stopping', { signal, inFlight: requests.inFlight(), graceMs: config.API_SHUTDOWN_GRACE_MS });
    const { cut, tookMs } = await requests.drain(server, config.API_SHUTDOWN_GRACE_MS);
    if (cut) log.warn('api shutdown grace period over: requests cut', { cut });
    await deps.close();
    log.info('api stopped', { drainedMs: tookMs });
    process.exit(0);
  };
  process.once('SIGINT', (s) => void stop(s));
  process.once('SIGTERM', (s) => void stop(s));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
