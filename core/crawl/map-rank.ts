/**
 * POST /v1/map: which gathered URLs belong to the mapped site, and their order under `search`.
 *
 * - **Search ranking.** The query is split into terms on anything that is not a letter or digit,
 *   lower-cased (`"Pricing API"` → `pricing`, `api`). A term is present when it occurs anywhere in
 *   the URL after the scheme, lower-cased and percent-decoded, so `doc` finds `/docs/`. URLs are
 *   ordered by how many distinct terms they contain: all terms first, then fewer, then none; URLs
 *   with the same count keep the order they were gathered in (sitemaps, then the page's links).
 *   Nothing is dropped here: the `limit` cut that follows drops the weakest matches first. A
 *   query without letters or digits leaves the order as is.
 * - **Site.** Same site as the seed with the `www.` prefix folded (site.ts); with
 *   includeSubdomains also any subdomain of it (`docs.example.com` for `example.com`); with
 *   allowExternalLinks any host. Only http(s) URLs qualify.
 */
import { isSameSite, isSubdomainOf } from './site.js';

export function searchTerms(search: string): string[] {
  return [...new Set(search.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean))];
}

/** `urls` ordered by search relevance (see above); a new array, the input is left as is. */
export function rankForSearch(urls: readonly string[], search?: string): string[] {
  const terms = search ? searchTerms(search) : [];
  if (terms.length === 0) return [...urls];
  const scored = urls.map((url, index) => {
    const text = searchableText(url);
    return { url, index, score: terms.filter((t) => text.includes(t)).length };
  });
  // Array.prototype.sort is stable, and the index makes the tie-break explicit anyway.
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((s) => s.url);
}

function searchableText(url: string): string {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  let text = rest;
  try {
    text = decodeURIComponent(rest);
  } catch {
    // A malformed escape: search the text as written.
  }
  return text.toLowerCase();
}

export interface SameSiteOptions {
  includeSubdomains: boolean;
  allowExternalLinks: boolean;
}

/** Whether a gathered URL belongs in the map of `seed`. */
export function sameSiteFilter(url: string | URL, seed: string | URL, options: SameSiteOptions): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (options.allowExternalLinks) return true;
  const seedUrl = new URL(seed);
  return isSameSite(target, seedUrl) || (options.includeSubdomains && isSubdomainOf(target, seedUrl));
}
