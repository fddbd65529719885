/**
 * Does page conversion stall the event loop? Converts the same ~200 KB article page
 * (bench/html-fixture.ts: chrome, article text, tables, lists, links) N times, `concurrency` at a
 * time like a worker's activity slots, once inline on the main thread and once per pool size
 * through worker/convert-pool.ts, while a 10 ms setInterval records how late each tick fires.
 * A worker's heartbeats, activity I/O and Temporal polling all wait on that same loop.
 *
 *   npm run bench:convert [-- --pages 40 --concurrency 2 --threads 1,2]
 */
import { availableParallelism } from 'node:os';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { ConvertPage } from '../core/html/types.js';
import { convertInline, createConvertPool, defaultConvertThreads } from '../worker/convert-pool.js';
import type { PageFormat } from '../core/html/types.js';
import { articlePage } from './html-fixture.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '2' },
    threads: { type: 'string' },
    bytes: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '4' },
  },
});
const pages = Number(args.pages);
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const threadCounts = args.threads ? args.threads.split(',').map(Number) : [...new Set([defaultConvertThreads(concurrency), concurrency])];

const html = articlePage(Number(args.bytes));
const encoded = new TextEncoder().encode(html);
const formats = new Set<PageFormat>(['markdown']);
const input = () => ({ body: encoded.slice(), contentType: 'text/html; charset=utf-8', url: 'https://example.com/articles/bench', formats, onlyMainContent: true });

const TICK_MS = 10;

interface Sample {
  wallMs: number;
  cpuMs: number;
  lags: number[];
}

/**
 * Run `n` conversions, `concurrency` at a time, sampling event-loop lag with a 10 ms interval.
 * Each lane yields to the loop between pages, as an activity does while it fetches and stores.
 * CPU time is the whole process's (main thread and pool threads).
 */
async function run(convert: ConvertPage, n: number): Promise<Sample> {
  const lags: number[] = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - last - TICK_MS));
    last = now;
  }, TICK_MS);
  let next = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const lane = async () => {
    while (next < n) {
      next++;
      await convert(input());
      await setImmediate();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  // Let the tick delayed by the last page fire, so its stall is counted too.
  await sleep(TICK_MS * 2);
  clearInterval(ticker);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, lags };
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

console.log(`page ${(encoded.byteLength / 1024).toFixed(1)} KiB, ${pages} conversions per mode, ${concurrency} at a time, ${availableParallelism()} cores, markdown + onlyMainContent`);

const modes: { name: string; convert: ConvertPage; close(): Promise<void> }[] = [{ name: 'inline (main thread)', convert: convertInline, close: async () => undefined }];
for (const threads of threadCounts) {
  const pool = createConvertPool({ threads });
  modes.push({ name: `pool, ${threads} thread${threads > 1 ? 's' : ''}`, convert: pool.convert, close: () => pool.close() });
}
const samples = new Map<string, Sample[]>(modes.map((m) => [m.name, []]));
try {
  // Every thread loads the pipeline and JIT-compiles it before the clock starts.
  for (const m of modes) for (let i = 0; i < 2; i++) await Promise.all(Array.from({ length: Math.max(...threadCounts) + 1 }, () => m.convert(input())));
  // Rounds interleave the modes, so a change in load from other processes hits each mode alike.
  const perRound = Math.ceil(pages / rounds);
  for (let r = 0; r < rounds; r++) for (const m of modes) samples.get(m.name)?.push(await run(m.convert, perRound));
} finally {
  await Promise.all(modes.map((m) => m.close()));
}

const rows = modes.map((m) => {
  const s = samples.get(m.name) ?? [];
  const sorted = s.flatMap((x) => x.lags).sort((a, b) => a - b);
  const n = Math.ceil(pages / rounds) * rounds;
  const wallMs = s.reduce((a, x) => a + x.wallMs, 0);
  const cpuMs = s.reduce((a, x) => a + x.cpuMs, 0);
  return {
    mode: m.name,
    pagesPerSec: n / (wallMs / 1000),
    mbPerSec: (n * encoded.byteLength) / 1e6 / (wallMs / 1000),
    cpuMsPerPage: cpuMs / n,
    ticks: sorted.length,
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    max: sorted.at(-1) ?? 0,
  };
});

const f = (n: number, d = 1) => n.toFixed(d).padStart(8);
console.log(`\n${'mode'.padEnd(22)} ${'pages/s'.padStart(8)} ${'MB/s'.padStart(8)} ${'CPU ms/pg'.padStart(9)} ${'ticks'.padStart(8)} ${'lag p50'.padStart(8)} ${'lag p99'.padStart(8)} ${'lag max'.padStart(8)}  (lag in ms)`);
for (const r of rows) console.log(`${r.mode.padEnd(22)} ${f(r.pagesPerSec)} ${f(r.mbPerSec, 2)} ${f(r.cpuMsPerPage).padStart(9)} ${String(r.ticks).padStart(8)} ${f(r.p50)} ${f(r.p99)} ${f(r.max)}`);
const [inline, ...pools] = rows;
console.log('');
for (const p of pools) {
  console.log(
    `${p.mode} vs inline: throughput x${(p.pagesPerSec / inline.pagesPerSec).toFixed(2)}, `
      + `lag p99 ${inline.p99.toFixed(1)} → ${p.p99.toFixed(1)} ms (x${(p.p99 / Math.max(inline.p99, 0.01)).toFixed(3)}), `
      + `lag max ${inline.max.toFixed(1)} → ${p.max.toFixed(1)} ms`,
  );
}
