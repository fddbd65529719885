/**
 * Address classes for the URL safety policy (core/url-safety.ts): which IPv4/IPv6 ranges are
 * loopback, private, link-local, metadata and so on, how embedded IPv4 addresses (mapped, NAT64,
 * 6to4, Teredo) are judged, and the operator's allow list (EGRESS_ALLOW_CIDRS). Pure: no I/O.
 */
import ipaddr from 'ipaddr.js';
import type { AddressClassifier, AddressVerdict, BlockReason } from './url-safety.js';

export interface HostLiteral {
  family: 4 | 6;
  /** Canonical text: dotted quad, or RFC 5952 IPv6 without brackets. */
  address: string;
}

/**
 * Recognise every spelling of an IP literal that the WHATWG URL parser or inet_aton accepts:
 * 1 to 4 dot-separated parts, each decimal, 0x-hex or 0-octal, the last part filling the remaining
 * bytes (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`), one trailing dot; bracketed or bare IPv6,
 * including dotted IPv4 tails. Node's `new URL()` already canonicalises the IPv4 forms in http(s)
 * URLs, but hosts also arrive raw (proxy CONNECT lines, resolver answers), and getaddrinfo would
 * happily turn `0x7f.1` into 127.0.0.1 if it were treated as a name.
 */
export function parseHostLiteral(host: string): HostLiteral | null {
  const h = host.trim();
  if (h.startsWith('[') && h.endsWith(']')) return parseIPv6(h.slice(1, -1));
  if (h.includes(':')) return parseIPv6(h);
  const octets = parseIPv4(h);
  return octets ? { family: 4, address: octets.join('.') } : null;
}

function parseIPv6(text: string): HostLiteral | null {
  // Zone ids (fe80::1%eth0) are not valid in URLs; refusing them keeps "which interface" out of it.
  if (text.includes('%') || !ipaddr.IPv6.isValid(text)) return null;
  return { family: 6, address: ipaddr.IPv6.parse(text).toRFC5952String() };
}

function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIPv4Number(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => (value += n * 256 ** (3 - i)));
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

function parseIPv4Number(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

// Address ranges. First match wins, so exact metadata addresses precede the ranges holding them.

type Rule = [range: [ipaddr.IPv4 | ipaddr.IPv6, number], reason: BlockReason];
const rules = (table: [string, BlockReason][]): Rule[] => table.map(([cidr, reason]) => [ipaddr.parseCIDR(cidr), reason]);

const ipv4Rules = rules([
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack, DigitalOcean, ...
  ['169.254.170.2/32', 'metadata'], // AWS ECS task metadata
  ['169.254.170.23/32', 'metadata'], // AWS EKS pod identity
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud
  ['192.0.0.192/32', 'metadata'], // Oracle Cloud (legacy)
  ['168.63.129.16/32', 'metadata'], // Azure WireServer: a public address only reachable from inside Azure
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified'], // Linux connects 0.0.0.0 to the local host
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // TEST-NET-1
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // TEST-NET-2
  ['203.0.113.0/24', 'reserved'], // TEST-NET-3
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

// Checked before the embeddings below, which would otherwise claim :: and ::1.
const ipv6First = rules([
  ['fd00:ec2::254/128', 'metadata'], // AWS IMDS over IPv6
  ['fd00:ec2::23/128', 'metadata'], // AWS EKS pod identity over IPv6
  ['fd20:ce::254/128', 'metadata'], // GCP metadata over IPv6
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
]);
const ipv6Rules = rules([
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'], // deprecated site-local: IPv6's original private space
  ['fc00::/7', 'unique_local'],
  ['ff00::/8', 'multicast'],
  ['100::/64', 'reserved'], // discard-only
  ['2001:2::/48', 'reserved'], // benchmarking
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation (RFC 9637)
  ['2001:10::/28', 'reserved'], // ORCHID
  ['2001:20::/28', 'reserved'], // ORCHIDv2
  ['5f00::/16', 'reserved'], // SRv6 SIDs
]);
const globalUnicast = ipaddr.parseCIDR('2000::/3');

// IPv6 ranges that carry an IPv4 address inside; the packet ends up at (or is relayed towards) the
// embedded IPv4 host, so that host decides. Each returns the embedded addresses to check.
const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
type Embedding = { range: [ipaddr.IPv6, number]; extract: (p: number[]) => ipaddr.IPv4[]; alwaysReserved?: true };
const embeddings: Embedding[] = [
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), extract: (p) => [v4(p[6], p[7])] }, // IPv4-mapped
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), extract: (p) => [v4(p[6], p[7])] }, // IPv4-translated
  { range: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), extract: (p) => [v4(p[6], p[7])] }, // NAT64 well-known
  {
    // NAT64 local-use (RFC 8215): the operator picks the prefix length, so check both the /48 and
    // the /96 layout, each where its bits are in use (an all-zero field is that layout's absence).
    range: ipaddr.IPv6.parseCIDR('64:ff9b:1::/48'),
    extract: (p) => {
      const layouts = [p[3] || p[4] || p[5] ? v4(p[3], ((p[4] & 255) << 8) | (p[5] >> 8)) : null, p[6] || p[7] ? v4(p[6], p[7]) : null];
      const used = layouts.filter((a): a is ipaddr.IPv4 => a !== null);
      return used.length ? used : [v4(0, 0)];
    },
  },
  { range: ipaddr.IPv6.parseCIDR('2002::/16'), extract: (p) => [v4(p[1], p[2])] }, // 6to4
  // Teredo: server address, and the client address stored inverted.
  { range: ipaddr.IPv6.parseCIDR('2001::/32'), extract: (p) => [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)] },
  // IPv4-compatible (deprecated): never legitimate, refused even when the embedded host is public.
  { range: ipaddr.IPv6.parseCIDR('::/96'), extract: (p) => [v4(p[6], p[7])], alwaysReserved: true },
];

function firstMatch(addr: ipaddr.IPv4 | ipaddr.IPv6, table: Rule[]): AddressVerdict | undefined {
  const hit = table.find(([range]) => addr.match(range));
  return hit && { allowed: false, reason: hit[1] };
}

const classifyIPv4 = (addr: ipaddr.IPv4): AddressVerdict => firstMatch(addr, ipv4Rules) ?? { allowed: true };

function classifyIPv6(addr: ipaddr.IPv6): AddressVerdict {
  const first = firstMatch(addr, ipv6First);
  if (first) return first;
  const embedding = embeddings.find((e) => addr.match(e.range));
  if (embedding) {
    const blocked = embedding.extract(addr.parts).map(classifyIPv4).find((v) => !v.allowed);
    if (blocked) return blocked;
    return embedding.alwaysReserved ? { allowed: false, reason: 'reserved' } : { allowed: true };
  }
  const ranged = firstMatch(addr, ipv6Rules);
  if (ranged) return ranged;
  // Only global unicast is ever routed on the public internet; everything else is reserved.
  return addr.match(globalUnicast) ? { allowed: true } : { allowed: false, reason: 'reserved' };
}

/**
 * The address class, regardless of policy (callers combine it with `isPermitted`). Accepts any
 * spelling `parseHostLiteral` does; throws TypeError for something that is not an IP at all.
 */
export function classifyAddress(ip: string): AddressVerdict {
  const literal = parseHostLiteral(ip);
  if (!literal) throw new TypeError(`Not an IP address: ${JSON.stringify(ip)}`);
  return literal.family === 4
    ? classifyIPv4(ipaddr.IPv4.parse(literal.address))
    : classifyIPv6(ipaddr.IPv6.parse(literal.address));
}

// The operator's allow list (EGRESS_ALLOW_CIDRS)

/** A parsed range: network address and prefix length, as ipaddr.js matches them. */
export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parse a comma-separated list of ranges ("10.20.0.0/16, fd12:3456::/48"). An address without
 * "/n" is that address alone. IPv4 must be dotted decimal (no 0x or leading-zero spellings, which
 * other tools read differently). Empty text gives []. Throws TypeError naming the bad entry.
 */
export function parseCidrList(text: string): Cidr[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [address = '', prefix, extra] = entry.split('/');
      const isV4 = ipaddr.IPv4.isValidFourPartDecimal(address);
      const isV6 = !isV4 && !address.includes('%') && ipaddr.IPv6.isValid(address);
      const max = isV4 ? 32 : 128;
      const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if ((!isV4 && !isV6) || extra !== undefined || !(bits >= 0 && bits <= max)) {
        throw new TypeError(`${JSON.stringify(entry)} is not an IPv4 or IPv6 address with an optional /prefix (0-32 for IPv4, 0-128 for IPv6)`);
      }
      return [isV4 ? ipaddr.IPv4.parse(address) : ipaddr.IPv6.parse(address), bits];
    });
}

/**
 * `base` (by default `classifyAddress`), except that an address inside one of `cidrs` is allowed
 * whatever its class: an operator's deliberate exception for an internal site. Cloud metadata stays
 * refused even when listed, as with ALLOW_PRIVATE_ADDRESSES. An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) is the IPv4 host it reaches, so it matches the IPv4 ranges; other embeddings
 * (NAT64, 6to4) go through a relay and only match IPv6 ranges.
 */
export function classifierAllowing(cidrs: readonly Cidr[], base: AddressClassifier = classifyAddress): AddressClassifier {
  if (cidrs.length === 0) return base;
  return (ip) => {
    const verdict = base(ip);
    if (verdict.allowed || verdict.reason === 'metadata') return verdict;
    const literal = parseHostLiteral(ip);
    if (!literal) return verdict;
    let addr: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(literal.address);
    if (addr instanceof ipaddr.IPv6 && addr.isIPv4MappedAddress()) addr = addr.toIPv4Address();
    const listed = cidrs.some(([network, bits]) => network.kind() === addr.kind() && addr.match(network, bits));
    return listed ? { allowed: true } : verdict;
  };
}

