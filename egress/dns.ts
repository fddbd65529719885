/**
 * Resolving through the operator's DNS servers (DNS_SERVERS) instead of getaddrinfo: A and AAAA
 * queries to those servers only, with no /etc/hosts, no search domains and no cache of our own.
 * The result feeds `resolveAndCheck` like any resolver's, so every answer is checked and only the
 * checked addresses are connected to.
 */
import { Resolver } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import type { LookupFn, ResolvedAddress } from './resolve.js';

/**
 * Parse a comma-separated server list: `a.b.c.d`, `a.b.c.d:port`, `[v6]` or `[v6]:port` (port
 * 1-65535, default 53). Returns entries in the form `Resolver#setServers` takes. Throws TypeError
 * naming the bad entry.
 */
export function parseDnsServers(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(entry);
      const [, v6, v4, port] = match ?? [];
      const okAddress = v6 !== undefined ? isIPv6(v6) : v4 !== undefined && isIPv4(v4);
      if (!okAddress || (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535))) {
        throw new TypeError(`${JSON.stringify(entry)} is not a DNS server address: use a.b.c.d, a.b.c.d:port, [v6] or [v6]:port`);
      }
      return entry;
    });
}

export interface ResolverOptions {
  /** Per query attempt, ms. Default 2,500. */
  timeoutMs?: number;
  /** Attempts per server before giving up. Default 2. */
  tries?: number;
}

// "The name has no records of this type" or "no such name": not a resolver failure.
const emptyCodes = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * A `LookupFn` asking only `servers` (from `parseDnsServers`). A and AAAA are asked together;
 * IPv4 answers come first, so a host without an IPv6 route does not wait for a v6 connect to fail
 * first. One family failing while the other answers is fine: only answers are ever connected to.
 * When neither answers, a not-found from both is rethrown as such (resolveAndCheck: reason `dns`),
 * any other error (timeout, SERVFAIL, refused) as the transient failure it is.
 */
export function resolverLookup(servers: readonly string[], options: ResolverOptions = {}): LookupFn {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_500, tries: options.tries ?? 2 });
  resolver.setServers(servers);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const answers: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (answers.length) return answers;
    const errors = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [r.reason as NodeJS.ErrnoException] : []));
    throw errors.find((e) => !emptyCodes.has(e.code ?? '')) ?? errors[0] ?? Object.assign(new Error(`No addresses for ${hostname}`), { code: 'ENODATA' });
  };
}
