/**
 * The search adapter's one shape (README "Search"): what a provider is asked, and the results it
 * gives back, grouped by source as the hosted v2 API answers them. Providers are operator-chosen
 * endpoints (like the LLM endpoint), outside the target-URL egress policy; the URLs they return are
 * untrusted and pass that policy before anything fetches them.
 */

export type SearchSource = 'web' | 'news' | 'images';

export interface SearchQuery {
  /** The query with `site:` / `filetype:` modifiers already added. */
  q: string;
  /** Results wanted per source. */
  limit: number;
  sources: SearchSource[];
  /** ISO 639-1 language of the results (`en`). */
  lang?: string;
  /** ISO 3166-1 alpha-2 country (`us`). */
  country?: string;
  /** A place name (`Berlin, Germany`), for providers that take one. */
  location?: string;
  /** Google-style time filter: `qdr:h|d|w|m|y`. */
  tbs?: string;
  signal: AbortSignal;
}

export interface WebResult {
  url: string;
  title?: string;
  description?: string;
  position: number;
}

export interface NewsResult {
  url: string;
  title?: string;
  snippet?: string;
  date?: string;
  imageUrl?: string;
  position: number;
}

export interface ImageResult {
  /** The page the image is on. */
  url: string;
  imageUrl: string;
  title?: string;
  imageWidth?: number;
  imageHeight?: number;
  position: number;
}

export interface SearchResults {
  web?: WebResult[];
  news?: NewsResult[];
  images?: ImageResult[];
}

export interface SearchProvider {
  /** `searxng`, `serper`: how README and errors name it. */
  name: string;
  /** Sources this provider can search. */
  sources: readonly SearchSource[];
  search(query: SearchQuery): Promise<SearchResults>;
}

/** The provider could not be asked, or answered with an error: a 502 to the caller. */
export class SearchProviderError extends Error {
  override name = 'SearchProviderError';
}

/** Time filters every provider here understands (`tbs`), by their SearXNG names. */
export const TIME_RANGES = { 'qdr:h': 'day', 'qdr:d': 'day', 'qdr:w': 'week', 'qdr:m': 'month', 'qdr:y': 'year' } as const;

/** Results are untrusted: only http(s) URLs are results at all. */
export const isWebUrl = (url: unknown): url is string => typeof url === 'string' && /^https?:\/\/[^\s]+$/i.test(url);
