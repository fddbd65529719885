/**
 * Prometheus metrics (README "Metrics"): one registry per process, served in the text format by
 * `GET /metrics` on the API, on a worker's scrape endpoint and on the browser service. Names start
 * with `pagewright_`. Each process exposes what it does itself: the API its requests, rate-limit
 * refusals, cache reads and the frontier of running crawls (one query per scrape); a worker its pages,
 * lanes, webhooks, browser contexts and convert threads, and (worker/main.ts) the Temporal SDK's own
 * worker metrics. Recording is a counter or histogram update: no I/O on the page path.
 */
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'pagewright_', eventLoopMonitoringPrecision: 100 });

/** Seconds buckets for whole requests and page steps: 5 ms to 2 minutes. */
const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequests = new Counter({
  name: 'pagewright_http_requests_total',
  help: 'API requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
export const httpDuration = new Histogram({
  name: 'pagewright_http_request_duration_seconds',
  help: 'API request latency, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: seconds,
  registers: [registry],
});
export const rateLimitRefusals = new Counter({
  name: 'pagewright_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a per-caller rate limit, by limit.',
  labelNames: ['limit'] as const,
  registers: [registry],
});
export const pageCacheReads = new Counter({
  name: 'pagewright_page_cache_reads_total',
  help: 'Scrapes that looked in the page cache (maxAge), by result: hit or miss.',
  labelNames: ['result'] as const,
  registers: [registry],
});
export const creditsMetered = new Counter({
  name: 'pagewright_credits_metered_total',
  help: 'Credits metered to API keys (one per page read), by what read them: scrape, crawl, cache, search, extract, llmstxt.',
  labelNames: ['source'] as const,
  registers: [registry],
});

export const pages = new Counter({
  name: 'pagewright_pages_total',
  help: 'Page attempts through the page pipeline (a retried page counts each time), by kind (scrape, crawl), engine (none when no engine answered) and outcome (ok, or the failure code).',
  labelNames: ['kind', 'engine', 'outcome'] as const,
  registers: [registry],
});
export const fetchDuration = new Histogram({
  name: 'pagewright_page_fetch_seconds',
  help: 'Time to fetch a page (engine chain, proxies and browser actions included), by the engine that answered.',
  labelNames: ['engine'] as const,
  buckets: seconds,
  registers: [registry],
});
export const convertDuration = new Histogram({
  name: 'pagewright_page_convert_seconds',
  help: 'Time to convert a fetched page (HTML pipeline on a convert thread, waiting for a thread included).',
  buckets: seconds,
  registers: [registry],
});
export const storeDuration = new Histogram({
  name: 'pagewright_store_seconds',
  help: "Time to store results in PostgreSQL: one scrape's document (kind scrape) or one batch of a crawl lane's pages (kind crawl).",
  labelNames: ['kind'] as const,
  buckets: seconds,
  registers: [registry],
});
export const lanesRunning = new Gauge({
  name: 'pagewright_crawl_lanes_running',
  help: 'Crawl page lanes running in this worker.',
  registers: [registry],
});
export const webhookDeliveries = new Counter({
  name: 'pagewright_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome: delivered, failed (will be retried or given up).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Seconds since `start` (from performance.now()). */
export const since = (start: number) => (performance.now() - start) / 1000;

/**
 * A gauge read from live objects when Prometheus scrapes: each source adds its own figures (tests run
 * several pools in one process). Returns the function that removes the source.
 */
function sourcedGauge<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const sources = new Set<() => Partial<Record<string, number>> | Promise<Partial<Record<string, number>>>>();
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const totals: Record<string, number> = {};
      for (const read of sources) {
        for (const [key, value] of Object.entries(await read())) totals[key] = (totals[key] ?? 0) + (value ?? 0);
      }
      this.reset();
      for (const [key, value] of Object.entries(totals)) {
        if (labelNames.length) this.set({ [labelNames[0]!]: key } as Partial<Record<L, string>>, value);
        else this.set(value);
      }
    },
  });
  return (read: () => Partial<Record<string, number>> | Promise<Partial<Record<string, number>>>) => {
    sources.add(read);
    return () => void sources.delete(read);
  };
}

/** `{ busy, idle, waiting }` of a browser pool. */
export const watchBrowserContexts = sourcedGauge('pagewright_browser_contexts', 'Browser contexts of this process, by state: busy (in use), idle, waiting (requests waiting for one).', ['state']);
/** `{ value }`: pages waiting for a convert thread. */
export const watchConvertQueue = sourcedGauge('pagewright_convert_queue_length', 'Pages waiting for a free convert thread in this worker.', []);
/** `{ queued, claimed }` URLs of running crawls and batches (the API reads it from PostgreSQL). */
export const watchFrontier = sourcedGauge('pagewright_frontier_urls', 'URLs in the frontier of running crawls and batch scrapes, by state: queued (waiting for a lane) or claimed (being fetched).', ['state']);

/** The text exposition of this process's registry, plus `extra` (the Temporal SDK's own metrics in a worker). */
export async function metricsText(extra?: () => Promise<string>): Promise<string> {
  const own = await registry.metrics();
  const more = extra ? await extra().catch(() => '') : '';
  return more ? `${own}\n${more}` : own;
}

export const METRICS_CONTENT_TYPE = registry.contentType;

/** Whether a request may read the metrics: always without METRICS_TOKEN, else only with `Bearer <token>` (compared in constant time). */
export function metricsAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
