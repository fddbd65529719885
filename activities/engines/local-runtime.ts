/**
 * The worker's own browser: an egress proxy plus a pool whose Chromium routes everything through
 * it. Chromium starts on the first page that needs it, not at worker boot.
 */
import { startEgressProxy } from '../egress/proxy.js';
import { BrowserPool } from '../../browser-service/pool.js';
import type { RequiredFor } from '../../core/config.js';

export interface LocalBrowser {
  pool: BrowserPool;
  close(): Promise<void>;
}

export async function startLocalBrowser(config: RequiredFor<'worker'>): Promise<LocalBrowser> {
  const proxy = await startEgressProxy({ allowPrivate: config.ALLOW_PRIVATE_ADDRESSES });
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
