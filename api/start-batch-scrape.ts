/**
 * Starting a batch scrape: every URL checked (invalid ones are a 400 naming `urls[i]`, or listed in
 * `invalidURLs` with ignoreInvalidURLs), then the row with its URLs as the frontier, and the
 * `batchScrape` workflow: a crawl without discovery (jobs/start.ts).
 */
import { randomUUID } from 'node:crypto';
import { webhooksOf } from '../core/job-contracts.js';
import { type ErrorDetail, invalidBody } from '../core/errors.js';
import type { BatchScrapeOptions } from '../core/schemas/batch.js';
import { pageOptionProblems } from '../core/schemas/scrape.js';
import { proxyOptionProblem } from '../core/proxy-pools.js';
import { batchFrontier } from '../core/batch-urls.js';
import { safetyOptionsFrom } from '../core/url-safety.js';
import type { ApiDeps } from './deps.js';
import type { Caller } from '../jobs/deps.js';
import { jobUrl, type ApiVersion, type LinkStyle } from '../jobs/read.js';
import { startJob } from '../jobs/start.js';
import { webhookUrlProblems } from './webhook-urls.js';

export interface BatchStarted {
  success: true;
  id: string;
  /** The batch's status URL. */
  url: string;
  invalidURLs?: string[];
}

export async function startBatchScrape(deps: ApiDeps, options: BatchScrapeOptions, caller: Caller, style: LinkStyle, version: ApiVersion = 'v1'): Promise<BatchStarted> {
  const proxy = proxyOptionProblem(options.proxy, deps.config);
  const details: ErrorDetail[] = [...pageOptionProblems(options, options.timeout), ...(proxy ? [proxy] : []), ...webhookUrlProblems(options, safetyOptionsFrom(deps.config))];
  const { urls, invalid } = batchFrontier(options.urls, safetyOptionsFrom(deps.config));
  if (!options.ignoreInvalidURLs) details.push(...invalid.map((u) => ({ field: `urls[${u.index}]`, message: u.message })));
  if (urls.length === 0 && details.length === 0) details.push({ field: 'urls', message: 'has no valid URL to scrape' });
  if (details.length) throw invalidBody(details);

  const id = randomUUID();
  const seed = urls[0]!.url;
  const hooks = webhooksOf(id, 'batch_scrape', { webhookUrls: options.webhookUrls, webhookMetadata: options.metadata, webhook: options.webhook });
  // The URLs are the frontier: discovery is done before the workflow starts.
  const started = await startJob(deps, { id, kind: 'batch_scrape', seed, options, hooks, summary: `Batch scrape of ${urls.length} URL${urls.length === 1 ? '' : 's'} (first ${seed.href})`, limit: urls.length, frontier: urls }, caller);
  return { success: true, id: started, url: jobUrl(deps, 'batch_scrape', started, style, '', version), ...(options.ignoreInvalidURLs ? { invalidURLs: invalid.map((u) => u.raw) } : {}) };
}
