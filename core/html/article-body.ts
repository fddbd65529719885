/**
 * The article's body as the page states it in its JSON-LD (schema.org `articleBody`), found in the
 * tree: publishers write the story's text there for search engines, so where that text starts and
 * ends on the page is where the story is.
 */
import type { StatsMap } from './content-score.js';
import { ELEMENT_NODE, isWithin, parseHtml, TEXT_NODE, textOf, walkElements } from './dom.js';

/** Characters under which an `articleBody` is a summary, not the story. */
const MIN_BODY_TEXT = 200;
/** Words read at each end of the body to find where it starts and ends on the page. */
const PROBE_WORDS = 8;
/** Runs tried at each end, one after another, when the first is not on the page (words joined or split differently). */
const PROBE_TRIES = 4;
/** The block found must hold at least this share of the body's words, and at most this many times them. */
const MIN_COVER = 0.6;
const MAX_COVER = 3;

const WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/** The `articleBody` texts of the page's JSON-LD blocks (nested and in `@graph`s too). */
function bodiesIn(value: unknown, out: string[], depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) bodiesIn(item, out, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'articleBody' && typeof item === 'string') out.push(item);
    else bodiesIn(item, out, depth + 1);
  }
}

/** The one story body the page's JSON-LD states, or undefined (none, a summary, or several different ones). */
export function jsonLdArticleBody(scripts: readonly Element[]): string | undefined {
  const bodies: string[] = [];
  for (const script of scripts) {
    try {
      bodiesIn(JSON.parse(textOf(script)), bodies);
    } catch {
      // Broken JSON-LD is common; it states nothing.
    }
  }
  const distinct = [...new Set(bodies.map(plainText).filter((b) => b.length >= MIN_BODY_TEXT))];
  return distinct.length === 1 ? distinct[0] : undefined;
}

/** An `articleBody` as text: many pages put the story's HTML there, some escaped twice (`&lt;b&gt;`). */
function plainText(stated: string): string {
  let text = stated.trim();
  for (let pass = 0; pass < 2 && /[<&]/.test(text); pass++) text = textOf(parseHtml(`<body>${text}`).body).trim();
  return text;
}

/**
 * Where `want` starts (or, `fromEnd`, ends) in `words`, from `after` on: the first of PROBE_TRIES runs
 * of PROBE_WORDS words, read from that end of `want`, that the page holds (its first showing for the
 * start, its last for the end: a story's sentences may repeat words); -1 when none is there.
 */
function findEnd(words: readonly string[], want: readonly string[], fromEnd: boolean, after: number): number {
  for (let t = 0; t < PROBE_TRIES; t++) {
    const at = fromEnd ? want.length - PROBE_WORDS * (t + 1) : PROBE_WORDS * t;
    if (at < 0 || at + PROBE_WORDS > want.length) break;
    const found = indexOfRun(words, want.slice(at, at + PROBE_WORDS), after, fromEnd);
    if (found >= 0) return fromEnd ? found + PROBE_WORDS - 1 : found;
  }
  return -1;
}

/** The first (or, `last`, the last) index from `from` on where `run` stands in `words`; -1 when nowhere. */
function indexOfRun(words: readonly string[], run: readonly string[], from: number, last: boolean): number {
  const matches = (i: number): boolean => run.every((word, k) => words[i + k] === word);
  if (last) {
    for (let i = words.length - run.length; i >= from; i--) if (matches(i)) return i;
  } else {
    for (let i = from; i + run.length <= words.length; i++) if (matches(i)) return i;
  }
  return -1;
}

/**
 * The block that holds the stated body: the nearest scored ancestor of the text where its first
 * words start and its last words end. Undefined when either end is not on the page, or the block
 * holds far less or far more than the body's words (a match elsewhere, a truncated statement).
 */
export function locateArticleBody(body: Element, stats: StatsMap, text: string): Element | undefined {
  const want = wordsOf(text);
  if (want.length < 2 * PROBE_WORDS) return undefined;
  const words: string[] = [];
  const owners: Node[] = [];
  // Every word of the page in document order, with the text node it is in.
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        for (const w of wordsOf(child.nodeValue ?? '')) {
          words.push(w);
          owners.push(child);
        }
      } else if (child.nodeType === ELEMENT_NODE) walk(child);
    }
  };
  walk(body);
  const start = findEnd(words, want, false, 0);
  if (start < 0) return undefined;
  const end = findEnd(words, want, true, start);
  if (end < 0) return undefined;
  const first = owners[start];
  const last = owners[end];
  let block: Element | null = first.parentElement;
  while (block && block !== body && (!isWithin(last, block) || !stats.has(block))) block = block.parentElement;
  if (!block || block === body) return undefined;
  const count = wordsOf(textOf(block)).length;
  return count >= MIN_COVER * want.length && count <= MAX_COVER * want.length ? block : undefined;
}

/** Block elements the statement may leave out as furniture; anything else (inline, lists, tables, headings) stays. */
const LEAVABLE = new Set(['p', 'div', 'section', 'aside', 'figure', 'figcaption', 'blockquote', 'footer', 'header', 'form', 'details', 'center', 'article']);
/** Elements that make a block part of the article's structure, whatever its words. */
const STRUCTURE = new Set(['h1', 'table', 'ul', 'ol', 'dl', 'pre']);
const SUBHEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
/** Words under which a block is left alone: a date, a credit, a label. */
const MIN_LEFT_WORDS = 4;
/** Shares of a block's word triples found in the statement: at most this, it is not the story's; at least that, it is. */
const UNSTATED_SHARE = 0.2;
const STATED_SHARE = 0.9;
/** A left-out block with a subheading and this many paragraphs of 20 words or more is a section the statement does not cover. */
const SECTION_PARAGRAPHS = 2;
const LONG_PARAGRAPH_WORDS = 20;
/** Never more than this share of the block's words goes. */
const MAX_LEFT_SHARE = 0.25;

/** The three words from `i` on, as one key. */
const tripleAt = (words: readonly string[], i: number): string => `${words[i]} ${words[i + 1]} ${words[i + 2]}`;

/** What the filter reads of a block: its sub-headings' words, whether it holds structure, its long paragraphs. */
function shapeOf(el: Element): { headingWords: number; structured: boolean; longParagraphs: number; subheaded: boolean } {
  const shape = { headingWords: 0, structured: false, longParagraphs: 0, subheaded: false };
  walkElements(el, (child) => {
    const tag = child.localName;
    if (STRUCTURE.has(tag)) shape.structured = true;
    else if (SUBHEADINGS.has(tag)) {
      shape.subheaded = true;
      shape.headingWords += wordsOf(textOf(child)).length;
      return false;
    } else if (tag === 'p' && wordsOf(textOf(child)).length >= LONG_PARAGRAPH_WORDS) shape.longParagraphs++;
  });
  return shape;
}

/**
 * The blocks inside the stated body's block that the statement leaves out: an author's bio, a
 * product box, a newsletter form, a caption between the story's paragraphs. A block goes when
 * almost none of its word triples are in the statement and it holds no list, table or code (a
 * statement often flattens those away); a block that is all sub-heading stays. Nothing goes when
 * the statement skips a whole section (a sub-heading over paragraphs of prose: it covers only part
 * of the story) or would lose more than a quarter of the block's words.
 */
export function collectUnstated(block: Element, text: string): Set<Element> {
  const stated = new Set<string>();
  const want = wordsOf(text);
  for (let i = 0; i + 3 <= want.length; i++) stated.add(tripleAt(want, i));
  const left = new Set<Element>();
  let leftWords = 0;
  let partial = false;
  const visit = (el: Element): void => {
    if (!LEAVABLE.has(el.localName)) return;
    const words = wordsOf(textOf(el));
    if (words.length < MIN_LEFT_WORDS) return;
    let found = 0;
    for (let i = 0; i + 3 <= words.length; i++) if (stated.has(tripleAt(words, i))) found++;
    const share = found / (words.length - 2);
    if (share >= STATED_SHARE) return;
    const shape = shapeOf(el);
    if (shape.headingWords >= 0.8 * words.length) return;
    if (share <= UNSTATED_SHARE && !shape.structured) {
      if (shape.subheaded && shape.longParagraphs >= SECTION_PARAGRAPHS) partial = true;
      left.add(el);
      leftWords += words.length;
      return;
    }
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) visit(child);
  };
  for (let child = block.firstElementChild; child; child = child.nextElementSibling) visit(child);
  return partial || leftWords > MAX_LEFT_SHARE * wordsOf(textOf(block)).length ? new Set() : left;
}
