/**
 * Main-content quality of `onlyMainContent`, per dataset, beside the best open-source extractors
 * measured in the same run. Run by hand (not in CI): it needs the datasets, which this repository
 * does not keep.
 *
 *   npx tsx bench/extraction.ts --trafilatura <trafilatura>/tests --readability <readability>/test/test-pages \
 *     --docs <folder from bench/extraction/docs-set.ts> [--articles <article-extraction-benchmark>] [--wcxb <wcxb>] [--l3s <L3S-GN1 folder>] [--fundus <fundus>] [--part dev|held-out|all] [--worst N] [--dump DIR] [--digits 4]
 *     [--systems ours,ours-markdown,ours-untitled,consensus,whole-page,readability-domino,trafilatura,rs-trafilatura,readability.js] [--cache DIR] [--fresh]
 *
 * Rows per dataset and part (development / held out, see datasets.ts): our pipeline with
 * onlyMainContent (its markdown as plain text, as-is, without its title: `ours-untitled`, and only its lines trafilatura
 * keeps too: `consensus`), the whole page (onlyMainContent off),
 * Readability.js on our domino tree (the library we could have used instead), and as baselines
 * trafilatura, rs-trafilatura (which needs Rust's cargo) and Readability.js on jsdom. Scoring as the public benchmarks do (score.ts). `--worst N` lists
 * the development pages where ours does worst; held-out pages are never listed.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeBody } from '../core/html/decode.js';
import { parseHtml } from '../core/html/dom.js';
import { processPage } from '../core/html/index.js';
import { baselines, readabilityModule, type Extraction } from './extraction/baselines.js';
import { articlesSet, docsSet, fundusSet, l3sSet, readabilitySet, wcxbSet, trafilaturaSet, type Page } from './extraction/datasets.js';
import { articleScore, articleTotals, averageScores, markdownText, shingleScore, snippetCounts, snippetTotals, type Totals } from './extraction/score.js';

const { values: args } = parseArgs({
  options: {
    trafilatura: { type: 'string' },
    readability: { type: 'string' },
    docs: { type: 'string' },
    articles: { type: 'string' },
    wcxb: { type: 'string' },
    l3s: { type: 'string' },
    fundus: { type: 'string' },
    part: { type: 'string', default: 'all' },
    systems: { type: 'string', default: 'ours,ours-markdown,whole-page,trafilatura,rs-trafilatura,readability.js' },
    worst: { type: 'string', default: '0' },
    dump: { type: 'string' },
    cache: { type: 'string', default: join(tmpdir(), 'pagewright-extraction-bench') },
    fresh: { type: 'boolean', default: false },
    /** Decimals of the figures printed (4 to compare two close runs). */
    digits: { type: 'string', default: '3' },
  },
});

const pages: Page[] = [
  ...(args.trafilatura ? trafilaturaSet(args.trafilatura) : []),
  ...(args.readability ? readabilitySet(args.readability) : []),
  ...(args.docs ? docsSet(args.docs) : []),
  ...(args.articles ? articlesSet(args.articles, args.cache) : []),
  ...(args.wcxb ? wcxbSet(args.wcxb, args.cache) : []),
  ...(args.l3s ? l3sSet(args.l3s) : []),
  ...(args.fundus ? fundusSet(args.fundus, args.cache) : []),
];
if (pages.length === 0) {
  console.error('give at least one of --trafilatura, --readability, --docs, --articles, --wcxb, --l3s, --fundus (see the top of bench/extraction.ts)');
  process.exit(2);
}
const parts = args.part === 'all' ? ['dev', 'held-out'] : [args.part];
const wanted = new Set(args.systems.split(','));
if (args.fresh) rmSync(join(args.cache, 'outputs'), { recursive: true, force: true });
mkdirSync(args.cache, { recursive: true });

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Our pipeline's markdown per page. */
async function ours(onlyMainContent: boolean): Promise<Map<string, Extraction>> {
  const out = new Map<string, Extraction>();
  for (const page of pages) {
    const body = readFileSync(page.path);
    const start = cpuMs();
    const { markdown = '' } = await processPage({ body, contentType: 'text/html', url: page.url, formats: new Set(['markdown']), onlyMainContent });
    out.set(page.id, { text: markdown, ms: cpuMs() - start });
  }
  return out;
}

/** The same extractions with their markdown turned into plain text. */
function asText(markdown: Map<string, Extraction>): Map<string, Extraction> {
  return new Map([...markdown].map(([id, e]) => [id, { ...e, text: markdownText(e.text) }]));
}

/**
 * Readability.js run on the domino tree our pipeline already parses (the library candidate for
 * onlyMainContent): its article HTML, converted to markdown by our pipeline as ours is.
 */
async function readabilityOnDomino(): Promise<Map<string, Extraction>> {
  const { Readability } = (await import(readabilityModule(args.cache))) as { Readability: new (doc: Document) => { parse(): { content?: string | null } | null } };
  // Readability iterates collections with for...of; domino's live collections are not iterable.
  const probe = parseHtml('<p>');
  for (const list of [probe.getElementsByTagName('p'), probe.querySelectorAll('p'), probe.body.childNodes, probe.body.children]) {
    const proto = Object.getPrototypeOf(list) as { [Symbol.iterator]?: unknown };
    proto[Symbol.iterator] ??= Array.prototype[Symbol.iterator];
  }
  const out = new Map<string, Extraction>();
  for (const page of pages) {
    const body = readFileSync(page.path);
    const start = cpuMs();
    let text = '';
    try {
      const doc = parseHtml(decodeBody(body, undefined, true).text);
      // domino leaves baseURI unimplemented; Readability reads it to absolutise links.
      Object.defineProperty(doc, 'baseURI', { value: page.url });
      Object.defineProperty(doc, 'documentURI', { value: page.url });
      const article = new Readability(doc).parse();
      const { markdown = '' } = await processPage({ body: article?.content ?? '', contentType: 'text/html', url: page.url, formats: new Set(['markdown']) });
      text = markdownText(markdown);
    } catch (err) {
      console.error(`readability-domino: ${page.id}: ${String(err)}`);
    }
    out.set(page.id, { text, ms: cpuMs() - start });
  }
  return out;
}

/**
 * The same markdown without its first level-one heading (the page's title, which we keep): a
 * diagnostic, for how much of a dataset's score is the title its references leave out.
 */
function untitled(markdown: Map<string, Extraction>): Map<string, Extraction> {
  return new Map([...markdown].map(([id, e]) => [id, { ...e, text: e.text.replace(/^# .*$/m, '') }]));
}

/** Lines shorter than this many words are kept by `consensus` whatever the other extractor holds. */
const CONSENSUS_WORDS = 4;

/**
 * Our lines that trafilatura keeps too (half a line's 4-word shingles in its output), a diagnostic
 * of what two extractors agreeing would give, not a system we could ship. Short lines (headings,
 * labels) stay, and so does all of ours where trafilatura keeps under 30 % of our words. Its CPU is both.
 */
function consensus(markdown: Map<string, Extraction>, other: Map<string, Extraction>): Map<string, Extraction> {
  const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const out = new Map<string, Extraction>();
  for (const [id, e] of markdown) {
    const theirs = words(other.get(id)?.text ?? '');
    const shingles = new Set(theirs.slice(CONSENSUS_WORDS - 1).map((_, i) => theirs.slice(i, i + CONSENSUS_WORDS).join(' ')));
    const mine = markdownText(e.text);
    if (theirs.length < 0.3 * words(mine).length) {
      out.set(id, { text: mine, ms: e.ms + (other.get(id)?.ms ?? 0) });
      continue;
    }
    const kept = e.text.split('\n').filter((line) => {
      const w = words(markdownText(line));
      if (w.length < CONSENSUS_WORDS) return true;
      let shared = 0;
      for (let i = 0; i + CONSENSUS_WORDS <= w.length; i++) if (shingles.has(w.slice(i, i + CONSENSUS_WORDS).join(' '))) shared++;
      return shared >= 0.5 * (w.length - CONSENSUS_WORDS + 1);
    });
    out.set(id, { text: markdownText(kept.join('\n')), ms: e.ms + (other.get(id)?.ms ?? 0) });
  }
  return out;
}

const systems = new Map<string, Map<string, Extraction>>();
const wantsOurs = ['ours', 'ours-markdown', 'ours-untitled', 'consensus'].some((name) => wanted.has(name));
const markdown = wantsOurs ? await ours(true) : new Map<string, Extraction>();
if (wanted.has('ours')) systems.set('ours', asText(markdown));
if (wanted.has('ours-markdown')) systems.set('ours-markdown', markdown);
if (wanted.has('ours-untitled')) systems.set('ours-untitled', asText(untitled(markdown)));
if (wanted.has('whole-page')) systems.set('whole-page', asText(await ours(false)));
if (wanted.has('readability-domino')) systems.set('readability-domino', await readabilityOnDomino());
for (const baseline of baselines(args.cache)) {
  if (wanted.has(baseline.name) || (baseline.name === 'trafilatura' && wanted.has('consensus'))) {
    const out = baseline.run(pages);
    if (wanted.has(baseline.name)) systems.set(baseline.name, out);
    if (baseline.name === 'trafilatura' && wanted.has('consensus')) systems.set('consensus', consensus(markdown, out));
  }
}

function pageF1(page: Page, text: string): number {
  if (page.gold.kind !== 'snippets') {
    const { precision: p, recall: r } = shingleScore(text, page.gold.text);
    return p + r === 0 ? 0 : (2 * p * r) / (p + r);
  }
  const c = snippetCounts(text, page.gold.want, page.gold.unwanted);
  return (c.tp + c.tn) / (c.tp + c.tn + c.fp + c.fn);
}

function totals(group: readonly Page[], out: Map<string, Extraction>): Totals {
  if (group[0].gold.kind === 'article') {
    return articleTotals(group.map((p) => articleScore(out.get(p.id)!.text, p.gold.kind === 'article' ? p.gold.text : '')));
  }
  if (group[0].gold.kind === 'snippets') {
    return snippetTotals(group.map((p) => (p.gold.kind === 'snippets' ? snippetCounts(out.get(p.id)!.text, p.gold.want, p.gold.unwanted) : { tp: 0, fp: 0, fn: 0, tn: 0 })));
  }
  return averageScores(group.map((p) => (p.gold.kind === 'text' ? shingleScore(out.get(p.id)!.text, p.gold.text) : { precision: 0, recall: 0 })));
}

const fmt = (x: number) => x.toFixed(Number(args.digits));
const datasets = [...new Set(pages.map((p) => p.dataset))];
console.log('\n| dataset | part | pages | system | F1 | precision | recall | CPU ms/page (median) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const dataset of datasets) {
  for (const part of parts) {
    const group = pages.filter((p) => p.dataset === dataset && p.heldOut === (part === 'held-out'));
    if (group.length === 0) continue;
    for (const [name, out] of systems) {
      const t = totals(group, out);
      const ms = group.map((p) => out.get(p.id)!.ms).sort((a, b) => a - b)[Math.floor(group.length / 2)];
      console.log(`| ${dataset} | ${part} | ${t.pages} | ${name} | ${fmt(t.f1)} | ${fmt(t.precision)} | ${fmt(t.recall)} | ${ms.toFixed(1)} |`);
    }
  }
}

const worst = Number(args.worst);
const mine = systems.get('ours');
if (worst > 0 && mine) {
  const dev = pages.filter((p) => !p.heldOut);
  const ranked = dev.map((p) => ({ p, f1: pageF1(p, mine.get(p.id)!.text) })).sort((a, b) => a.f1 - b.f1).slice(0, worst);
  console.log(`\nworst ${worst} development pages (ours):`);
  for (const { p, f1 } of ranked) {
    const detail = p.gold.kind !== 'snippets' ? shingleScore(mine.get(p.id)!.text, p.gold.text) : snippetCounts(mine.get(p.id)!.text, p.gold.want, p.gold.unwanted);
    console.log(`  ${fmt(f1)}  ${p.dataset}/${p.id}  ${JSON.stringify(detail, (_, v) => (typeof v === 'number' ? Number(v.toFixed(3)) : v))}`);
  }
}

if (args.dump) {
  for (const [name, out] of systems) {
    const folder = join(args.dump, name);
    mkdirSync(folder, { recursive: true });
    for (const p of pages) if (!p.heldOut) writeFileSync(join(folder, `${p.dataset.replace(/\//g, '-')}-${p.id.replace(/[^A-Za-z0-9.]+/g, '_')}.txt`), out.get(p.id)!.text);
  }
}
