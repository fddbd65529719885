/**
 * The kinds of job, in the one table every process reads: the API's routes and operations
 * (jobs/*.ts), the dashboard, the worker's monitor checks and the workflows (this file is
 * deterministic: it is safe in Temporal's workflow sandbox). A crawl and a batch scrape run the same
 * workflow code, lanes, frontier and store; per kind this table says which workflow runs it, its
 * workflow id, its public path and what to call it. Its options are decoded in jobs/options.ts.
 */
import type { SearchAttributePair } from '@temporalio/common';
import { jobSearchAttributes, type JobKind } from '../core/job-contracts.js';

export interface KindSpec {
  /** The workflow that runs a job of this kind (workflows/crawl.ts). */
  workflowType: 'crawl' | 'batchScrape';
  workflowId: (id: string) => string;
  /** Its path under /v1 and /v2: `/v1/batch/scrape/<id>`. */
  path: string;
  noun: string;
  Noun: string;
  /** In operation ids: getCrawl, cancelBatchScrapeV2. */
  name: string;
  /** Its OpenAPI tag on v1. */
  tag: string;
}

export const kinds: Record<JobKind, KindSpec> = {
  crawl: { workflowType: 'crawl', workflowId: (id) => `crawl-${id}`, path: 'crawl', noun: 'crawl', Noun: 'Crawl', name: 'Crawl', tag: 'Crawl' },
  batch_scrape: { workflowType: 'batchScrape', workflowId: (id) => `batch-scrape-${id}`, path: 'batch/scrape', noun: 'batch scrape', Noun: 'Batch scrape', name: 'BatchScrape', tag: 'Batch scrape' },
};

/** The search attributes a job's workflow starts with: the Temporal UI lists and filters jobs by them. */
export function startAttributes(job: { seedHost: string; apiKeyId: string; monitorId?: string }): SearchAttributePair[] {
  return [
    ...(job.monitorId ? [{ key: jobSearchAttributes.monitorId, value: job.monitorId }] : []),
    { key: jobSearchAttributes.status, value: 'scraping' },
    { key: jobSearchAttributes.seedHost, value: job.seedHost },
    { key: jobSearchAttributes.apiKeyId, value: job.apiKeyId },
    { key: jobSearchAttributes.pagesDone, value: 0 },
  ] as SearchAttributePair[];
}
