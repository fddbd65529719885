/**
 * Serper (Google results; `POST <SERPER_BASE_URL>/search|news|images` with `X-API-KEY`). Its
 * parameters are Google's, as the hosted API's are: `tbs` and `location` pass through, `gl` is the
 * country and `hl` the language.
 */
import { askProvider } from './http.js';
import { isWebUrl, type ImageResult, type NewsResult, type SearchProvider, type SearchQuery, type SearchResults, type SearchSource, type WebResult } from './types.js';

export interface SerperSettings {
  apiKey: string;
  baseUrl: string;
}

interface SerperItem {
  title?: string;
  link?: string;
  snippet?: string;
  date?: string;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
  position?: number;
}

const paths: Record<SearchSource, { path: string; key: 'organic' | 'news' | 'images' }> = {
  web: { path: 'search', key: 'organic' },
  news: { path: 'news', key: 'news' },
  images: { path: 'images', key: 'images' },
};

/** Serper gives at most 100 results a request. */
const MAX_NUM = 100;

export function serperProvider(settings: SerperSettings): SearchProvider {
  const base = settings.baseUrl.replace(/\/+$/, '');

  async function ask(source: SearchSource, query: SearchQuery): Promise<SerperItem[]> {
    const { path, key } = paths[source];
    const body = {
      q: query.q,
      num: Math.min(query.limit, MAX_NUM),
      ...(query.country ? { gl: query.country.toLowerCase() } : {}),
      ...(query.lang ? { hl: query.lang } : {}),
      ...(query.tbs ? { tbs: query.tbs } : {}),
      ...(query.location ? { location: query.location } : {}),
    };
    const answer = (await askProvider('serper', new URL(`${base}/${path}`), { method: 'POST', headers: { 'x-api-key': settings.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: query.signal })) as Record<string, unknown>;
    const items = answer[key];
    return Array.isArray(items) ? (items as SerperItem[]).filter((i) => isWebUrl(i.link)).slice(0, query.limit) : [];
  }

  return {
    name: 'serper',
    sources: ['web', 'news', 'images'],
    async search(query) {
      const results: SearchResults = {};
      await Promise.all(
        query.sources.map(async (source) => {
          const items = await ask(source, query);
          if (source === 'web') results.web = items.map((r, i): WebResult => ({ url: r.link!, title: r.title, description: r.snippet, position: i + 1 }));
          if (source === 'news') results.news = items.map((r, i): NewsResult => ({ url: r.link!, title: r.title, snippet: r.snippet, ...(r.date ? { date: r.date } : {}), ...(r.imageUrl ? { imageUrl: r.imageUrl } : {}), position: i + 1 }));
          if (source === 'images') {
            results.images = items
              .filter((r) => isWebUrl(r.imageUrl))
              .map((r, i): ImageResult => ({ url: r.link!, imageUrl: r.imageUrl!, title: r.title, ...(r.imageWidth ? { imageWidth: r.imageWidth } : {}), ...(r.imageHeight ? { imageHeight: r.imageHeight } : {}), position: i + 1 }));
          }
        }),
      );
      return results;
    },
  };
}
