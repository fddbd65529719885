/**
 * fetch() with the egress policy: redirects are followed here, not by undici, so each hop's URL is
 * checked (scheme, credentials, port, names) before it is requested, and its connection goes
 * through the checking dispatcher like the first one.
 */
import { fetch, Headers, type RequestInit, type Response } from 'undici';
import { checkUrlSyntax, classifyAddress, UnsafeUrlError, type AddressClassifier, type SafetyOptions } from '../core/url-safety.js';
import { createSafeDispatcher, type SafeAgent } from './dispatcher.js';
import type { ProxyMember } from '../core/proxy-pools.js';
import { systemLookup, type EgressPolicy, type LookupFn } from './resolve.js';

/** The policy fields (`egressPolicyFrom(config)`, spread in), plus how to fetch. */
export interface SafeFetchOptions extends EgressPolicy {
  /** Redirects followed before giving up with TooManyRedirectsError. Default 10; 0 follows none. */
  maxRedirects?: number;
  /**
   * A long-lived dispatcher from `createSafeDispatcher` (the way unit tests inject a resolver or
   * classifier). Its policy must agree with the fields above (`allowPrivate` equal; `classify` and
   * `lookup` equal where given) and drives the per-hop URL checks. Without one, a dispatcher shared
   * by every call with the same policy is used, so connections are reused.
   */
  dispatcher?: SafeAgent;
  /** Accept invalid TLS certificates (a scrape's skipTlsVerification); ignored when `dispatcher` is given. */
  insecureTls?: boolean;
  /** Through this operator proxy (./upstream.ts); ignored when `dispatcher` is given. */
  via?: ProxyMember;
}

export interface RedirectHop {
  from: string;
  to: string;
  status: number;
}

export interface SafeFetchResult {
  response: Response;
  /** The URL that produced `response`. */
  url: string;
  /** Every redirect followed, in order; empty when the first answer was final. */
  redirects: RedirectHop[];
}

export class TooManyRedirectsError extends Error {
  override readonly name = 'TooManyRedirectsError';
  constructor(
    readonly url: string,
    /** The redirects that were followed (`maxRedirects` of them). */
    readonly redirects: RedirectHop[],
    /** The redirect that was not followed. */
    readonly refused: { from: string; location: string },
  ) {
    const last = `${refused.from} redirected to ${refused.location}`;
    super(
      redirects.length === 0
        ? `${last}; redirects are not followed for this request.`
        : `Gave up after ${redirects.length} redirects starting at ${url} (${last}); the site is probably redirecting in a loop.`,
    );
  }
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
// Shared dispatchers by classifier, resolver, allowPrivate, insecureTls and proxy (the defaults stand for "not set").
// Weak keys: a policy's dispatcher lives as long as its functions do.
const shared = new WeakMap<AddressClassifier, WeakMap<LookupFn, Map<string, SafeAgent>>>();

function dispatcherFor(options: SafeFetchOptions): SafeAgent {
  const { dispatcher } = options;
  if (dispatcher) {
    const { policy } = dispatcher;
    if (policy.allowPrivate !== options.allowPrivate) {
      throw new TypeError('safeFetch: the dispatcher was created with a different allowPrivate than these options');
    }
    if ((options.classify && options.classify !== policy.classify) || (options.lookup && options.lookup !== policy.lookup)) {
      throw new TypeError('safeFetch: the dispatcher was created with a different classify or lookup than these options');
    }
    return dispatcher;
  }
  const classify = options.classify ?? classifyAddress;
  const lookup = options.lookup ?? systemLookup;
  let byLookup = shared.get(classify);
  if (!byLookup) shared.set(classify, (byLookup = new WeakMap()));
  let byFlag = byLookup.get(lookup);
  if (!byFlag) byLookup.set(lookup, (byFlag = new Map()));
  const flags = `${options.allowPrivate}:${Boolean(options.insecureTls)}:${options.via?.url.href ?? ''}`;
  let agent = byFlag.get(flags);
  if (!agent) byFlag.set(flags, (agent = createSafeDispatcher({ allowPrivate: options.allowPrivate, classify: options.classify, lookup: options.lookup, insecureTls: options.insecureTls, via: options.via })));
  return agent;
}

/**
 * Fetch `input` under the egress policy, following up to `maxRedirects` redirects. Throws
 * UnsafeUrlError for a refused URL (with `hop` set when a redirect led there) before any request
 * is sent to it; the bodies of intermediate redirect responses are discarded.
 */
export async function safeFetch(input: string | URL, init: RequestInit = {}, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const maxRedirects = options.maxRedirects ?? 10;
  const dispatcher = dispatcherFor(options);
  const policy = dispatcher.policy;
  const redirects: RedirectHop[] = [];
  let url = checkUrlSyntax(input, policy);
  let request: RequestInit = { ...init, headers: new Headers(init.headers) };
  for (;;) {
    const response = await send(url, request, dispatcher, redirects);
    const location = response.headers.get('location');
    if (!redirectStatuses.has(response.status) || location === null) return { response, url: url.href, redirects };
    await response.body?.cancel();
    if (redirects.length >= maxRedirects) throw new TooManyRedirectsError(String(input), redirects, { from: url.href, location });
    const next = nextHop(url, location, policy, redirects.length + 1);
    redirects.push({ from: url.href, to: next.href, status: response.status });
    request = redirectedRequest(request, response.status, url, next);
    url = next;
  }
}

async function send(url: URL, request: RequestInit, dispatcher: SafeAgent, redirects: RedirectHop[]): Promise<Response> {
  try {
    return await fetch(url, { ...request, redirect: 'manual', dispatcher });
  } catch (err) {
    // The dispatcher's refusal surfaces as fetch's TypeError('fetch failed') with our error as cause.
    const cause = (err as Error).cause;
    if (!(cause instanceof UnsafeUrlError)) throw err;
    const hop = redirects.length;
    throw hop === 0 ? new UnsafeUrlError(cause.reason, url.href, { address: cause.address, cause }) : cause.atHop(url.href, hop, redirects[hop - 1].from);
  }
}

function nextHop(current: URL, location: string, policy: SafetyOptions, hop: number): URL {
  let target: URL;
  try {
    target = new URL(location, current);
  } catch {
    throw new UnsafeUrlError('invalid_url', location, { hop, from: current.href });
  }
  try {
    return checkUrlSyntax(target, policy);
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw err.atHop(target.href, hop, current.href);
    throw err;
  }
}

// Headers that only make sense with the body, dropped when a redirect turns the request into a GET.
const bodyHeaders = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
// Credentials meant for one origin must not follow a redirect to another.
const originBoundHeaders = ['authorization', 'cookie', 'proxy-authorization'];

/** The request for the next hop, following the Fetch standard's redirect rules. */
function redirectedRequest(previous: RequestInit, status: number, from: URL, to: URL): RequestInit {
  const headers = new Headers(previous.headers);
  const method = (previous.method ?? 'GET').toUpperCase();
  const next: RequestInit = { ...previous, headers };
  if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    next.method = 'GET';
    next.body = null;
    for (const name of bodyHeaders) headers.delete(name);
  } else if (previous.body != null && !isReplayable(previous.body)) {
    throw new TypeError(`Cannot follow a ${status} redirect from ${from.href}: the request body was a stream and cannot be sent twice`);
  }
  if (from.origin !== to.origin) for (const name of originBoundHeaders) headers.delete(name);
  return next;
}

function isReplayable(body: NonNullable<RequestInit['body']>): boolean {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof URLSearchParams || body instanceof Blob;
}
