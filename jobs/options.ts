/**
 * A job's stored options, read back through its kind's schema (core/schemas/decode.ts: defaults
 * filled in, never cast): for the status answer, the page work and the lane plan alike.
 */
import type { JobKind } from '../core/job-contracts.js';
import type { BatchScrapeOptions } from '../core/schemas/batch.js';
import type { CrawlOptions } from '../core/schemas/crawl.js';
import { decodeBatchScrapeOptions, decodeCrawlOptions } from '../core/schemas/decode.js';
import type { PageOptions } from '../core/schemas/scrape.js';

export type JobOptions = { kind: 'crawl'; options: CrawlOptions } | { kind: 'batch_scrape'; options: BatchScrapeOptions };

/** A job row's options, decoded by the schema of its kind. */
export function jobOptions(row: { kind: string; options: unknown }): JobOptions {
  if ((row.kind as JobKind) === 'batch_scrape') return { kind: 'batch_scrape', options: decodeBatchScrapeOptions(row.options) };
  return { kind: 'crawl', options: decodeCrawlOptions(row.options) };
}

/** What each page of the job is scraped with; `timeout` is the page's budget when set. */
export function pageOptionsOf(decoded: JobOptions): PageOptions & { timeout?: number } {
  return decoded.kind === 'batch_scrape' ? decoded.options : decoded.options.scrapeOptions;
}

/** What sizes a job's lanes (core/crawl/lanes.ts): its concurrency, and for a crawl the delay between requests. */
export function jobPace(row: { kind: string; options: unknown }): { maxConcurrency?: number; delay?: number } {
  const decoded = jobOptions(row);
  if (decoded.kind === 'batch_scrape') return { maxConcurrency: decoded.options.maxConcurrency };
  const { maxConcurrency, delay } = decoded.options;
  return { maxConcurrency, delay };
}
