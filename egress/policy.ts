/**
 * The egress policy from the configuration, in one place, so every outbound path (fetch engine,
 * browser proxy, webhooks, crawl discovery, map) applies the same rules: ALLOW_PRIVATE_ADDRESSES
 * and EGRESS_ALLOW_CIDRS (the address half, `safetyOptionsFrom`, which the API's early checks use
 * too) and DNS_SERVERS (the resolver).
 */
import type { Config } from '../core/config.js';
import { safetyOptionsFrom } from '../core/url-safety.js';
import { parseDnsServers, resolverLookup } from './dns.js';
import type { EgressPolicy } from './resolve.js';

export type EgressSettings = Pick<Config, 'ALLOW_PRIVATE_ADDRESSES' | 'EGRESS_ALLOW_CIDRS' | 'DNS_SERVERS'>;

const built = new WeakMap<EgressSettings, EgressPolicy>();

/**
 * `{ allowPrivate, classify?, lookup? }` for `config`. Built once per config object, so callers
 * share one resolver and `safeFetch` one connection pool per policy. Throws TypeError naming the
 * variable when a list is malformed (loadConfig has already refused that at boot).
 */
export function egressPolicyFrom(config: EgressSettings): EgressPolicy {
  let policy = built.get(config);
  if (!policy) {
    let servers: string[];
    try {
      servers = parseDnsServers(config.DNS_SERVERS ?? '');
    } catch (err) {
      throw new TypeError(`DNS_SERVERS: ${(err as Error).message}`);
    }
    const addressRules = safetyOptionsFrom(config);
    policy = Object.freeze(servers.length ? { ...addressRules, lookup: resolverLookup(servers) } : addressRules);
    built.set(config, policy);
  }
  return policy;
}
