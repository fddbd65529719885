/** Every workflow the worker registers. The worker bundles this file for Temporal's sandbox. */
export { batchScrape, crawl } from './crawl.js';
export { expireData } from './expire.js';
export { healthCheck } from './health-check.js';
export { map } from './map.js';
export { monitorCheck } from './monitor.js';
export { failedScrape } from './failed-scrape.js';
export { deliverWebhooks } from './webhooks.js';
