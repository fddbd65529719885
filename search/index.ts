/** The search provider the settings choose (README "Search"): SearXNG when SEARXNG_ENDPOINT is set, else Serper when SERPER_API_KEY is. */
import { searxngProvider } from './searxng.js';
import { serperProvider } from './serper.js';
import type { SearchProvider } from './types.js';

export interface SearchSettings {
  SEARXNG_ENDPOINT?: string;
  SEARXNG_ENGINES?: string;
  SEARXNG_CATEGORIES?: string;
  SERPER_API_KEY?: string;
  SERPER_BASE_URL: string;
}

export function searchProviderFrom(config: SearchSettings): SearchProvider | undefined {
  if (config.SEARXNG_ENDPOINT) return searxngProvider({ endpoint: config.SEARXNG_ENDPOINT, engines: config.SEARXNG_ENGINES, categories: config.SEARXNG_CATEGORIES });
  if (config.SERPER_API_KEY) return serperProvider({ apiKey: config.SERPER_API_KEY, baseUrl: config.SERPER_BASE_URL });
  return undefined;
}

/** Said by every refusal when no provider is configured. */
export const NO_PROVIDER = 'Search needs a search provider, and this server has none configured: set SEARXNG_ENDPOINT to a SearXNG instance with its json format on (or SERPER_API_KEY for Serper).';

export * from './types.js';
