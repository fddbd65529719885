/**
 * Prometheus metrics (README "Metrics"): `GET /metrics` on the API, on a worker's scrape endpoint
 * (with the Temporal SDK's own worker metrics) and the gate METRICS_TOKEN puts on them. The API and
 * an in-process worker share this file's process and so its registry: every count below is what this
 * file did, exactly.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from './fixtures/crawl-site.js';
import { crawlToEnd } from './helpers/crawl.js';
import { startTestApi } from './helpers/api.js';
import { TEST_PEPPER } from './helpers/env.js';
import { pollUntil } from './helpers/poll.js';
import { createKey } from '../api/keys-store.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { spawnWorker } from './helpers/worker-process.js';
import { sample, samples, scrapeMetrics } from './helpers/prometheus.js';
import { uniqueTaskQueue } from './helpers/worker.js';
import { freePort } from '../scripts/infra/ready.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
let site: Awaited<ReturnType<typeof startCrawlSite>>;
let stack: TestStack;

beforeAll(async () => {
  [site, stack] = await Promise.all([
    startCrawlSite({ pages: { '/': ['/a', '/b'], '/a': ['/c'], '/b': [], '/c': [] } }),
    // Two scrapes a minute: the third is refused.
    startTestStack({ METRICS_TOKEN, RATE_LIMIT_SCRAPE_PER_MIN: '2' }),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const metrics = (url: string, token: string | null = METRICS_TOKEN) => scrapeMetrics(url, token);

describe('GET /metrics on the API', () => {
  it('answers 401 without METRICS_TOKEN, and an API key is not it', async () => {
    const bare = await metrics(stack.api.url, null);
    expect(bare.status).toBe(401);
    expect(JSON.parse(bare.text)).toMatchObject({ success: false, code: 'unauthorized' });
    expect((await metrics(stack.api.url, stack.key)).status).toBe(401);
    const ok = await metrics(stack.api.url);
    expect(ok.status).toBe(200);
    expect(ok.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    // Process figures from prom-client, under our prefix.
    expect(sample(ok.text, 'pagewright_process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('answers anyone when METRICS_TOKEN is not set', async () => {
    const open = await startTestApi();
    try {
      expect((await metrics(open.url, null)).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('counts requests by route pattern and status, rate-limit refusals, scraped and failed pages, stores and credits', async () => {
    const scrape = (url: string) => stack.post('/v1/scrape', { url });
    expect((await scrape(`${site.url}/b`)).status).toBe(200);
    // Nothing listens there: the page fails, counted under its failure code with no engine.
    expect((await scrape(`http://127.0.0.1:${await freePort()}/`)).status).toBe(502);
    expect((await scrape(`${site.url}/b`)).status).toBe(429);
    // A status read names its pattern, not the id.
    expect((await stack.get('/v1/crawl/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const { text } = await metrics(stack.api.url);
    const route = { method: 'POST', route: '/v1/scrape' };
    expect(sample(text, 'pagewright_http_requests_total', { ...route, status: '200' })).toBe(1);
    expect(sample(text, 'pagewright_http_requests_total', { ...route, status: '502' })).toBe(1);
    expect(sample(text, 'pagewright_http_requests_total', { ...route, status: '429' })).toBe(1);
    expect(sample(text, 'pagewright_http_request_duration_seconds_count', { ...route, status: '200' })).toBe(1);
    expect(sample(text, 'pagewright_http_requests_total', { method: 'GET', route: '/v1/crawl/:id', status: '404' })).toBe(1);
    expect(samples(text, 'pagewright_http_requests_total').some((s) => s.labels.route!.includes('00000000'))).toBe(false);
    expect(sample(text, 'pagewright_rate_limit_refusals_total', { limit: 'scrape' })).toBe(1);
    expect(sample(text, 'pagewright_pages_total', { kind: 'scrape', engine: 'fetch', outcome: 'ok' })).toBe(1);
    // Each attempt through the pipeline counts: a scrape whose fetch failed is tried once more (worker/scrape-once.ts).
    expect(sample(text, 'pagewright_pages_total', { kind: 'scrape', engine: 'none', outcome: 'fetch_failed' })).toBe(2);
    expect(sample(text, 'pagewright_page_fetch_seconds_count', { engine: 'fetch' })).toBe(1);
    expect(sample(text, 'pagewright_page_convert_seconds_count')).toBe(1);
    expect(sample(text, 'pagewright_store_seconds_count', { kind: 'scrape' })).toBe(1);
    expect(sample(text, 'pagewright_credits_metered_total', { source: 'scrape' })).toBe(1);
  });

  it("counts a crawl's pages, its stored batches and credits, and no lane is left running", async () => {
    const { status } = await crawlToEnd(stack, { url: site.url });
    expect(status).toMatchObject({ status: 'completed', completed: 4 });
    const { text } = await metrics(stack.api.url);
    expect(sample(text, 'pagewright_pages_total', { kind: 'crawl', engine: 'fetch', outcome: 'ok' })).toBe(4);
    expect(sample(text, 'pagewright_credits_metered_total', { source: 'crawl' })).toBe(4);
    expect(sample(text, 'pagewright_store_seconds_count', { kind: 'crawl' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pagewright_crawl_lanes_running')).toBe(0);
    // The in-process worker's browser pool (idle: no page needed it) and its inline conversion.
    expect(sample(text, 'pagewright_browser_contexts', { state: 'busy' })).toBe(0);
  });
});

describe("GET /metrics on a worker's scrape endpoint", () => {
  it("serves the worker process's own metrics and the Temporal SDK's, behind METRICS_TOKEN; the Grafana dashboard queries only metrics that exist", async () => {
    const port = await freePort();
    const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('metrics'), METRICS_TOKEN, ALLOW_PRIVATE_ADDRESSES: 'true' };
    const worker = spawnWorker({ ...env, WORKER_SCRAPE_HOST: '127.0.0.1', WORKER_SCRAPE_PORT: String(port) });
    const api = await startTestApi({ env });
    try {
      await worker.ready;
      const url = `http://127.0.0.1:${port}`;
      expect((await metrics(url, null)).status).toBe(401);
      // A crawl on the worker process, so its pages and the SDK's task metrics have something to count.
      const { key } = await createKey(api.deps.prisma, 'metrics-worker', TEST_PEPPER);
      const call = (method: string, path: string, body?: unknown) =>
        fetch(api.url + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const { id } = await call('POST', '/v1/crawl', { url: site.url });
      const done = await pollUntil(() => call('GET', `/v1/crawl/${String(id)}?limit=1`), (b) => b.status !== 'scraping', 'the crawl to end');
      expect(done).toMatchObject({ status: 'completed', completed: 4 });

      const { status, type, text } = await metrics(url);
      expect(status).toBe(200);
      expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(sample(text, 'pagewright_pages_total', { kind: 'crawl', engine: 'fetch', outcome: 'ok' })).toBe(4);
      expect(sample(text, 'pagewright_credits_metered_total', { source: 'crawl' })).toBe(4);
      expect(sample(text, 'pagewright_convert_queue_length')).toBe(0);
      expect(sample(text, 'pagewright_crawl_lanes_running')).toBe(0);
      expect(sample(text, 'pagewright_browser_contexts', { state: 'busy' })).toBe(0);
      // The SDK's worker metrics, from its core's listener, under our prefix.
      expect(samples(text, 'pagewright_temporal_num_pollers').length).toBeGreaterThan(0);
      expect(samples(text, 'pagewright_temporal_activity_schedule_to_start_latency_count').length).toBeGreaterThan(0);

      // deploy/grafana/pagewright.json: every metric a panel queries is served by the API or the worker.
      // (Declared with a TYPE line: a counter no request has touched yet has no sample.)
      const served = new Set([...text.split('\n'), ...(await metrics(api.url)).text.split('\n')].map((l) => /^(?:# TYPE )?(pagewright_\w+?)(?:_bucket|_sum|_count)?[{ ]/.exec(l)?.[1]).filter(Boolean));
      const dashboard = JSON.parse(readFileSync(new URL('../deploy/grafana/pagewright.json', import.meta.url), 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
      const queried = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/pagewright_\w+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, ''))));
      expect(queried.length).toBeGreaterThan(15);
      expect([...new Set(queried)].filter((name) => !served.has(name))).toEqual([]);
    } finally {
      await api.close();
      await worker.kill('SIGTERM');
    }
  });
});
