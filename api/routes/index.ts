/** Every route the API serves, apart from the reference itself (added by api/app.ts). */
import type { RouteSpec } from '../route.js';
import { startBatchScrapeRoute } from './batch.js';
import { startCrawlRoute } from './crawl.js';
import { jobRoutes } from './jobs.js';
import { mapRoute } from './map.js';
import { monitorRoutes } from './monitor.js';
import { notOfferedRoutes } from './not-offered.js';
import { health, metrics, ready } from './operational.js';
import { extractJobRoutes } from './extract.js';
import { llmsTxtStatusRoute, startLlmsTxtRoute } from './llms-txt.js';
import { scrapeRoute } from './scrape.js';
import { searchRoute, searchV2Route } from './search.js';
import { teamUsageRoutes } from './team-usage.js';
import { v2Routes } from './v2.js';

export const apiRoutes: readonly RouteSpec[] = [
  health,
  ready,
  metrics,
  scrapeRoute,
  startCrawlRoute,
  ...jobRoutes('crawl', 'v1'),
  startBatchScrapeRoute,
  ...jobRoutes('batch_scrape', 'v1'),
  mapRoute,
  searchRoute,
  ...v2Routes,
  searchV2Route,
  ...monitorRoutes,
  ...teamUsageRoutes,
  ...extractJobRoutes,
  startLlmsTxtRoute,
  llmsTxtStatusRoute,
  ...notOfferedRoutes,
];
