/**
 * Map options (spec: "Map options"), plus the fields the official SDKs send. Defaults are ours where
 * the spec gives none; see README "POST /v1/map".
 */
import type { FromSchema } from 'json-schema-to-ts';

export const MAP_LIMIT_MAX = 5000;
/** A map's time budget when the request sets no `timeout`, and its largest. */
export const MAP_TIMEOUT_DEFAULT_MS = 60_000;

export const mapRequestSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 8192, description: 'Site to map; a missing scheme becomes https://.' },
    limit: { type: 'integer', minimum: 1, maximum: MAP_LIMIT_MAX, default: MAP_LIMIT_MAX, description: 'Maximum links returned (1–5000).' },
    includeSubdomains: { type: 'boolean', default: false, description: 'Also list URLs on subdomains of the site.' },
    ignoreQueryParameters: { type: 'boolean', default: false, description: 'List URLs that differ only in their query once, without the query.' },
    search: { type: 'string', maxLength: 500, description: 'URLs containing more of these words are listed first.' },
    includePaths: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 500 }, default: [], description: 'Patterns a URL must match (as for crawl).' },
    excludePaths: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 500 }, default: [], description: 'Patterns that drop a URL (as for crawl).' },
    maxDepth: { type: 'integer', minimum: 0, maximum: 100, description: 'Maximum path depth below the seed.' },
    allowBackwardLinks: { type: 'boolean', default: true, description: 'List URLs outside the seed path (default true: a map covers the site).' },
    allowExternalLinks: { type: 'boolean', default: false, description: 'List URLs of other sites linked from the seed page.' },
    ignoreSitemap: { type: 'boolean', default: false, description: 'Skip robots.txt sitemaps and /sitemap.xml.' },
    sitemapOnly: { type: 'boolean', default: false, description: 'List sitemap URLs only: the seed page is not fetched.' },
    timeout: { type: 'integer', minimum: 1000, maximum: MAP_TIMEOUT_DEFAULT_MS, description: 'The map’s budget in ms (default 60000); past it the answer is 408.' },
    origin: { type: 'string', maxLength: 100, description: 'Accepted for compatibility with hosted-API clients; ignored.' },
    integration: { type: 'string', maxLength: 100, description: 'Accepted from hosted-API clients; ignored.' },
    useIndex: { type: 'boolean', description: 'Accepted from hosted-API clients; ignored: there is no index of earlier crawls here, every map reads the site.' },
    location: { type: 'object', description: 'Accepted from hosted-API clients; ignored: no proxies per country here.' },
    auditMetadata: { type: 'object', description: 'Accepted from hosted-API clients; ignored.' },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

export type MapOptions = FromSchema<typeof mapRequestSchema>;

export interface MapInput {
  mapId: string;
  options: MapOptions;
  /** Epoch ms by which the map must be done. */
  deadline: number;
  /** The caller's key: the map counts as one credit in its account's usage (absent for x402 payers). */
  apiKeyId?: string;
}
