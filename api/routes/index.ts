/** Every route the API serves, apart from the reference itself (added by api/app.ts). */
import type { RouteSpec } from '../route.js';
import { batchScrapeErrorsDeleteRoute, batchScrapeErrorsRoute, batchScrapeStatusRoute, cancelBatchScrapeRoute, startBatchScrapeRoute } from './batch.js';
import { cancelCrawlAliasRoute, cancelCrawlRoute, crawlErrorsDeleteRoute, crawlErrorsRoute, crawlStatusRoute, startCrawlRoute } from './crawl.js';
import { mapRoute } from './map.js';
import { monitorRoutes } from './monitor.js';
import { notOfferedRoutes } from './not-offered.js';
import { health, ready } from './operational.js';
import { scrapeRoute } from './scrape.js';
import { v2Routes } from './v2.js';

export const apiRoutes: readonly RouteSpec[] = [
  health,
  ready,
  scrapeRoute,
  startCrawlRoute,
  crawlStatusRoute,
  cancelCrawlRoute,
  cancelCrawlAliasRoute,
  crawlErrorsRoute,
  crawlErrorsDeleteRoute,
  startBatchScrapeRoute,
  batchScrapeStatusRoute,
  cancelBatchScrapeRoute,
  batchScrapeErrorsRoute,
  batchScrapeErrorsDeleteRoute,
  mapRoute,
  ...v2Routes,
  ...monitorRoutes,
  ...notOfferedRoutes,
];
