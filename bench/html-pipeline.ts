/**
 * Per-page cost of the HTML pipeline against plain turndown, on generated ~20 KB and ~200 KB
 * article pages (bench/html-fixture.ts). Run: npx tsx bench/html-pipeline.ts
 *
 * Rows: plain turndown on the page string (the baseline DEPENDENCY-NOTES quotes), processPage with
 * markdown only, with onlyMainContent, and with all four formats; then parts: the parse alone, parse
 * plus our markdown conversion, and parse plus turndown with our rules (what our converter replaced).
 * Times are CPU time of this process, so other load on the machine skews them less.
 */
import TurndownService from 'turndown';
import { parseHtml } from '../core/html/dom.js';
import { processPage } from '../core/html/index.js';
import { toMarkdown } from '../core/html/markdown.js';
import type { PageFormat } from '../core/html/types.js';
import { turndownMarkdown } from '../test/helpers/turndown-markdown.js';
import { articlePage } from './html-fixture.js';

/** CPU milliseconds of this process (user + system): less skewed than wall time on a shared machine. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Median CPU ms per call of each case. Cases run interleaved, `rounds` times `perRound` calls each,
 * so a burst of load from other processes hits every case alike; the median drops outlier rounds.
 */
async function measure(cases: ReadonlyArray<() => unknown>, rounds: number, perRound: number): Promise<number[]> {
  for (const fn of cases) for (let i = 0; i < perRound; i++) await fn(); // warm-up: JIT, caches
  const samples = cases.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, fn] of cases.entries()) {
      const start = cpuMs();
      for (let k = 0; k < perRound; k++) await fn();
      samples[i].push((cpuMs() - start) / perRound);
    }
  }
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)]);
}

const url = 'https://example.com/articles/bench';
const markdownOnly = new Set<PageFormat>(['markdown']);
const allFormats = new Set<PageFormat>(['markdown', 'html', 'rawHtml', 'links']);

for (const target of [20_000, 200_000]) {
  const html = articlePage(target);
  const bytes = new TextEncoder().encode(html);
  const mb = bytes.length / 1e6;
  const plain = new TurndownService();
  const cases: Array<[string, () => unknown]> = [
    ['turndown(html string), default options', () => plain.turndown(html)],
    ['processPage markdown', () => processPage({ body: bytes, contentType: 'text/html', url, formats: markdownOnly })],
    ['processPage markdown + onlyMainContent', () => processPage({ body: bytes, contentType: 'text/html', url, formats: markdownOnly, onlyMainContent: true })],
    ['processPage all four formats', () => processPage({ body: bytes, contentType: 'text/html', url, formats: allFormats })],
    ['  part: parse (domino)', () => parseHtml(html)],
    ['  part: parse + toMarkdown(body)', () => toMarkdown(parseHtml(html).body)],
    // The same markdown written by turndown with our rules (the converter's reference, test/helpers).
    ['  part: parse + turndown, our rules', () => turndownMarkdown(parseHtml(html).body)],
  ];
  const perRound = target > 100_000 ? 2 : 10;
  const ms = await measure(cases.map(([, fn]) => fn), 15, perRound);
  const rows = cases.map(([label], i) => [label, ms[i]] as const);

  console.log(`\npage ${(bytes.length / 1024).toFixed(1)} KiB`);
  const baseline = rows[0][1];
  for (const [label, ms] of rows) {
    const ratio = label.startsWith('  ') ? '' : `  x${(ms / baseline).toFixed(2)} of turndown`;
    console.log(`${label.padEnd(42)} ${ms.toFixed(2).padStart(8)} ms/page ${(mb / (ms / 1000)).toFixed(2).padStart(7)} MB/s${ratio}`);
  }
}
