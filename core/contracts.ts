/**
 * What both sides of Temporal agree on: workflow-id formats (a job's are in jobs/kinds.ts), inputs and outputs, failure types.
 * API, worker and tests import these; nobody retypes them.
 */
import type { PublicDocument } from './document.js';
import type { FailureType } from './failures.js';
import type { CrawlPlanInput } from './schemas/crawl-plan.js';
import type { ExtractInput } from './schemas/extract.js';
import type { LlmsTxtInput } from './schemas/llms-txt.js';
import type { MapInput } from './schemas/map.js';
import type { PageOptions } from './schemas/scrape.js';

export const workflowIds = {
  scrape: (scrapeId: string) => `scrape-${scrapeId}`,
  map: (mapId: string) => `map-${mapId}`,
  webhooks: (event: string, id: string) => `webhook-${event}-${id}`,
  extract: (extractId: string) => `extract-${extractId}`,
  crawlPlan: (planId: string) => `crawl-plan-${planId}`,
  llmsTxt: (jobId: string) => `llmstxt-${jobId}`,
} as const;

/**
 * The signatures of the workflows the API starts by name (workflows/index.ts checks that its
 * functions match them), so the API types its calls without importing the worker's code.
 */
export type Workflows = {
  map: (input: MapInput) => Promise<{ documentId: string; count: number }>;
  deliverWebhooks: (delivery: WebhookDelivery) => Promise<{ delivered: number; failed: number }>;
  failedScrape: (record: FailedScrapeRecord) => Promise<void>;
  extractJob: (input: ExtractInput) => Promise<void>;
  planCrawl: (input: CrawlPlanInput) => Promise<Record<string, unknown>>;
  llmsTxtJob: (input: LlmsTxtInput) => Promise<void>;
};

/** The task queue of crawl page activities, beside the main one (see worker/main.ts). */
export const pagesQueue = (taskQueue: string) => `${taskQueue}-pages`;

export interface ScrapeInput {
  scrapeId: string;
  /** As the caller sent it (reported as metadata.sourceURL). */
  url: string;
  options: PageOptions;
  timeoutMs: number;
  /** Epoch ms when the caller's budget ends; every attempt works within it. */
  deadline: number;
  /** Whose change-tracking history the page belongs to (core/change-tracking.ts historyOwner). */
  owner: string;
  /** The page cache's key to store the document under (core/page-cache.ts); absent: not cached. */
  cacheKey?: string;
}

/** A scrape endpoint's answer: the stored document's id and its public form (the formats asked for). */
export interface ScrapeResult {
  documentId: string;
  warning?: string;
  data: PublicDocument;
}

/** A crawl's or a batch scrape's events: `<kind>.<what>`. */
export type JobEventKind = 'started' | 'page' | 'completed' | 'failed' | 'cancelled';
export type WebhookEvent = 'scrape.completed' | `crawl.${JobEventKind}` | `batch_scrape.${JobEventKind}` | 'monitor.page' | 'monitor.check.completed' | 'extract.started' | 'extract.completed' | 'extract.failed';

export interface WebhookDelivery {
  event: WebhookEvent;
  /** Stable per event, sent as X-Pagewright-Delivery so receivers can drop duplicates. */
  deliveryId: string;
  urls: string[];
  /** scrape id or crawl id */
  subjectId: string;
  /** Document to embed, by reference (loaded by the delivering activity). */
  documentId?: string;
  /** Echoed on the payload (scrape `metadata` / crawl `webhookMetadata`). */
  metadata?: unknown;
  /** Extra small fields for the payload (status, counters, error). */
  extra?: Record<string, unknown>;
  /** Sent with the delivery (the hosted API's webhook.headers); ours (signature, event, content type) win. */
  headers?: Record<string, string>;
  /** A scrape's owner (`key:<id>` or `payer:<address>`), whose account's secret signs it; jobs and monitors are looked up by subjectId. */
  owner?: string;
}

/**
 * The scrape path (README "Scrape path"): the API calls a worker's scrape endpoint directly, with
 * no Temporal round trip. Workers announce their endpoints in Redis under this key (a sorted set:
 * signed endpoint URL → epoch ms until which the announcement holds, core/scrape-announcement.ts);
 * the API picks among the live ones whose signature holds.
 */
export const scrapeWorkersKey = (taskQueue: string) => `scrape-workers:${taskQueue}`;
export const SCRAPE_ENDPOINT_PATH = '/scrape';
/** A worker re-announces itself this often; an announcement older than 3 of these is dead. */
export const SCRAPE_ANNOUNCE_MS = 5_000;

/** A scrape endpoint's refusal (status 4xx/5xx): a failure type (core/failures.ts), or `internal`. */
export interface ScrapeRefusal {
  type: FailureType | 'internal';
  message: string;
}

/** What the Temporal UI keeps of a failed scrape (workflows/failed-scrape.ts). */
export interface FailedScrapeRecord {
  scrapeId: string;
  url: string;
  /** The API's answer: status and error code. */
  status: number;
  code: string;
  message: string;
}
