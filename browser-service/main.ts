/**
 * The browser service process (PORT, default 3002). On SIGTERM it stops taking renders, lets the
 * ones in flight finish, then closes Chromium.
 */
import { ProxyPools } from '../core/proxy-pools.js';
import { loadConfigOrExit } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { startBrowserRuntime } from '../browser/runtime.js';
import { createBrowserApp } from './server.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit('browser');
  const log = createLogger({ name: 'browser-service', level: config.LOG_LEVEL, secrets: [config.BROWSER_ENGINE_TOKEN] });
  if (config.ALLOW_PRIVATE_ADDRESSES) log.warn('ALLOW_PRIVATE_ADDRESSES is on: the browser may reach loopback and private networks. Development only.');
  const browser = await startBrowserRuntime(config);
  const { pool } = browser;
  let draining = false;
  const server = createBrowserApp({ pool, token: config.BROWSER_ENGINE_TOKEN, metricsToken: config.METRICS_TOKEN, isDraining: () => draining, proxies: ProxyPools.fromSettings(config, config.PROXY_URLS_BY_COUNTRY) }).listen(config.PORT, config.BROWSER_SERVICE_HOST, () =>
    log.info('browser service listening', { url: `http://${config.BROWSER_SERVICE_HOST}:${config.PORT}`, auth: Boolean(config.BROWSER_ENGINE_TOKEN) }),
  );
  if (!config.BROWSER_ENGINE_TOKEN && config.NODE_ENV === 'production') {
    log.warn('BROWSER_ENGINE_TOKEN is not set: anyone who can reach this port can render pages. Set it when the service is exposed.');
  }
  const stop = async (signal: string) => {
    log.info('browser service draining', { signal });
    draining = true;
    server.close();
    // server.close() resolves once in-flight requests are answered.
    await new Promise<void>((resolve) => server.once('close', () => resolve()));
    await browser.close();
    process.exit(0);
  };
  process.once('SIGINT', (s) => void stop(s));
  process.once('SIGTERM', (s) => void stop(s));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
