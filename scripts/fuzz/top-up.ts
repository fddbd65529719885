/**
 * Extra requests for operations whose input space the fuzzer exhausts early (GET /health has no
 * input at all, so schemathesis stops after a handful of cases). Seeded and reproducible: random
 * credentials (valid, missing, unknown, malformed), path parameters, query strings (documented
 * names with out-of-range values, unknown names), Accept headers and, for operations with a body,
 * mutated and random JSON bodies, invalid JSON and wrong content types. Every target URL in a body
 * is under the reserved `.invalid` domain, which never resolves.
 */
import type { Operation } from './recorder.js';

/** mulberry32: small, fast, good enough to spread inputs; the seed makes a run repeatable. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~%/?#[]@!$&\'()*+,;= \u00e9\u4e2d\u{1f600}';
const text = (rng: Rng, max = 40) => Array.from({ length: Math.floor(rng() * max) }, () => pick(rng, [...chars])).join('');
const uuid = (rng: Rng) => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(rng() * 16).toString(16));
const scalar = (rng: Rng): unknown =>
  pick(rng, [() => null, () => rng() < 0.5, () => Math.floor(rng() * 2 ** 40) - 2 ** 39, () => rng() * 1e6, () => text(rng), () => -1, () => 0, () => 2 ** 53])();
function json(rng: Rng, depth = 0): unknown {
  if (depth > 2 || rng() < 0.5) return scalar(rng);
  if (rng() < 0.5) return Array.from({ length: Math.floor(rng() * 4) }, () => json(rng, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(rng() * 4) }, () => [text(rng, 12), json(rng, depth + 1)]));
}

const invalidUrl = (rng: Rng) => `${pick(rng, ['https', 'http'])}://fuzz-${Math.floor(rng() * 1e9)}.invalid/${encodeURIComponent(text(rng, 20))}`;

/** A valid-looking body for the operation, then perhaps broken in one place. */
function body(rng: Rng, op: Operation): unknown {
  const base: Record<string, unknown> = { url: invalidUrl(rng) };
  const r = rng();
  if (r < 0.3) return base;
  if (r < 0.5) return { ...base, [text(rng, 12) || 'x']: json(rng) };
  if (r < 0.7) return { ...base, [pick(rng, ['formats', 'limit', 'timeout', 'waitFor', 'includePaths', 'scrapeOptions', 'headers', 'search', 'maxDepth'])]: json(rng) };
  if (r < 0.8) return { url: json(rng) };
  return op.path === '/v1/scrape' ? { ...base, formats: [pick(rng, ['markdown', 'html', 'links', 'screenshot', 'rawHtml'])], timeout: 1000 + Math.floor(rng() * 9000) } : json(rng);
}

export interface TopUpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export function makeRequest(rng: Rng, op: Operation, apiUrl: string, apiKey: string): TopUpRequest {
  const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(rng() < 0.5 ? uuid(rng) : text(rng)));
  const query = new URLSearchParams();
  for (let i = Math.floor(rng() * 3); i > 0; i--) query.append(pick(rng, ['offset', 'limit', 'format', text(rng, 8) || 'q']), String(scalar(rng)));
  const headers: Record<string, string> = {};
  const auth = rng();
  if (auth < 0.7) headers.authorization = `Bearer ${apiKey}`;
  else if (auth < 0.8) headers.authorization = `Bearer pw_${Array.from({ length: 32 }, () => pick(rng, [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'])).join('')}`;
  else if (auth < 0.9) headers.authorization = text(rng).replace(/[^\x20-\x7e]/g, '');
  if (rng() < 0.3) headers.accept = pick(rng, ['text/html', '*/*', 'image/png', 'application/json;q=0', text(rng, 12).replace(/[^\x20-\x7e]/g, '') || 'x']);
  let sent: string | undefined;
  // fetch refuses a body on GET; DELETE sometimes gets one it should ignore.
  if (op.method === 'POST' || (op.method === 'DELETE' && rng() < 0.1)) {
    const kind = rng();
    if (kind < 0.85) {
      headers['content-type'] = 'application/json';
      sent = JSON.stringify(body(rng, op));
    } else if (kind < 0.93) {
      headers['content-type'] = 'application/json';
      sent = text(rng, 60);
    } else {
      headers['content-type'] = pick(rng, ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']);
      sent = text(rng, 60);
    }
  }
  const qs = query.toString();
  return { method: op.method, url: `${apiUrl}${path}${qs ? `?${qs}` : ''}`, headers, body: sent };
}

/** Send `count` requests for `op`, `concurrency` at a time, each bounded by `timeoutMs`; returns client-side failures (timeouts, resets). */
export async function topUp(op: Operation, count: number, options: { apiUrl: string; apiKey: string; seed: number; concurrency: number; timeoutMs: number }): Promise<string[]> {
  const rng = prng(options.seed);
  const problems: string[] = [];
  let left = count;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (left-- > 0) {
        const req = makeRequest(rng, op, options.apiUrl, options.apiKey);
        try {
          const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(options.timeoutMs) });
          await res.arrayBuffer();
        } catch (err) {
          if (problems.length < 50) problems.push(`${req.method} ${req.url}: ${(err as Error).name}: ${(err as Error).message}`);
        }
      }
    }),
  );
  return problems;
}
