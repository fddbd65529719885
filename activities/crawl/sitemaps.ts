/** Reads sitemaps breadth-first (indexes, gzip too) for crawl discovery and POST /v1/map. */
import { parseSitemap } from '../../core/crawl/sitemap.js';
import type { EgressPolicy } from '../../egress/resolve.js';
import { fetchText } from './fetch-text.js';

/** Sitemap files read per request (indexes included) and URLs taken from them. */
export const MAX_SITEMAP_FILES = 50;
export const MAX_SITEMAP_URLS = 50_000;

export async function gatherSitemapUrls(sources: string[], want: number, net: { policy: EgressPolicy; userAgent: string }, deadline = Infinity): Promise<string[]> {
  const queue = [...sources];
  const urls: string[] = [];
  const read = new Set<string>();
  const cap = Math.min(want, MAX_SITEMAP_URLS);
  while (queue.length && read.size < MAX_SITEMAP_FILES && urls.length < cap && Date.now() < deadline) {
    const next = queue.shift()!;
    if (read.has(next)) continue;
    read.add(next);
    // A missing or broken sitemap is not an error: there are other ways to find pages.
    const res = await fetchText(next, { ...net, timeoutMs: Math.max(1000, Math.min(10_000, deadline - Date.now())) }).catch(() => undefined);
    if (!res?.text) continue;
    const parsed = parseSitemap(res.text);
    if (parsed.kind === 'index') queue.push(...parsed.urls);
    else urls.push(...parsed.urls);
  }
  return urls.slice(0, cap);
}
