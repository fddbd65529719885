/**
 * A browser with its egress proxy: a pool whose Chromium routes every request through the proxy
 * that applies the URL safety policy. Chromium starts on the first page that needs it. Used by the
 * browser service and, as the `local_browser` engine, by workers.
 */
import { egressPolicyFrom } from '../egress/policy.js';
import { startEgressProxy } from '../egress/proxy.js';
import type { Config } from '../core/config.js';
import { BrowserPool } from './pool.js';

export interface BrowserRuntime {
  pool: BrowserPool;
  close(): Promise<void>;
}

type BrowserSettings = Pick<Config, 'ALLOW_PRIVATE_ADDRESSES' | 'EGRESS_ALLOW_CIDRS' | 'DNS_SERVERS' | 'CHROMIUM_PATH' | 'PLAYWRIGHT_MAX_CONTEXTS' | 'BROWSER_MAX_USES_PER_CONTEXT' | 'BROWSER_IDLE_TIMEOUT_MS'>;

export async function startBrowserRuntime(config: BrowserSettings): Promise<BrowserRuntime> {
  const proxy = await startEgressProxy(egressPolicyFrom(config));
  const pool = new BrowserPool({
    chromiumPath: config.CHROMIUM_PATH,
    maxContexts: config.PLAYWRIGHT_MAX_CONTEXTS,
    maxUsesPerContext: config.BROWSER_MAX_USES_PER_CONTEXT,
    idleTimeoutMs: config.BROWSER_IDLE_TIMEOUT_MS,
    proxyUrl: proxy.url,
  });
  return {
    pool,
    async close() {
      await pool.close();
      await proxy.close();
    },
  };
}
