/**
 * What traces cost per crawled page, on the main thread (README "Traces"):
 *
 *   npx tsx bench/tracing.ts [-- --pages 20000 --batch 8]
 *
 * Each page does what a lane does around the page pipeline: a `page` span, `page.fetch` (with its
 * engine and status attributes) and `page.convert` inside it, and one `page.store` span per `--batch`
 * pages, all inside an activity's span, with the real work replaced by nothing. Three runs: no
 * spans at all (the code before tracing), `noTracing` (OTEL_EXPORTER_OTLP_ENDPOINT unset), and
 * tracing on, exporting through the real OTLP/HTTP exporter to a collector stand-in in a child
 * process (which reads and drops the body, so its CPU is not counted). CPU is this process's user +
 * system time (process.cpuUsage: exporter threads included) over the run, per page; the run fails if
 * the collector did not receive every span (a full queue drops spans, which would flatter the figure).
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { Logger } from '../core/log.js';
import { noTracing, startTracing, type Tracing } from '../telemetry/tracing.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '20000' }, batch: { type: 'string', default: '8' } } });
const PAGES = Number(args.pages);
const BATCH = Number(args.batch);
const WARMUP = Math.min(2000, PAGES);

const quiet: Logger = { debug() {}, info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m), child: () => quiet };

/** The spans of `pages` pages; `tracing` undefined: the same awaits without any span call. */
async function crawl(tracing: Tracing | undefined, pages: number): Promise<void> {
  const fetch = async () => ({ engine: 'fetch', statusCode: 200 });
  const convert = async () => ({ markdown: '' });
  const page = async () => {
    if (!tracing) {
      await fetch();
      return convert();
    }
    return tracing.span(
      'page',
      async () => {
        await tracing.span('page.fetch', async (span) => {
          const out = await fetch();
          span.setAttributes({ 'pagewright.engine': out.engine, 'http.response.status_code': out.statusCode });
          return out;
        });
        return tracing.span('page.convert', convert);
      },
      { attributes: { 'url.full': 'http://127.0.0.1:8080/some/page' } },
    );
  };
  const store = async (n: number) => (tracing ? tracing.span('page.store', async (span) => span.setAttribute('pagewright.documents', n), { attributes: { 'pagewright.pages': n } }) : undefined);
  const lane = async () => {
    for (let done = 0; done < pages; done += BATCH) {
      const n = Math.min(BATCH, pages - done);
      await Promise.all(Array.from({ length: n }, page));
      await store(n);
      // At most 32 pages a millisecond, far above a real crawl, so the exporter keeps up and no span is dropped. Idle time is not CPU.
      if ((done / BATCH) % 4 === 3) await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  await (tracing ? tracing.span('RunActivity:crawlLane', lane) : lane());
}

async function cpuPerPage(label: string, tracing: Tracing | undefined): Promise<number> {
  await crawl(tracing, WARMUP); // warm-up: JIT
  const before = process.cpuUsage();
  await crawl(tracing, PAGES);
  await tracing?.shutdown(); // spans still buffered are exported inside the measurement
  const used = process.cpuUsage(before);
  const us = (used.user + used.system) / PAGES;
  console.log(`${label.padEnd(34)} ${us.toFixed(2).padStart(7)} µs CPU per page`);
  return us;
}

/** A collector stand-in in its own process: counts the spans of each export and answers 200 `{}`; GET /count says how many. */
const collectorCode = `
let spans = 0;
const s = require('http').createServer((q, r) => {
  let body = '';
  q.on('data', (c) => (body += c));
  q.on('end', () => {
    if (q.method === 'GET') return r.end(String(spans));
    for (const rs of JSON.parse(body).resourceSpans) for (const ss of rs.scopeSpans) spans += ss.spans.length;
    r.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

async function startCollector(): Promise<{ url: string; count(): Promise<number>; stop(): void }> {
  const child = spawn(process.execPath, ['-e', collectorCode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
  const url = `http://127.0.0.1:${port}`;
  return { url, count: async () => Number(await (await fetch(`${url}/count`)).text()), stop: () => child.kill() };
}

const collector = await startCollector();
try {
  console.log(`${PAGES} pages, a store span every ${BATCH} pages`);
  const bare = await cpuPerPage('no span calls (before tracing)', undefined);
  const off = await cpuPerPage('tracing off (noTracing)', noTracing);
  const on = await cpuPerPage('tracing on (OTLP/HTTP, JSON)', startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_SAMPLER_ARG: 1, OTEL_BSP_SCHEDULE_DELAY: 5000 }, 'worker', quiet));
  // Every span must have reached the collector, or the figure would leave out what a full queue dropped.
  const spansOf = (pages: number) => 1 + 3 * pages + Math.ceil(pages / BATCH);
  const received = await collector.count();
  if (received !== spansOf(WARMUP) + spansOf(PAGES)) throw new Error(`the collector received ${received} spans of ${spansOf(WARMUP) + spansOf(PAGES)}: some were dropped, the figure is not valid`);
  console.log(`tracing off adds ${(off - bare).toFixed(2)} µs per page; on adds ${(on - bare).toFixed(2)} µs (${((on - bare) / 1000).toFixed(3)} ms)`);
} finally {
  collector.stop();
}
