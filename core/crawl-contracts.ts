/**
 * Contracts of the crawl workflow, shared by API, workflow and activities: input, search
 * attributes and the options a crawl runs with (the validated POST /v1/crawl body).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { PageOptions } from './schemas/scrape.js';

export interface CrawlOptions {
  url: string;
  limit: number;
  maxDepth: number;
  maxDiscoveryDepth?: number;
  includePaths: string[];
  excludePaths: string[];
  allowBackwardLinks: boolean;
  allowExternalLinks: boolean;
  ignoreSitemap: boolean;
  ignoreRobotsTxt: boolean;
  regexOnFullURL: boolean;
  scrapeOptions: Partial<PageOptions>;
  webhookUrls?: string[];
  webhookMetadata?: unknown;
  origin?: string;
}

export type CrawlStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/** Registered on the dev server by scripts/infra/temporal.ts; a production cluster needs them created once (README). */
export const crawlSearchAttributes = {
  status: defineSearchAttributeKey('CrawlStatus', SearchAttributeType.KEYWORD),
  seedHost: defineSearchAttributeKey('SeedHost', SearchAttributeType.KEYWORD),
  apiKeyId: defineSearchAttributeKey('ApiKeyId', SearchAttributeType.KEYWORD),
  pagesDone: defineSearchAttributeKey('PagesDone', SearchAttributeType.INT),
} as const;

export interface CrawlWorkflowInput {
  crawlId: string;
  /** Carried across continue-as-new: ids and counters only, never the frontier. */
  resumed?: { pagesDone: number; failed: number };
}

export interface CrawlPageInput {
  crawlId: string;
  /** crawl_url.id (a bigint, as text). */
  urlId: string;
}

export interface CrawlPageResult {
  outcome: 'stored' | 'failed' | 'skipped';
  documentId?: string;
  /** Links admitted into the frontier. */
  admitted: number;
}

export interface DiscoveryResult {
  /** The crawl ended at discovery (seed refused, or already cancelled). */
  finished: boolean;
  crawlDelayMs?: number;
}

export interface CrawlSummary {
  status: CrawlStatus;
  completed: number;
  total: number;
  failed: number;
  skipped: Record<string, number>;
  error?: string;
}
