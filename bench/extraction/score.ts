/**
 * Scoring the way the public extraction benchmarks do, so our figures read like theirs.
 *
 * - **Shingles** (article-extraction benchmarks with a full reference text): the text is cut into
 *   word tokens (`\w+`, Unicode), tokens into overlapping 4-word shingles, and each page gets
 *   precision = shared shingles / extracted shingles and recall = shared / reference shingles,
 *   counted as multisets. Page figures are averaged over pages; F1 is the harmonic mean of the
 *   averages. An empty extraction of a non-empty reference scores 0 and 0.
 * - **Snippets** (trafilatura's evaluation set): each page lists snippets its extraction must
 *   contain and snippets it must not; whitespace-normalised substring matches give true/false
 *   positives and negatives summed over the dataset.
 * - **The article-extraction-benchmark's own rule** (`articleScore`, its evaluate.py): shingles of
 *   case-kept `\w+` tokens; per page true and false positives and negatives normalised to sum to 1;
 *   precision averaged over the pages with something extracted, recall over pages with a reference.
 */

const TOKEN = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;

/**
 * Soft hyphens go before tokens are cut, on both sides: a reader sees "Assis&shy;tance" as one
 * word, and our markdown drops them (markdown-text.ts) where hand-made references and the other
 * extractors' text keep them. Not in `articleScore`, which is Zyte's evaluate.py as it is.
 */
const visible = (text: string): string => text.replaceAll('\u00ad', '');

/** `evaluatePy`: Zyte's rule, case kept and the text as it is. */
function shingles(text: string, evaluatePy = false): Map<string, number> {
  const tokens = (evaluatePy ? text : visible(text).toLowerCase()).match(TOKEN) ?? [];
  const counts = new Map<string, number>();
  // A text shorter than one shingle is one shingle of what it has.
  const last = Math.max(1, tokens.length - SHINGLE + 1);
  for (let i = 0; i < last && tokens.length > 0; i++) {
    const key = tokens.slice(i, i + SHINGLE).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface PageScore {
  precision: number;
  recall: number;
}

export function shingleScore(extracted: string, reference: string): PageScore {
  const got = shingles(extracted);
  const want = shingles(reference);
  let gotTotal = 0;
  let wantTotal = 0;
  let shared = 0;
  for (const n of got.values()) gotTotal += n;
  for (const [key, n] of want) {
    wantTotal += n;
    shared += Math.min(n, got.get(key) ?? 0);
  }
  if (wantTotal === 0) return { precision: gotTotal === 0 ? 1 : 0, recall: 1 };
  if (gotTotal === 0) return { precision: 0, recall: 0 };
  return { precision: shared / gotTotal, recall: shared / wantTotal };
}

/** One page's true/false positives and negatives by the article-extraction-benchmark's rule, summing to 1. */
export interface ArticleCounts {
  tp: number;
  fp: number;
  fn: number;
}

export function articleScore(extracted: string, reference: string): ArticleCounts {
  const got = shingles(extracted, true);
  const want = shingles(reference, true);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...got.keys(), ...want.keys()])) {
    const g = got.get(key) ?? 0;
    const w = want.get(key) ?? 0;
    tp += Math.min(g, w);
    fp += Math.max(0, g - w);
    fn += Math.max(0, w - g);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

export function articleTotals(counts: readonly ArticleCounts[]): Totals {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const ratio = (a: number, b: number, miss: number) => (b === 0 && miss === 0 ? 1 : a + b === 0 ? 0 : a / (a + b));
  const precision = mean(counts.filter((c) => c.tp + c.fp > 0).map((c) => ratio(c.tp, c.fp, c.fn)));
  const recall = mean(counts.filter((c) => c.tp + c.fn > 0).map((c) => ratio(c.tp, c.fn, c.fp)));
  return { precision, recall, f1: f1(precision, recall), pages: counts.length };
}

export interface Totals {
  precision: number;
  recall: number;
  f1: number;
  pages: number;
}

const f1 = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

export function averageScores(scores: readonly PageScore[]): Totals {
  const n = Math.max(1, scores.length);
  const precision = scores.reduce((s, x) => s + x.precision, 0) / n;
  const recall = scores.reduce((s, x) => s + x.recall, 0) / n;
  return { precision, recall, f1: f1(precision, recall), pages: scores.length };
}

const normalise = (s: string): string => visible(s).replace(/\s+/g, ' ').trim();

export interface SnippetCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function snippetCounts(extracted: string, want: readonly string[], unwanted: readonly string[]): SnippetCounts {
  const text = normalise(extracted);
  const tp = want.filter((w) => text.includes(normalise(w))).length;
  const fp = unwanted.filter((w) => text.includes(normalise(w))).length;
  return { tp, fp, fn: want.length - tp, tn: unwanted.length - fp };
}

export function snippetTotals(counts: readonly SnippetCounts[]): Totals {
  const sum = counts.reduce((a, c) => ({ tp: a.tp + c.tp, fp: a.fp + c.fp, fn: a.fn + c.fn, tn: a.tn + c.tn }), { tp: 0, fp: 0, fn: 0, tn: 0 });
  const precision = sum.tp + sum.fp === 0 ? 0 : sum.tp / (sum.tp + sum.fp);
  const recall = sum.tp + sum.fn === 0 ? 0 : sum.tp / (sum.tp + sum.fn);
  return { precision, recall, f1: f1(precision, recall), pages: counts.length };
}

/**
 * Plain text of our markdown, for scoring beside extractors that return plain text: link targets,
 * emphasis and heading marks, list bullets, table pipes, fences and backslash escapes go; the words
 * stay (link targets would be words to the shingle tokenizer: `https example com ...`). An image
 * goes whole, alt text too, as in the `textContent` the other extractors' text is read from: it is
 * not text a reader sees, and the datasets' hand-made texts mostly leave it out.
 */
const PLAIN = String.raw`[^\[\]\\]|\\.`;
/** Text inside a link's brackets: escapes, and brackets that balance, two levels deep. */
const LINK_TEXT = String.raw`(?:${PLAIN}|\[(?:${PLAIN}|\[(?:${PLAIN})*\])*\])*`;
/** A link: its text, and its target (escaped parentheses, or balanced ones as CommonMark allows). */
const LINK = new RegExp(String.raw`(?<!\\)\[(${LINK_TEXT})\]\((?:[^()\\]|\\.|\([^)]*\))*\)`, 'g');

export function markdownText(markdown: string): string {
  return markdown
    // An escaped bracket (`\[1\]`) is text, not the start of a link or image.
    // A destination may hold escaped parentheses, as our converter writes them
    // (`filters:no_upscale\(\):max_bytes\(150000\)/x.jpg`), or balanced ones, as CommonMark allows.
    .replace(/(?<!\\)!\[[^\]]*\]\((?:[^()\\]|\\.|\([^)]*\))*\)/g, '')
    // Link text may hold balanced brackets, two deep (`[Buffer.from(arrayBuffer[, byteOffset[, length]])](…)`).
    .replace(LINK, '$1')
    .replace(/^```.*$/gm, '')
    // Inline code: the backticks go, the code stays.
    .replace(/(?<![\\`])(`+)([^\n]+?)(?<!`)\1(?!`)/g, (_, _ticks: string, code: string) => code.trim())
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\|?(?:\s*:?-{3,}:?\s*\|)+\s*$/gm, '')
    .replace(/\s*\|\s*/g, ' ')
    // Our converter writes emphasis with `*` and `**` only: `__` is text (`__m128i`).
    // An escaped star (`inter\* Personen`) is text.
    .replace(/(?<!\\)(\*\*|\*|~~)(?=\S)|(?<=[^\s\\])(\*\*|\*|~~)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}
