/**
 * The engine chain through the operator's proxies (README "Proxies"): the pool the request's
 * `proxy` and `location.country` choose, the member's health reported back, and `auto`'s second try
 * through the stealth pool when the site turned the first away.
 */
import type { ProxyMember } from '../../core/proxy-pools.js';
import type { PageOptions } from '../../core/schemas/scrape.js';
import { runEngines, type EngineSet } from '../engines/chain.js';
import { EngineError, type EngineRequest, type EngineResult } from '../engines/types.js';

/** Sites turning a client away: 401, 403, 429, or a bot challenge page (Cloudflare's and the like). */
function looksBlocked(result: EngineResult): boolean {
  if ([401, 403, 429].includes(result.statusCode)) return true;
  const head = typeof result.body === 'string' ? result.body.slice(0, 20_000) : Buffer.from(result.body.subarray(0, 20_000)).toString('latin1');
  return /cf-chl-|challenge-platform|<title>\s*(Just a moment|Attention Required)/i.test(head);
}

/** What the request's own doing is, not the proxy's: these say nothing about the member's health. */
const notTheProxy = (err: unknown) => err instanceof EngineError && (err.kind === 'blocked' || err.kind === 'invalid' || err.kind === 'action');

/** The page through the chosen member (or directly, without proxies); `proxy` is the member that answered. */
export async function fetchThroughProxies(engines: EngineSet, request: Omit<EngineRequest, 'proxy'>, options: Pick<PageOptions, 'proxy' | 'location'>): Promise<{ fetched: EngineResult; proxy?: ProxyMember }> {
  const { proxies } = engines;
  // auto with somewhere to escalate to: a refusal through basic goes to stealth next, not to a browser through basic.
  const escalates = options.proxy === 'auto' && proxies.pool('stealth').length > 0;
  const through = async (proxy: ProxyMember | undefined, first: boolean) => {
    try {
      const fetched = await runEngines(engines, { ...request, proxy, stopOnRefusal: first && escalates && proxy?.tier !== 'stealth' });
      if (proxy) proxies.report(proxy, true);
      return fetched;
    } catch (err) {
      if (proxy && !notTheProxy(err)) proxies.report(proxy, false);
      throw err;
    }
  };
  let proxy = proxies.pick(options.proxy === 'stealth' || options.proxy === 'enhanced' ? 'stealth' : 'basic', options.location?.country);
  let fetched = await through(proxy, true);
  if (escalates && proxy?.tier !== 'stealth' && looksBlocked(fetched) && Date.now() < request.deadline - 250) {
    proxy = proxies.pick('stealth');
    fetched = await through(proxy, false);
  }
  return { fetched, ...(proxy ? { proxy } : {}) };
}
