/**
 * What the Prometheus metrics cost a crawled page (issue 26's bar: at most 0.2 ms of CPU per page
 * in bench:crawl). A crawled page updates, in the worker: pages_total, the fetch and convert
 * histograms, and its share of one lane batch's store histogram and credits counter; the lane gauge
 * moves once per lane run. This times exactly those calls on the real registry, with label values
 * as a crawl produces them, against an empty loop, and a Prometheus scrape of the registry as it then
 * stands. Run: npx tsx bench/metrics-cost.ts [pages]
 */
import { cpuUsage } from 'node:process';
import { convertDuration, creditsMetered, fetchDuration, metricsText, pages, storeDuration } from '../telemetry/metrics.js';

const n = Number(process.argv[2] ?? 500_000);
const BATCH = 8;
const engines = ['fetch', 'fetch', 'fetch', 'local_browser'];

function cpuMs(run: () => void): number {
  const before = cpuUsage();
  run();
  const used = cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const withMetrics = () => {
  for (let i = 0; i < n; i++) {
    const engine = engines[i & 3]!;
    fetchDuration.observe({ engine }, 0.012 + (i % 50) / 1000);
    convertDuration.observe(0.004 + (i % 30) / 1000);
    pages.inc({ kind: 'crawl', engine, outcome: i % 97 === 0 ? 'fetch_failed' : 'ok' });
    if (i % BATCH === 0) {
      storeDuration.observe({ kind: 'crawl' }, 0.003);
      creditsMetered.inc({ source: 'crawl' }, BATCH);
    }
  }
};
let sink = 0;
const empty = () => {
  for (let i = 0; i < n; i++) sink += engines[i & 3]!.length + (i % 97 === 0 ? 1 : 0);
};

// Warm up both (JIT), then measure three times each and keep the best.
withMetrics();
empty();
const best = (f: () => void) => Math.min(cpuMs(f), cpuMs(f), cpuMs(f));
const metricsMs = best(withMetrics);
const emptyMs = best(empty);
const perPageUs = ((metricsMs - emptyMs) / n) * 1000;
const scrape = Math.min(...(await Promise.all([0, 1, 2].map(async () => {
  const before = cpuUsage();
  await metricsText();
  const used = cpuUsage(before);
  return (used.user + used.system) / 1000;
}))));
console.log(`pages: ${n.toLocaleString('en')} (sink ${sink % 10})`);
console.log(`metrics per page: ${perPageUs.toFixed(2)} µs CPU (${(perPageUs / 1000).toFixed(4)} ms; bar 0.2 ms: ${perPageUs / 1000 <= 0.2 ? 'met' : 'NOT met'})`);
console.log(`one Prometheus scrape of this registry: ${scrape.toFixed(2)} ms CPU`);
