/**
 * A browser with its egress proxy: a pool whose Chromium routes every request through the proxy
 * that applies the URL safety policy (one more listener per operator proxy contexts go out through). Chromium starts on the first page that needs it. Used by the
 * browser service and, as the `local_browser` engine, by workers.
 */
import { egressPolicyFrom } from '../egress/policy.js';
import { startEgressProxy, type EgressProxy } from '../egress/proxy.js';
import type { ProxyMember } from '../core/proxy-pools.js';
import type { Config } from '../core/config.js';
import { BrowserPool } from './pool.js';
import { watchBrowserContexts } from '../telemetry/metrics.js';

export interface BrowserRuntime {
  pool: BrowserPool;
  close(): Promise<void>;
}

type BrowserSettings = Pick<Config, 'ALLOW_PRIVATE_ADDRESSES' | 'EGRESS_ALLOW_CIDRS' | 'DNS_SERVERS' | 'CHROMIUM_PATH' | 'PLAYWRIGHT_MAX_CONTEXTS' | 'BROWSER_MAX_USES_PER_CONTEXT' | 'BROWSER_IDLE_TIMEOUT_MS' | 'ADBLOCK_LISTS'>;

export async function startBrowserRuntime(config: BrowserSettings): Promise<BrowserRuntime> {
  const policy = egressPolicyFrom(config);
  const proxy = await startEgressProxy(policy);
  // One egress listener per operator proxy a context goes out through, started when first needed.
  const routes = new Map<string, Promise<EgressProxy>>();
  const routeProxyUrl = async (via: ProxyMember) => {
    let route = routes.get(via.url.href);
    if (!route) routes.set(via.url.href, (route = startEgressProxy({ ...policy, via })));
    return (await route).url;
  };
  const pool = new BrowserPool({
    chromiumPath: config.CHROMIUM_PATH,
    maxContexts: config.PLAYWRIGHT_MAX_CONTEXTS,
    maxUsesPerContext: config.BROWSER_MAX_USES_PER_CONTEXT,
    idleTimeoutMs: config.BROWSER_IDLE_TIMEOUT_MS,
    proxyUrl: proxy.url,
    routeProxyUrl,
    ...(config.ADBLOCK_LISTS ? { filterLists: config.ADBLOCK_LISTS.split(',').map((p) => p.trim()).filter(Boolean) } : {}),
  });
  const unwatch = watchBrowserContexts(() => {
    const { contexts, busy, waiting } = pool.stats();
    return { busy, idle: contexts - busy, waiting };
  });
  return {
    pool,
    async close() {
      unwatch();
      await pool.close();
      await proxy.close();
      await Promise.all([...routes.values()].map(async (r) => (await r.catch(() => undefined))?.close()));
    },
  };
}
