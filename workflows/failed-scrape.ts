/**
 * The operator's record of a scrape that failed. Scrapes no longer run through Temporal (README
 * "Scrape path": the API calls a worker directly), so a failure is written here afterwards, off the
 * caller's path: a `failedScrape` workflow with id `scrape-<scrape_id>` that fails at once with the
 * scrape's error, so the Temporal UI lists failed scrapes, with their URL and why, among failed
 * workflows. It does no work and schedules nothing.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { FailedScrapeRecord } from '../core/contracts.js';

export async function failedScrape(record: FailedScrapeRecord): Promise<void> {
  await Promise.resolve();
  throw ApplicationFailure.nonRetryable(`Scrape of ${record.url} failed (${record.status} ${record.code}): ${record.message}`, record.code);
}
