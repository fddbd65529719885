/**
 * SearXNG through its JSON API (`GET <SEARXNG_ENDPOINT>/search?q=…&format=json`, the `json` format
 * enabled in its settings.yml). Web results use SEARXNG_CATEGORIES (default `general`) and
 * SEARXNG_ENGINES; news and images use SearXNG's `news` and `images` categories with their
 * default engines. Pages are read until `limit` results or a page brings nothing new.
 */
import { askProvider } from './http.js';
import { isWebUrl, TIME_RANGES, type ImageResult, type NewsResult, type SearchProvider, type SearchQuery, type SearchResults, type SearchSource, type WebResult } from './types.js';

export interface SearxngSettings {
  endpoint: string;
  /** Comma-separated engine names for web results (SearXNG's `engines`). */
  engines?: string;
  /** Comma-separated categories for web results (SearXNG's `categories`); default `general`. */
  categories?: string;
}

interface SearxngResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  img_src?: string;
  thumbnail_src?: string;
  thumbnail?: string;
  resolution?: string;
}

/** A SearXNG instance answers 10 to 20 results a page; past this many pages it has nothing more useful. */
const MAX_PAGES = 5;

function languageOf(query: SearchQuery): string | undefined {
  if (!query.lang) return undefined;
  return query.country ? `${query.lang}-${query.country.toUpperCase()}` : query.lang;
}

/** `1920 x 1080` or `1920x1080` → [1920, 1080]. */
function dimensions(resolution: string | undefined): [number, number] | undefined {
  const m = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(resolution ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

export function searxngProvider(settings: SearxngSettings): SearchProvider {
  const base = settings.endpoint.replace(/\/+$/, '');
  const searchUrl = /\/search$/.test(base) ? base : `${base}/search`;

  async function page(source: SearchSource, query: SearchQuery, pageno: number): Promise<SearxngResult[]> {
    const url = new URL(searchUrl);
    url.searchParams.set('q', query.q);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', String(pageno));
    url.searchParams.set('categories', source === 'web' ? (settings.categories ?? 'general') : source);
    if (source === 'web' && settings.engines) url.searchParams.set('engines', settings.engines);
    const language = languageOf(query);
    if (language) url.searchParams.set('language', language);
    const range = query.tbs ? TIME_RANGES[query.tbs as keyof typeof TIME_RANGES] : undefined;
    if (range) url.searchParams.set('time_range', range);
    const answer = (await askProvider('searxng', url, { method: 'GET', signal: query.signal })) as { results?: SearxngResult[] };
    return Array.isArray(answer.results) ? answer.results : [];
  }

  /** Results of one source, deduplicated by URL (by image URL for images), up to the limit. */
  async function collect(source: SearchSource, query: SearchQuery): Promise<SearxngResult[]> {
    const seen = new Set<string>();
    const out: SearxngResult[] = [];
    for (let pageno = 1; pageno <= MAX_PAGES && out.length < query.limit; pageno++) {
      let added = 0;
      for (const r of await page(source, query, pageno)) {
        const key = source === 'images' ? r.img_src : r.url;
        if (!isWebUrl(key) || !isWebUrl(r.url) || seen.has(key)) continue;
        seen.add(key);
        out.push(r);
        added++;
      }
      if (added === 0) break;
    }
    return out.slice(0, query.limit);
  }

  return {
    name: 'searxng',
    sources: ['web', 'news', 'images'],
    async search(query) {
      const results: SearchResults = {};
      await Promise.all(
        query.sources.map(async (source) => {
          const found = await collect(source, query);
          if (source === 'web') results.web = found.map((r, i): WebResult => ({ url: r.url!, title: r.title, description: r.content, position: i + 1 }));
          if (source === 'news') {
            results.news = found.map((r, i): NewsResult => ({ url: r.url!, title: r.title, snippet: r.content, ...(r.publishedDate ? { date: r.publishedDate } : {}), ...(r.thumbnail || r.img_src ? { imageUrl: r.thumbnail || r.img_src } : {}), position: i + 1 }));
          }
          if (source === 'images') {
            results.images = found.map((r, i): ImageResult => {
              const size = dimensions(r.resolution);
              return { url: r.url!, imageUrl: r.img_src!, title: r.title, ...(size ? { imageWidth: size[0], imageHeight: size[1] } : {}), position: i + 1 };
            });
          }
        }),
      );
      return results;
    },
  };
}
