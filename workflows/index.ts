/** Every workflow the worker registers. The worker bundles this file for Temporal's sandbox. */
import type { Workflows } from '../core/contracts.js';
import type { failedScrape } from './failed-scrape.js';
import type { extractJob } from './extract.js';
import type { llmsTxtJob } from './llms-txt.js';
import type { map } from './map.js';
import type { planCrawl } from './plan-crawl.js';
import type { deliverWebhooks } from './webhooks.js';

export { batchScrape, crawl } from './crawl.js';
export { expireData } from './expire.js';
export { extractJob } from './extract.js';
export { healthCheck } from './health-check.js';
export { llmsTxtJob } from './llms-txt.js';
export { map } from './map.js';
export { planCrawl } from './plan-crawl.js';
export { monitorCheck } from './monitor.js';
export { failedScrape } from './failed-scrape.js';
export { deliverWebhooks } from './webhooks.js';

/** The API starts these by name with the signatures in core/contracts.ts: a mismatch does not compile. */
type Matches<T extends Workflows> = T;
export type StartedByTheApi = Matches<{ map: typeof map; deliverWebhooks: typeof deliverWebhooks; failedScrape: typeof failedScrape; extractJob: typeof extractJob; planCrawl: typeof planCrawl; llmsTxtJob: typeof llmsTxtJob }>;
