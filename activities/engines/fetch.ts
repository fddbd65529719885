/**
 * The `fetch` engine: plain HTTP through the egress policy (each redirect hop re-checked, the
 * connection made to the address that was checked). Bodies are read as bytes, capped, so the
 * HTML pipeline can decode any charset itself.
 */
import { UnsafeUrlError } from '../../core/url-safety.js';
import { safeFetch } from '../../egress/safe-fetch.js';
import type { SafeAgent } from '../../egress/dispatcher.js';
import type { EgressPolicy } from '../../egress/resolve.js';
import { EngineError, type Engine, type EngineRequest, type EngineResult } from './types.js';

/** Larger bodies are refused rather than held in memory. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf;q=0.9,application/json;q=0.8,text/plain;q=0.8,*/*;q=0.5';

async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new EngineError('fetch', 'invalid', `Response body exceeds ${limit} bytes`);
    }
    chunks.push(value);
  }
}

export function fetchEngine(options: { policy: EgressPolicy; userAgent: string; dispatcher?: SafeAgent }): Engine {
  return {
    name: 'fetch',
    async fetch(req: EngineRequest): Promise<EngineResult> {
      const headers: Record<string, string> = {
        'user-agent': options.userAgent,
        accept: ACCEPT,
        ...(req.conditional?.etag ? { 'if-none-match': req.conditional.etag } : {}),
        ...(req.conditional?.lastModified ? { 'if-modified-since': req.conditional.lastModified } : {}),
        ...lowerKeys(req.headers),
      };
      try {
        const { response, url } = await safeFetch(req.url, { headers, signal: req.signal }, { ...options.policy, dispatcher: req.proxy ? undefined : options.dispatcher, insecureTls: req.insecureTls, via: req.proxy });
        const body = await readCapped(response.body as ReadableStream<Uint8Array> | null, MAX_BODY_BYTES);
        const [retryAfter, etag, lastModified] = ['retry-after', 'etag', 'last-modified'].map((h) => response.headers.get(h) ?? undefined);
        return {
          engine: 'fetch',
          body,
          contentType: response.headers.get('content-type') ?? undefined,
          statusCode: response.status,
          finalUrl: url,
          ...(retryAfter ? { retryAfter } : {}),
          ...(etag ? { etag } : {}),
          ...(lastModified ? { lastModified } : {}),
        };
      } catch (err) {
        if (err instanceof EngineError) throw err;
        // A name that does not resolve is an unreachable target (502), not a refused one.
        if (err instanceof UnsafeUrlError) throw new EngineError('fetch', err.reason === 'dns' ? 'network' : 'blocked', err.message);
        if (req.signal.aborted) throw new EngineError('fetch', 'timeout', 'Timed out before the page was received');
        const cause = (err as Error).cause as { code?: string; message?: string } | undefined;
        throw new EngineError('fetch', 'network', `${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`);
      }
    },
  };
}

/** Header names are case-insensitive; lower-casing lets a caller's User-Agent replace ours. */
function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
