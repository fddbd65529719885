/**
 * Resolve once, check every answer. The addresses returned are the only ones a caller may connect
 * to: connecting by name again would give a rebinding DNS server a second, different answer.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { checkAddress, checkHost, UnsafeUrlError, type SafetyOptions } from '../core/url-safety.js';

export interface ResolvedAddress {
  /** Canonical IP text, safe to hand to net.connect without a further lookup. */
  address: string;
  family: 4 | 6;
}

/** A resolver: every address the name currently has. Tests inject fakes; the default is getaddrinfo. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export interface EgressPolicy extends SafetyOptions {
  /** Default `systemLookup` (dns.lookup, all answers, so /etc/hosts entries are checked too). */
  lookup?: LookupFn;
}

export const systemLookup: LookupFn = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// "This name has no addresses" is a property of the URL (not retryable); anything else
// (EAI_AGAIN, timeouts, SERVFAIL) is a transient resolver failure and is rethrown as is.
const notFoundCodes = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * Check `hostname` (name rules, or the address class of a literal), resolve it once, and check
 * every address: a name answering one public and one private address is refused, because the
 * connection could go to either. Returns the checked addresses in resolver order.
 * Throws UnsafeUrlError (reason from the address class, or 'dns' when the name does not exist).
 */
export async function resolveAndCheck(hostname: string, policy: EgressPolicy): Promise<ResolvedAddress[]> {
  const { host, literal } = checkHost(hostname, policy);
  if (literal) return [literal];
  let answers: ResolvedAddress[];
  try {
    answers = await (policy.lookup ?? systemLookup)(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code && notFoundCodes.has(code)) throw new UnsafeUrlError('dns', hostname, { cause: err });
    throw err;
  }
  if (answers.length === 0) throw new UnsafeUrlError('dns', hostname);
  return answers.map((a) => checkAddress(a.address, policy, hostname));
}
