/**
 * Teaser cards after the article: "recent articles", "trending stories", a carousel of other posts.
 * Each card is a link to another page (a headline or a thumbnail) with a short excerpt of that page,
 * and the excerpt is prose, so neither link density nor class words find them ("post-summary",
 * "article-item", Tailwind's utility classes). What gives them away is their shape: several
 * siblings alike, each a small block that links elsewhere through a heading, a picture or a block
 * named as a title (`div.title > a`).
 */
import { classIdParts } from './class-names.js';
import type { Stats, StatsMap } from './content-score.js';
import { ELEMENT_NODE, findDescendant, fromHereOn, isWithin, TEXT_NODE } from './dom.js';

/** Cards in a row, at least: two alike can be a pair of figures. */
const RUN = 3;
/** A card's text, at most: a title, an excerpt and a date. */
export const CARD_TEXT = 700;

/** A heading under the page's title. */
export const HEADING = /^h[2-6]$/;
const TITLE_TAGS = new Set(['img', 'picture', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Tag and class words, without numbered words (`post-1035544`): what siblings alike share. */
function shape(el: Element): string {
  const words = (el.getAttribute('class') ?? '').split(/\s+/).filter((w) => w && !/\d/.test(w));
  return `${el.localName}.${words.sort().join('.')}`;
}

/** A link to another page (not a fragment of this one). */
function isOutboundLink(a: Element): boolean {
  const href = a.getAttribute('href')?.trim();
  return !!href && !href.startsWith('#') && !href.toLowerCase().startsWith('javascript:');
}

/** Class words of an excerpt: a preview of another page's text (`entry-summary`, `line-clamp-2`). */
const EXCERPT_WORDS = new Set(['excerpt', 'summary', 'teaser', 'snippet', 'blurb', 'dek', 'clamp']);
const EXCERPT_HINT = /excerpt|summary|teaser|snippet|blurb|dek|clamp/i;
/** Text cut short: "Retiring Our…", "on Tuesday, December 1...". */
const CUT_SHORT = /(?:\u2026|\.\.\.)\s*$/;

/** Whether a card shows an excerpt of the page it links to: a block named so, or text cut short. */
function hasExcerpt(card: Element): boolean {
  return !!findDescendant(card, (d) => {
    const names = `${d.getAttribute('class') ?? ''} ${d.getAttribute('id') ?? ''}`;
    if (EXCERPT_HINT.test(names) && classIdParts(d).some((w) => EXCERPT_WORDS.has(w))) return true;
    const last = d.lastChild;
    return !d.firstElementChild && last?.nodeType === TEXT_NODE && CUT_SHORT.test(last.nodeValue ?? '');
  });
}

const TITLE_WORDS = new Set(['title', 'headline', 'heading']);

/** A block named as a title: `div.title`, `.card-headline`. */
function namesTitle(el: Element): boolean {
  return classIdParts(el).some((w) => TITLE_WORDS.has(w));
}

/** A small block whose headline or picture links to another page. */
function isCard(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.text > CARD_TEXT || s.links - s.fragmentLinks === 0) return false;
  return !!findDescendant(el, (d) => {
    if (d.localName === 'a') return isOutboundLink(d) && (!!findDescendant(d, (t) => TITLE_TAGS.has(t.localName)) || namesTitle(d.parentElement!));
    if (!HEADING.test(d.localName)) return false;
    const a = findDescendant(d, (t) => t.localName === 'a');
    return !!a && isOutboundLink(a);
  });
}

/** Text before the first run, at least: an article came first. */
const ARTICLE_BEFORE = 500;
/**
 * The article's share of what the runs hold, at least, in text and in prose: a short post can be
 * followed by four cards with long excerpts (a law firm's blog), a listing's intro is not half
 * its cards.
 */
const ARTICLE_SHARE = 0.5;
/** `compareDocumentPosition`: the other node precedes this one. */
const PRECEDING = 2;

/** What `of` counts under `root` from `first` (included) to the end of `root`. */
function sumFrom(first: Element, root: Element, stats: StatsMap, of: (s: Stats) => number): number {
  return fromHereOn(first, root).reduce((total, el) => {
    const s = stats.get(el);
    return total + (s ? of(s) : 0);
  }, 0);
}

function atLeast<T>(items: readonly T[], n: number, test: (item: T) => boolean): boolean {
  let found = 0;
  for (const item of items) if (test(item) && ++found >= n) return true;
  return false;
}

/** Runs of at least RUN siblings of one shape under `root`, every one a card, at least RUN of them with an excerpt. */
function cardRuns(root: Element, stats: StatsMap): Element[][] {
  const runs: Element[][] = [];
  const seen = new Set<Element>();
  for (const el of stats.keys()) {
    const parent = el.parentElement;
    if (!parent || seen.has(parent)) continue;
    seen.add(parent);
    // Through firstChild and nextSibling: domino's element-only accessors rebuild a cache each time.
    let count = 0;
    for (let c = parent.firstChild; c && count < RUN; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) count++;
    if (count < RUN || !isWithin(parent, root)) continue;
    const children: Element[] = [];
    for (let c = parent.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) children.push(c as Element);
    const shapes = children.map(shape);
    for (let i = 0; i < children.length; ) {
      let j = i + 1;
      while (j < children.length && shapes[j] === shapes[i]) j++;
      const run = children.slice(i, j);
      i = j;
      if (run.length >= RUN && run.every((c) => isCard(c, stats)) && atLeast(run, RUN, hasExcerpt)) runs.push(run);
    }
  }
  return runs;
}

/**
 * Teaser cards under `root` when they all come after an article: the text and the prose
 * (`Stats.mass`) before the first run are at least half what all the runs hold (ARTICLE_SHARE),
 * and at least ARTICLE_BEFORE characters. A run that is all of its parent's elements goes with the parent.
 * A listing's cards are most of its text, and a section front alternates rows of cards with
 * headlines: neither is touched.
 */
export function collectTeaserCards(root: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  const runs = cardRuns(root, stats);
  if (runs.length === 0) return found;
  const first = runs.reduce((a, b) => (a[0].compareDocumentPosition(b[0]) & PRECEDING ? b : a))[0];
  const inRuns = (of: (s: Stats) => number) => runs.flat().reduce((sum, c) => sum + of(stats.get(c)!), 0);
  const rootStats = stats.get(root);
  if (!rootStats) return found;
  for (const of of [(s: Stats) => s.text, (s: Stats) => s.mass]) {
    const before = of(rootStats) - sumFrom(first, root, stats, of);
    if (before < ARTICLE_SHARE * inRuns(of)) return found;
  }
  if (rootStats.text - sumFrom(first, root, stats, (s) => s.text) < ARTICLE_BEFORE) return found;
  for (const run of runs) {
    const parent = run[0].parentElement!;
    if (parent !== root && !run[0].previousElementSibling && !run.at(-1)!.nextElementSibling) found.add(parent);
    else for (const c of run) found.add(c);
  }
  return found;
}
