/**
 * Target URL safety, the pure half (DESIGN.md "Target URL safety"; spec/interface.md).
 * Everything here is decidable without I/O: URL shape, scheme, port, name rules and the address
 * ranges. The I/O half (DNS, sockets, the undici dispatcher, the browser's proxy) lives in
 * `activities/egress/` and calls into this file, so one table decides for every outbound path.
 *
 * Policy in one paragraph: only http(s) URLs without embedded credentials, on a port that is not
 * on the Fetch standard's "bad port" list, whose host is neither a local/internal name nor (after
 * DNS) any non-public address. `allowPrivate` (config ALLOW_PRIVATE_ADDRESSES, development only)
 * lifts the name and address rules except cloud metadata, which is refused always.
 */
import ipaddr from 'ipaddr.js';
import type { Config } from './config.js';

/**
 * Why a target was refused; stable strings (API codes and skip counters are keyed on them).
 * Syntax: invalid_url (not absolute / no host), scheme (not http/https), credentials (user:pass@),
 * port (non-web protocol port). Names: hostname (local/internal name). Address classes: loopback …
 * reserved; metadata (cloud instance metadata, refused even with allowPrivate). dns: no such name.
 */
export type BlockReason =
  | 'invalid_url' | 'scheme' | 'credentials' | 'port' | 'hostname'
  | 'loopback' | 'private' | 'link_local' | 'unique_local' | 'cgnat' | 'multicast' | 'unspecified' | 'broadcast' | 'reserved'
  | 'metadata' | 'dns';

export type AddressVerdict = { allowed: true; reason?: undefined } | { allowed: false; reason: BlockReason };
export type AddressClassifier = (ip: string) => AddressVerdict;

export interface SafetyOptions {
  /** config.ALLOW_PRIVATE_ADDRESSES; always passed explicitly so the safe side is a deliberate choice. */
  allowPrivate: boolean;
  /**
   * Replaces `classifyAddress`: the operator's allow list (`classifierAllowing`, EGRESS_ALLOW_CIDRS,
   * set by `safetyOptionsFrom`), or in unit tests a stand-in that lets one loopback fixture play a
   * public host.
   */
  classify?: AddressClassifier;
}

const reasonText: Record<BlockReason, string> = {
  invalid_url: 'it is not a valid absolute URL',
  scheme: 'only http:// and https:// URLs can be fetched',
  credentials: 'URLs carrying a user name or password are not accepted',
  port: 'that port is reserved for non-web protocols',
  hostname: 'the host is a local or internal name',
  loopback: "the host points at the service's own machine (loopback)",
  private: 'the host is on a private network',
  link_local: 'the host is a link-local address',
  unique_local: 'the host is an IPv6 unique-local (private) address',
  cgnat: 'the host is in the carrier-grade NAT shared address space',
  multicast: 'the host is a multicast address',
  unspecified: 'the host is the unspecified address (0.0.0.0 or ::)',
  broadcast: 'the host is the broadcast address',
  reserved: 'the host is in a reserved, documentation or benchmarking range',
  metadata: 'the host is a cloud metadata endpoint',
  dns: 'the host name does not resolve',
};

const publicAdvice =
  'Only publicly reachable addresses can be fetched: use a public URL. Operators of a self-hosted ' +
  'deployment can allow private targets for development with ALLOW_PRIVATE_ADDRESSES=true.';
const reasonAdvice: Partial<Record<BlockReason, string>> = {
  invalid_url: 'Send a full URL such as https://example.com/page.',
  scheme: 'Use an http:// or https:// URL.',
  credentials: 'Remove the user:password@ part and send credentials in a request header instead.',
  port: 'Use a web server port such as 80, 443 or 8080.',
  metadata: 'Metadata endpoints are refused even when private addresses are allowed.',
  dns: 'Check the host name is spelled correctly and resolves in public DNS.',
};

/**
 * The one error for a refused target. `reason` is stable (callers map it to API codes and skip
 * counters); `url` is what was refused (a bare host name when refused below the URL level).
 * The resolved `address` is kept for logs but never put in the message, which callers may show to
 * the requester: echoing it would let anyone map the operator's internal DNS.
 */
export class UnsafeUrlError extends Error {
  override readonly name = 'UnsafeUrlError';
  readonly address?: string;
  /** Set when a redirect led here: 1 for the first redirect's target, and so on. */
  readonly hop?: number;

  constructor(
    readonly reason: BlockReason,
    readonly url: string,
    details: { address?: string; hop?: number; from?: string; cause?: unknown } = {},
  ) {
    const shown = url.length > 200 ? `${url.slice(0, 200)}…` : url;
    const via = details.hop ? ` (redirect ${details.hop}${details.from ? ` from ${details.from}` : ''})` : '';
    super(`Refused ${shown}${via}: ${reasonText[reason]}. ${reasonAdvice[reason] ?? publicAdvice}`, {
      cause: details.cause,
    });
    this.address = details.address;
    this.hop = details.hop;
  }

  /** The same refusal, re-labelled with the redirect hop that led to it. */
  atHop(url: string, hop: number, from: string): UnsafeUrlError {
    return new UnsafeUrlError(this.reason, url, { address: this.address, hop, from, cause: this });
  }
}

// ---------------------------------------------------------------------------------------------
// URL shape

// "host:8080/x" looks like a scheme to a naive parser; a scheme is never followed by digits only.
const schemeRe = /^[a-z][a-z0-9+.-]*:/i;
const hostPortRe = /^[^/:?#]+:\d+(?:[/?#]|$)/;

/**
 * Parse a caller-supplied target. A missing scheme becomes https:// (spec: scrape `url`);
 * "//host/x" likewise. Only http and https survive; credentials are refused because undici's
 * fetch cannot send them, they would end up stored in document metadata, and `a@b` spellings are a
 * staple of SSRF payloads meant to confuse parsers.
 */
export function normalizeTargetUrl(input: string): URL {
  const text = input.trim();
  const hasScheme = schemeRe.test(text) && !hostPortRe.test(text);
  const withScheme = hasScheme ? text : `https://${text.replace(/^\/\//, '')}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UnsafeUrlError('invalid_url', text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrlError('scheme', url.href);
  if (url.username || url.password) throw new UnsafeUrlError('credentials', redactCredentials(url));
  if (!url.hostname) throw new UnsafeUrlError('invalid_url', url.href);
  return url;
}

function redactCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

// Fetch standard "bad ports" plus 0: ports of mail, file, chat and other non-web protocols that
// an HTTP request could be smuggled into. undici's fetch and Chromium refuse them too; checking
// here gives one clear error and covers the proxy's CONNECT tunnels.
const badPorts = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512,
  513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719,
  1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679,
  6697, 10080,
]);

export function isBadPort(port: number): boolean {
  return badPorts.has(port) || !Number.isInteger(port) || port > 65535;
}

/**
 * Everything checkable without DNS: shape, scheme, credentials, port, host name rules, and the
 * address class when the host is an IP literal. Returns the normalised URL. A host name that
 * passes still has to pass `resolveAndCheck` at connect time.
 */
export function checkUrlSyntax(input: string | URL, options: SafetyOptions): URL {
  const url = normalizeTargetUrl(typeof input === 'string' ? input : input.href);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (isBadPort(port)) throw new UnsafeUrlError('port', url.href);
  checkHost(url.hostname, options, url.href);
  return url;
}

// ---------------------------------------------------------------------------------------------
// Host literals and names

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

/**
 * Canonical bare host as the URL parser sees it (IDNA-mapped, lower case, IPv4 spellings folded),
 * without brackets or trailing dots. Raw hosts (CONNECT authority, a dispatcher's hostname) go
 * through here so the name rules see the same string a browser would.
 */
export function canonicalHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const literal = parseHostLiteral(bare);
  if (literal) return literal.address;
  let hostname: string;
  try {
    hostname = new URL(`http://${bare}/`).hostname;
  } catch {
    throw new UnsafeUrlError('invalid_url', host);
  }
  const stripped = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  if (!stripped) throw new UnsafeUrlError('invalid_url', host);
  return parseHostLiteral(stripped)?.address ?? stripped;
}

// Names that reach instance metadata without DNS tricks; refused even with allowPrivate.
const metadataNames = new Set([
  'metadata', // GCP short name via search domain
  'metadata.google.internal',
  'metadata.goog',
  'instance-data', // AWS
  'instance-data.ec2.internal',
]);
// Suffixes that only ever resolve inside someone's network: RFC 6761 localhost, RFC 6762 mDNS,
// ICANN's private-use .internal (2024), RFC 8375 home networks, and the common hosts-file domain.
const localSuffixes = ['internal', 'local', 'localdomain', 'home.arpa'];

/**
 * Name rules, applied before any DNS. A single-label name ("redis", "api") is refused because
 * resolv.conf search domains and container networks turn it into an internal host.
 */
export function classifyHostname(name: string): AddressVerdict {
  const host = name.toLowerCase().replace(/\.+$/, '');
  if (metadataNames.has(host)) return { allowed: false, reason: 'metadata' };
  if (host === 'localhost' || host.endsWith('.localhost')) return { allowed: false, reason: 'loopback' };
  if (!host.includes('.')) return { allowed: false, reason: 'hostname' };
  if (localSuffixes.some((s) => host === s || host.endsWith(`.${s}`))) return { allowed: false, reason: 'hostname' };
  return { allowed: true };
}

/** Whether a verdict stands under the policy: metadata is refused even when private is allowed. */
export function isPermitted(verdict: AddressVerdict, allowPrivate: boolean): boolean {
  return verdict.allowed || (allowPrivate && verdict.reason !== 'metadata');
}

/**
 * Check a raw host (name or literal) without DNS. Returns the canonical host and, for literals,
 * the parsed address, so the caller knows whether a lookup is still needed. Throws UnsafeUrlError.
 */
export function checkHost(
  host: string,
  options: SafetyOptions,
  url: string = host,
): { host: string; literal: HostLiteral | null } {
  const canonical = canonicalHost(host);
  const literal = parseHostLiteral(canonical);
  const verdict = literal ? (options.classify ?? classifyAddress)(literal.address) : classifyHostname(canonical);
  if (!isPermitted(verdict, options.allowPrivate)) {
    throw new UnsafeUrlError(verdict.reason as BlockReason, url, { address: literal?.address });
  }
  return { host: canonical, literal };
}

/** Check one resolved address; throws UnsafeUrlError naming `url` (the host or URL it came from). */
export function checkAddress(ip: string, options: SafetyOptions, url: string): HostLiteral {
  const literal = parseHostLiteral(ip);
  if (!literal) throw new TypeError(`Resolver returned something that is not an IP address: ${JSON.stringify(ip)}`);
  const verdict = (options.classify ?? classifyAddress)(literal.address);
  if (!isPermitted(verdict, options.allowPrivate)) {
    throw new UnsafeUrlError(verdict.reason as BlockReason, url, { address: literal.address });
  }
  return literal;
}

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
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

/** The settings the address rules read; the DNS half (DNS_SERVERS) is `egressPolicyFrom`'s. */
export type AddressSettings = Pick<Config, 'ALLOW_PRIVATE_ADDRESSES' | 'EGRESS_ALLOW_CIDRS'>;

const fromSettings = new WeakMap<AddressSettings, SafetyOptions>();

/**
 * The address policy from the configuration: ALLOW_PRIVATE_ADDRESSES and EGRESS_ALLOW_CIDRS. Built
 * once per config object (callers may ask per request). The API uses it for its early checks;
 * everything that connects uses `egressPolicyFrom` (activities/egress/policy.ts), which adds the
 * resolver. Throws TypeError naming the variable when the list is malformed (loadConfig's pattern
 * has already refused that at boot for real processes).
 */
export function safetyOptionsFrom(config: AddressSettings): SafetyOptions {
  let options = fromSettings.get(config);
  if (!options) {
    let cidrs: Cidr[];
    try {
      cidrs = parseCidrList(config.EGRESS_ALLOW_CIDRS ?? '');
    } catch (err) {
      throw new TypeError(`EGRESS_ALLOW_CIDRS: ${(err as Error).message}`);
    }
    options = Object.freeze(cidrs.length ? { allowPrivate: config.ALLOW_PRIVATE_ADDRESSES, classify: classifierAllowing(cidrs) } : { allowPrivate: config.ALLOW_PRIVATE_ADDRESSES });
    fromSettings.set(config, options);
  }
  return options;
}
