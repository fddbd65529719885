/**
 * How a crawl's page work is spread over lanes (README "Page lanes"). A lane holds up to LANE_WIDTH
 * pages in flight; a crawl may have `maxConcurrency` pages in flight (DEFAULT_CRAWL_CONCURRENCY when
 * absent), split over as few lanes as fit; a crawl with a delay between requests runs one page at a
 * time. Workers bound it further: a lane never holds more than its worker's WORKER_CONCURRENCY.
 */
import type { LanePlan } from '../job-contracts.js';
import { DEFAULT_CRAWL_CONCURRENCY, type CrawlOptions } from '../schemas/crawl.js';

export const LANE_WIDTH = 8;

/** `rotateMs`: CRAWL_LANE_ROTATE_MS; `crawlDelayMs`: robots.txt Crawl-delay (0: none). */
export function lanePlan(options: Pick<CrawlOptions, 'maxConcurrency' | 'delay'>, rotateMs: number, crawlDelayMs = 0): LanePlan {
  const delayMs = Math.max(Math.round((options.delay ?? 0) * 1000), crawlDelayMs);
  if (delayMs > 0) return { count: 1, width: 1, delayMs, maxMs: rotateMs };
  const cap = options.maxConcurrency ?? DEFAULT_CRAWL_CONCURRENCY;
  const count = Math.ceil(cap / LANE_WIDTH);
  return { count, width: Math.ceil(cap / count), delayMs: 0, maxMs: rotateMs };
}

/** Lane slots of a worker: enough lanes to fill its WORKER_CONCURRENCY, and at least two, so two crawls can share it. */
export function laneSlots(workerConcurrency: number): number {
  return Math.max(2, Math.ceil(workerConcurrency / LANE_WIDTH));
}
