/**
 * The client's address, for sign-in throttling. Without TRUST_PROXY (the default) it is the
 * socket's peer: `X-Forwarded-For` is anyone's to write. With TRUST_PROXY:
 * - a hop count `N`: the N proxies nearest us each appended the address they saw, so the client is
 *   the Nth address from the right of `X-Forwarded-For` (its leftmost when it has fewer);
 * - a list of CIDRs (`10.0.0.0/8,fd00::/8`): the proxies are the addresses in them; walking back
 *   from the socket's peer through `X-Forwarded-For`, the client is the first one not in the list.
 */
import { BlockList, isIPv6 } from 'node:net';

export type TrustProxy = { hops: number } | { proxies: BlockList } | undefined;

/** TRUST_PROXY's value, parsed; throws on a CIDR that is not one (the config pattern lets through what it cannot check). */
export function trustProxyOf(setting: string | undefined): TrustProxy {
  if (!setting) return undefined;
  if (/^\d+$/.test(setting)) return { hops: Number(setting) };
  const proxies = new BlockList();
  for (const cidr of setting.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [net, prefix] = cidr.split('/');
    proxies.addSubnet(net!, Number(prefix), isIPv6(net!) ? 'ipv6' : 'ipv4');
  }
  return { proxies };
}

const bare = (address: string) => address.replace(/^::ffff:(?=\d+\.)/, '');
const family = (address: string) => (isIPv6(address) ? 'ipv6' : 'ipv4');

export function clientAddress(socketAddress: string, forwardedFor: string | undefined, trust: TrustProxy): string {
  const peer = bare(socketAddress);
  if (!trust || !forwardedFor) return peer;
  const chain = [...forwardedFor.split(',').map((s) => bare(s.trim())).filter(Boolean), peer];
  if ('hops' in trust) return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  for (let i = chain.length - 1; i > 0; i--) {
    if (!trust.proxies.check(chain[i]!, family(chain[i]!))) return chain[i]!;
  }
  return chain[0]!;
}
