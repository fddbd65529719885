/**
 * The page cache's rules (README "Page cache"): which scrapes may be served from, or stored in, the
 * cache, and the key a stored document is found by: whose it is, the page, and every option that
 * changes the result. The API reads the cache (api/page-cache.ts); the worker writes the key on the
 * document it stores.
 */
import { createHash } from 'node:crypto';
import type { PageOptions } from './schemas/scrape.js';
import { urlKey } from './url-key.js';

/** Options that change nothing in the document: how it is asked for, delivered or billed. */
const NOT_IN_KEY = new Set(['maxAge', 'minAge', 'storeInCache', 'webhookUrls', 'metadata', 'origin', 'integration', 'auditMetadata', 'zeroDataRetention', 'agent', 'parsePDF', 'removeBase64Images']);

/**
 * Why a scrape with these options never uses the cache, or undefined when it may: change tracking
 * compares with the live page, actions act on it, and custom headers (cookies, authorisation) may
 * make it someone's private page.
 */
export function uncacheable(options: Pick<PageOptions, 'formats' | 'actions' | 'headers'>): string | undefined {
  if (options.formats.includes('changeTracking')) return 'changeTracking';
  if (options.actions?.length) return 'actions';
  if (options.headers && Object.keys(options.headers).length) return 'headers';
  return undefined;
}

/** JSON with object keys sorted, so equal options give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The key of a cached document: `scope` (the caller's account, or the paying wallet: one tenant
 * never reads another's copy), the page's URL key (variants folded) and the result-affecting options.
 */
export function cacheKey(scope: string, url: string, options: PageOptions): string {
  const affecting = Object.fromEntries(Object.entries(options).filter(([name]) => !NOT_IN_KEY.has(name)));
  return createHash('sha256').update(canonical({ scope, url: urlKey(url), options: affecting })).digest('base64url');
}
