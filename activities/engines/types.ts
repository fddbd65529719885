/** What every engine takes and gives back; the chain in ./chain.ts picks and falls back between them. */
import type { Action, ActionResults } from '../../core/schemas/actions.js';
import type { ProxyMember } from '../../core/proxy-pools.js';

export type EngineName = 'fetch' | 'local_browser' | 'remote';

export interface EngineRequest {
  url: string;
  headers: Record<string, string>;
  /** Extra wait after load (browser engines only), ms. */
  waitFor: number;
  screenshot?: 'viewport' | 'fullPage';
  /** JPEG quality of the screenshot (PNG without it), and the window size (browser engines). */
  screenshotQuality?: number;
  viewport?: { width: number; height: number };
  /** Render as a phone (browser engines: viewport and user agent). */
  mobile?: boolean;
  /** Browser actions before the capture (browser engines only). */
  actions?: Action[];
  /** Through this operator proxy (README "Proxies"); absent: directly. */
  proxy?: ProxyMember;
  /** Browser engines: refuse advert and tracker requests. */
  blockAds?: boolean;
  /** Fetch engine: ask only for a page changed since (If-None-Match, If-Modified-Since); a 304 is then the answer. */
  conditional?: { etag?: string; lastModified?: string };
  /** Accept invalid TLS certificates (fetch engine). */
  insecureTls?: boolean;
  /** Aborts when the caller's budget is spent or the activity is cancelled. */
  signal: AbortSignal;
  /** Epoch ms by which the engine must have answered. */
  deadline: number;
  /** Crawls: a fetch answered 429, or 503 with Retry-After, is returned as it is (the site asks for fewer requests; a browser would only add more). */
  stopOnThrottle?: boolean;
  /** A fetch the site refused (401, 403, 429, 503) is returned as it is, not retried in a browser: the caller has a better next step (`proxy: "auto"`'s stealth pool). */
  stopOnRefusal?: boolean;
}

export interface EngineResult {
  engine: EngineName;
  body: Uint8Array | string;
  contentType?: string;
  statusCode: number;
  finalUrl: string;
  /** PNG bytes. */
  screenshot?: Buffer;
  actions?: ActionResults;
  /** Browser engines with blockAds: advert and tracker requests refused. */
  adsBlocked?: number;
  /** The Retry-After header, verbatim (fetch engine only). */
  retryAfter?: string;
  /** ETag and Last-Modified, verbatim (fetch engine only). */
  etag?: string;
  lastModified?: string;
}

export interface Engine {
  name: EngineName;
  fetch(request: EngineRequest): Promise<EngineResult>;
}

/** Why an engine gave up. `blocked`, `invalid` and `action` (a browser action failed) are final for the whole chain; the rest may fall back. */
export class EngineError extends Error {
  constructor(
    readonly engine: EngineName,
    readonly kind: 'blocked' | 'timeout' | 'network' | 'http' | 'invalid' | 'action' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
