/** Small text fetches for discovery (robots.txt, sitemaps) through the egress policy; gzip bodies are inflated. */
import { gunzipSync } from 'node:zlib';
import type { EgressPolicy } from '../../egress/resolve.js';
import { safeFetch } from '../../egress/safe-fetch.js';

export const MAX_TEXT_BYTES = 10 * 1024 * 1024;

export interface TextResult {
  status: number;
  text?: string;
}

export async function fetchText(url: string, options: { policy: EgressPolicy; userAgent: string; timeoutMs?: number }): Promise<TextResult> {
  const { response } = await safeFetch(url, { headers: { 'user-agent': options.userAgent }, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) }, { ...options.policy, maxRedirects: 5 });
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status };
  }
  let bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_TEXT_BYTES) return { status: 413 };
  // `.xml.gz` sitemaps arrive gzipped without Content-Encoding; check the magic bytes.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes, { maxOutputLength: 5 * MAX_TEXT_BYTES });
  return { status: 200, text: bytes.toString('utf8') };
}
