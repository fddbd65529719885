/** Builds the engine set from the settings: fetch always; remote when BROWSER_ENGINE_URL is set; local_browser always as the last browser; the proxy pools. */
import type { RequiredFor } from '../../core/config.js';
import type { BrowserPool } from '../../browser/pool.js';
import { egressPolicyFrom } from '../../egress/policy.js';
import type { EngineSet } from './chain.js';
import { ProxyPools } from '../../core/proxy-pools.js';
import { fetchEngine } from './fetch.js';
import { localBrowserEngine } from './local-browser.js';
import { remoteEngine } from './remote.js';

export function createEngineSet(config: RequiredFor<'worker'>, localPool: BrowserPool): EngineSet {
  const browsers = [
    ...(config.BROWSER_ENGINE_URL ? [remoteEngine({ baseUrl: config.BROWSER_ENGINE_URL, token: config.BROWSER_ENGINE_TOKEN })] : []),
    localBrowserEngine(localPool),
  ];
  return { ...fetchOnlyEngineSet(config), browsers };
}

/** The engine set without browsers: where pages never need one (the frontier bench, lane tests with their own page pipeline). */
export function fetchOnlyEngineSet(config: RequiredFor<'worker'>): EngineSet {
  return { fetch: fetchEngine({ policy: egressPolicyFrom(config), userAgent: config.SERVICE_USER_AGENT }), browsers: [], proxies: ProxyPools.fromSettings(config, config.PROXY_URLS_BY_COUNTRY) };
}
