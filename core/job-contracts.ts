/**
 * Contracts of jobs (crawls and batch scrapes, which run the same crawl workflow), shared by API,
 * workflow and activities: kinds and statuses, input, search attributes, page lanes, webhook
 * deliveries and the summary a job ends with. What differs per kind is in jobs/kinds.ts.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { JobEventKind, WebhookDelivery, WebhookEvent } from './contracts.js';

/** A job's kind (the `job.kind` column): a crawl, or a batch scrape (a crawl without discovery). jobs/kinds.ts says what differs. */
export const jobKinds = ['crawl', 'batch_scrape'] as const;
export type JobKind = (typeof jobKinds)[number];

/** A job's status, of any kind (the spec's crawl states, shared/spec/interface.md "States and transitions"; the `job.status` CHECK). */
export const jobStatuses = ['scraping', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof jobStatuses)[number];

/** Registered on the dev server by scripts/infra/temporal.ts; a production cluster needs them created once (README). */
export const jobSearchAttributes = {
  status: defineSearchAttributeKey('CrawlStatus', SearchAttributeType.KEYWORD),
  seedHost: defineSearchAttributeKey('SeedHost', SearchAttributeType.KEYWORD),
  apiKeyId: defineSearchAttributeKey('ApiKeyId', SearchAttributeType.KEYWORD),
  pagesDone: defineSearchAttributeKey('PagesDone', SearchAttributeType.INT),
  /** Set on monitor checks and the crawls and batch scrapes they run. */
  monitorId: defineSearchAttributeKey('MonitorId', SearchAttributeType.KEYWORD),
} as const;

/** Who receives a crawl's (or batch scrape's) events, built by webhooksOf. */
export interface CrawlWebhookContext {
  crawlId: string;
  urls: string[];
  metadata?: unknown;
  /** Sent with every delivery (the hosted API's webhook.headers). */
  headers?: Record<string, string>;
  /** Only these events (the hosted API's webhook.events); all when absent. `completed` also covers cancelled. */
  events?: ('started' | 'page' | 'completed' | 'failed')[];
  /** `crawl` or `batch_scrape`: the events' prefix. Absent in workflow inputs recorded before batch scrapes: crawl. */
  kind?: JobKind;
}

/** The webhook options of a crawl or batch request: `webhookUrls` + `webhookMetadata`, and the hosted API's `webhook`. */
export interface WebhookOptions {
  webhookUrls?: string[];
  webhookMetadata?: unknown;
  webhook?: string | { url: string; headers?: Record<string, string>; metadata?: Record<string, unknown>; events?: ('started' | 'page' | 'completed' | 'failed')[] };
}

/** The receivers of a job's events, or undefined when it has none. `webhook`'s headers and events apply to all its URLs. */
export function webhooksOf(crawlId: string, kind: JobKind, options: WebhookOptions): CrawlWebhookContext | undefined {
  const hosted = typeof options.webhook === 'string' ? { url: options.webhook } : options.webhook;
  const urls = [...(options.webhookUrls ?? []), ...(hosted ? [hosted.url] : [])];
  if (urls.length === 0) return undefined;
  const metadata = hosted?.metadata ?? options.webhookMetadata;
  return { crawlId, kind, urls, ...(metadata !== undefined ? { metadata } : {}), ...(hosted?.headers ? { headers: hosted.headers } : {}), ...(hosted?.events ? { events: hosted.events } : {}) };
}

/** The one way a crawl or batch event becomes a delivery, whether the workflow or a page lane sends it; undefined when filtered out. */
export function crawlDelivery(hooks: CrawlWebhookContext, what: JobEventKind, deliveryId: string, extra?: { documentId?: string; fields?: Record<string, unknown> }): WebhookDelivery | undefined {
  const wanted = what === 'cancelled' ? 'completed' : what;
  if (hooks.events && !hooks.events.includes(wanted)) return undefined;
  const event: WebhookEvent = `${hooks.kind ?? 'crawl'}.${what}`;
  return { event, deliveryId, urls: hooks.urls, subjectId: hooks.crawlId, metadata: hooks.metadata, documentId: extra?.documentId, extra: extra?.fields, ...(hooks.headers ? { headers: hooks.headers } : {}) };
}

export interface CrawlWorkflowInput {
  crawlId: string;
  hooks?: CrawlWebhookContext;
  /** Carried across continue-as-new: ids and counters only, never the frontier. */
  resumed?: { pagesDone: number; failed: number };
}

/** How a crawl's page work is spread: `count` lanes of up to `width` pages in flight each. */
export interface LanePlan {
  count: number;
  width: number;
  /** ms between requests to the site (`delay`, or robots.txt Crawl-delay): then one lane of width 1. */
  delayMs: number;
  /** A lane run stops claiming after this long (CRAWL_LANE_ROTATE_MS). */
  maxMs: number;
}

export interface LaneInput {
  crawlId: string;
  /** Identifies this lane run's claims: `<workflow run id>:<lane>:<run number>`. */
  token: string;
  width: number;
  delayMs: number;
  /** The lane stops claiming after this long, finishes what it holds and returns (the workflow starts it again). */
  maxMs: number;
  /** The workflow's task queue, where the crawl.page webhook deliveries run. */
  taskQueue: string;
}

/**
 * Why a lane run ended: `drained` (nothing queued or in flight anywhere in the crawl), `rotate` (its
 * time was up), `wait` (nothing to do for `waitMs`: a pause or backoff; the workflow sleeps on a
 * timer instead of holding a worker slot), `stopped` (the crawl is no longer running).
 */
export interface LaneResult {
  exit: 'drained' | 'rotate' | 'wait' | 'stopped';
  waitMs?: number;
  /** Documents this lane run stored. */
  stored: number;
  /** The crawl's counters when the lane ended. */
  completed: number;
  failed: number;
  total: number;
}

export interface CrawlPageInput {
  crawlId: string;
  /** job_url.id (a bigint, as text). */
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
  /** Absent only when `finished` (and in histories recorded before page lanes). */
  lanes?: LanePlan;
}

export interface CrawlSummary {
  status: JobStatus;
  completed: number;
  total: number;
  failed: number;
  skipped: Record<string, number>;
  error?: string;
}
