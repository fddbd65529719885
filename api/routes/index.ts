/** Every route the API serves, apart from the reference itself (added by api/app.ts). */
import type { RouteSpec } from '../route.js';
import { cancelCrawlAliasRoute, cancelCrawlRoute, crawlStatusRoute, startCrawlRoute } from './crawl.js';
import { mapRoute } from './map.js';
import { health, ready } from './operational.js';
import { scrapeRoute } from './scrape.js';

export const apiRoutes: readonly RouteSpec[] = [health, ready, scrapeRoute, startCrawlRoute, crawlStatusRoute, cancelCrawlRoute, cancelCrawlAliasRoute, mapRoute];
