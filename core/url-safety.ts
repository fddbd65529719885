/**
 * Target URL safety, the pure half (DESIGN.md "Target URL safety"; spec/interface.md).
 * Everything here is decidable without I/O: URL shape, scheme, port, name rules and the address
 * ranges. The I/O half (DNS, sockets, the undici dispatcher, the browser's proxy) lives in
 * `egress/` and calls into this file, so one table decides for every outbound path.
 *
 * Policy in one paragraph: only http(s) URLs without embedded credentials, on a port that is not
 * on the Fetch standard's "bad port" list, whose host is neither a local/internal name nor (after
 * DNS) any non-public address. `allowPrivate` (config ALLOW_PRIVATE_ADDRESSES, development only)
 * lifts the name and address rules except cloud metadata, which is refused always.
 */
import { classifierAllowing, classifyAddress, parseCidrList, parseHostLiteral, type Cidr, type HostLiteral } from './address-classes.js';
import type { Config } from './config.js';

export { classifierAllowing, classifyAddress, parseCidrList, parseHostLiteral, type Cidr, type HostLiteral };

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

/** The settings the address rules read; the DNS half (DNS_SERVERS) is `egressPolicyFrom`'s. */
export type AddressSettings = Pick<Config, 'ALLOW_PRIVATE_ADDRESSES' | 'EGRESS_ALLOW_CIDRS'>;

const fromSettings = new WeakMap<AddressSettings, SafetyOptions>();

/**
 * The address policy from the configuration: ALLOW_PRIVATE_ADDRESSES and EGRESS_ALLOW_CIDRS. Built
 * once per config object (callers may ask per request). The API uses it for its early checks;
 * everything that connects uses `egressPolicyFrom` (egress/policy.ts), which adds the
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
