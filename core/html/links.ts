/**
 * The `links` format: where the page points, for crawl discovery and map. Taken from the whole
 * document, before selectors and main-content pruning, so a crawl still follows navigation links
 * that the markdown leaves out.
 */
import { resolveUrl } from './resolve.js';

/**
 * Absolute http(s) URLs of the `<a href>` / `<area href>` elements (from scanDocument), fragments stripped, deduplicated in
 * document order. In-page anchors (`#top`) and empty hrefs point back at the page itself and are
 * dropped; javascript:, mailto:, tel:, data: and other schemes are dropped.
 */
export function extractLinks(anchors: readonly Element[], base: string): string[] {
  const seen = new Set<string>();
  for (const anchor of anchors) {
    const link = normalizeLink(anchor.getAttribute('href') ?? '', base);
    if (link) seen.add(link);
  }
  return [...seen];
}

/** The absolute, fragment-free http(s) form of `href`, or undefined when it is not a page link. */
export function normalizeLink(href: string, base: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const absolute = resolveUrl(trimmed, base);
  if (!absolute) return undefined;
  const url = new URL(absolute);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href;
}
