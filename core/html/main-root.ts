/**
 * Step 2 and 3 of onlyMainContent (main-content.ts): which element is the page's content root.
 * The best-scoring candidate (content-score.ts, after Readability), or the one block the page marks
 * as its article's body (`itemprop="articleBody"`, else where its JSON-LD's `articleBody` stands:
 * article-body.ts; taken as it is), widened to an ancestor several
 * good candidates share, to a parent that scores higher or holds much more prose outside links (or
 * an ancestor a few levels up that holds the text's beginning), to
 * its parent when siblings are content too, and up to the article's title; or body, when that root
 * does not hold most of the page's prose (unless the URL names one document and the prose beside
 * the root is mostly in links), or is a sliver of the page's text.
 */
import { candidateScore, linkDensity, proseMass, type Stats, type StatsMap } from './content-score.js';
import { locateArticleBody } from './article-body.js';
import { ancestorWithTag, findDescendant, hasMedia, isWithin } from './dom.js';

/** Share of the page's prose (paragraph score mass) the chosen root needs to be the main block. */
const CLEAR_ROOT_SHARE = 0.5;
/** A root with less text than both of these (characters, share of the page's) is a sliver of the page, not its main block. */
const SLIVER_TEXT = 1000;
const SLIVER_SHARE = 0.1;
/** Share of the page's text under which a short root is a sliver on a hub's URL (not `isDocumentUrl`). */
const HUB_SLIVER_SHARE = 0.5;
/** How many of the best candidates vote for a shared ancestor, and how good they must be. */
const TOP_CANDIDATES = 5;
const ALTERNATIVE_SHARE = 0.75;
const ALTERNATIVE_VOTES = 3;
/**
 * Prose a parent must add, as a share of the candidate's, for the root to widen to it. What it adds
 * counts at its share of text outside links against the candidate's, cubed (WIDEN_LINK_POWER): beside
 * a story with no links, a column of other stories with a blurb each is prose half in links, and
 * counts an eighth; beside a listing's cards, more cards count whole.
 */
const WIDEN_GAIN = 0.25;
const WIDEN_LINK_POWER = 3;
/** Levels above a parent that adds too little where the root may still widen (see topCandidate). */
const WIDEN_LOOKAHEAD = 3;
/** Share of the root's text in code from which a page is technical (see applyMainContent). */
const TECHNICAL_SHARE = 0.05;
/** Same-page links from which a page is a sectioned document (see isTechnical). */
const SECTION_LINKS = 20;
/** On technical pages the root widens over any section that adds this share of prose. */
const TECHNICAL_WIDEN_GAIN = 0.05;

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) out.push(c);
  return out;
}

/**
 * Technical pages (API references, manuals): code, pre or signature headings make up a share of
 * the text, or the page links to its own sections many times (a table of contents, permalinks).
 */
export function isTechnical(s: Stats): boolean {
  return s.codeText >= TECHNICAL_SHARE * s.text || s.fragmentLinks >= SECTION_LINKS;
}

/** Whether the page marks `el` as its article's body (schema.org microdata: `itemprop="articleBody"`). */
function isMarkedArticleBody(el: Element): boolean {
  const prop = el.getAttribute('itemprop');
  return prop !== null && /(?:^|\s)articlebody(?:\s|$)/i.test(prop);
}

/**
 * The best candidate, widened as Readability widens it; undefined when no block scored. A block the
 * page itself marks as its article's body, the only one so marked and holding prose, is the
 * candidate as it stands: the publisher's word for where the story ends beats our guesses
 * (a FAQ or a promotion after the body, a sidebar its score would take in). Without such a mark,
 * the block holding the body the page states in its JSON-LD (`stated`, found by article-body.ts)
 * stands the same way. Only an ancestor that three good candidates share still takes it: a thread marks
 * its first post so, and the replies are content too.
 */
function topCandidate(body: Element, stats: StatsMap, stated?: Element): Element | undefined {
  const gain = isTechnical(stats.get(body)!) ? TECHNICAL_WIDEN_GAIN : WIDEN_GAIN;
  const ranked: Array<[Element, number]> = [];
  let marked: Element | null | undefined;
  for (const [el, s] of stats) {
    if (s.score > 0 && el !== body) ranked.push([el, candidateScore(el, s)]);
    if (el.hasAttribute('itemprop') && isMarkedArticleBody(el)) marked = marked === undefined && proseMass(s) > 0 ? el : null;
  }
  if (ranked.length === 0) return undefined;
  // Else the body the page states in its JSON-LD, where its text stands on the page.
  if (marked === undefined) marked = stated;
  ranked.sort((a, b) => b[1] - a[1]);
  let [top] = ranked[0];
  if (marked) top = marked;
  const topScore = ranked[0][1];
  // An ancestor that several good candidates share holds an article split into parts.
  const good = ranked.slice(1, TOP_CANDIDATES).filter(([, sc]) => sc >= topScore * ALTERNATIVE_SHARE).map(([el]) => el);
  if (good.length >= ALTERNATIVE_VOTES) {
    for (let up = top.parentElement; up && up !== body; up = up.parentElement) {
      // Inline elements (a `<span>` or `<a>` around blocks) have no stats of their own: not candidates.
      if (!stats.has(up)) continue;
      if (good.filter((el) => isWithin(el, up!)).length >= ALTERNATIVE_VOTES) {
        top = up;
        marked = undefined;
        break;
      }
    }
  }
  if (marked) return marked;
  // Climb to an ancestor that scores higher than the candidate (its text continues there),
  // through ancestors that keep at least a third of its score.
  let last = candidateScore(top, stats.get(top)!);
  const floor = last / 3;
  for (let up = top.parentElement; up && up !== body; up = up.parentElement) {
    const us = stats.get(up);
    if (!us || us.score <= 0) continue;
    const score = candidateScore(up, us);
    if (score < floor) break;
    if (score > last) {
      top = up;
      break;
    }
    last = score;
  }
  // Widen while the parent holds much more prose: documentation spreads its text over sections.
  // Past a parent that adds little, an ancestor a few levels up may still hold the text's first
  // part, when little prose follows the root up there: unclosed <section>s nest each later part of a
  // guide in the one before, and its last part can be the best candidate, a callout above it.
  const adds = (up: Element): boolean => {
    const us = stats.get(up);
    const ts = stats.get(top)!;
    return !!us && (proseMass(us) - proseMass(ts)) * addedOutsideLinks(us, ts) ** WIDEN_LINK_POWER >= gain * proseMass(ts);
  };
  for (let up: Element | null = top.parentElement; up && up !== body; up = up.parentElement) {
    if (!stats.has(up)) continue;
    if (elementChildren(up).length > 1 && !adds(up)) {
      const further = widerAncestor(up, top, body, adds, stats, gain);
      if (!further) break;
      up = further;
    }
    top = up;
  }
  return top;
}

/** An ancestor of `parent`, WIDEN_LOOKAHEAD levels up at most, that adds enough to `top` while little prose follows it there. */
function widerAncestor(parent: Element, top: Element, body: Element, adds: (el: Element) => boolean, stats: StatsMap, gain: number): Element | undefined {
  let up = parent.parentElement;
  for (let level = 0; up && up !== body && level < WIDEN_LOOKAHEAD; level++, up = up.parentElement) {
    if (adds(up) && proseAfter(top, up, stats) < gain * proseMass(stats.get(top)!)) return up;
  }
  return undefined;
}

/** The prose of the elements that follow `el` inside `ancestor` (its siblings after it, and theirs on the way up). */
function proseAfter(el: Element, ancestor: Element, stats: StatsMap): number {
  let after = 0;
  for (let at = el; at !== ancestor && at.parentElement; at = at.parentElement) {
    for (let c = at.nextElementSibling; c; c = c.nextElementSibling) {
      const cs = stats.get(c);
      if (cs) after += proseMass(cs);
    }
  }
  return after;
}

/**
 * The share of text outside links in what a parent adds to a candidate, against the candidate's own
 * share (at most 1): a listing's cards widen over more cards, a story not over a column of links.
 */
function addedOutsideLinks(parent: Stats, candidate: Stats): number {
  const addedText = parent.text - candidate.text;
  if (addedText <= 0) return 1;
  const added = 1 - (parent.linkText - candidate.linkText) / addedText;
  return Math.min(1, added / Math.max(0.01, 1 - linkDensity(candidate)));
}

/** Share of a sibling's prose in teasers' blurbs from which it is not content. */
const TEASER_SIBLING = 0.5;
/** `compareDocumentPosition`: the other node follows this one. */
const FOLLOWING = 4;
const SENTENCE_END = /[.!?。！？]["'”’)]?\s*$/;

/** Siblings of the top candidate that are content too (Readability's sibling rule). */
function isContentSibling(sibling: Element, top: Element, stats: StatsMap): boolean {
  const s = stats.get(sibling);
  const ts = stats.get(top)!;
  if (!s || s.text === 0) return hasMedia(sibling) && sibling.localName !== 'a';
  // Lists of headlines with a blurb each are other stories, however much they score.
  if (s.teaser > TEASER_SIBLING * s.mass) return false;
  const topScore = candidateScore(top, ts);
  const threshold = Math.max(10, topScore * 0.2);
  const bonus = sibling.className && sibling.className === top.className ? topScore * 0.2 : 0;
  if (s.score > 0 && candidateScore(sibling, s) + bonus >= threshold) return true;
  const density = linkDensity(s);
  // A lead before the body (a standfirst, an intro block) is prose however it is nested.
  const before = (sibling.compareDocumentPosition(top) & FOLLOWING) !== 0;
  if (before && s.text > 80 && s.mass >= 1 && density < 0.25) return true;
  // A table of facts beside the body: a recipe's ingredients, a product's specifications.
  if (density < 0.5 && isDataTable(sibling)) return true;
  if (sibling.localName !== 'p' && s.inline < s.text) return false;
  if (s.text > 80) return density < 0.25;
  return density === 0 && SENTENCE_END.test(sibling.textContent ?? '');
}

/**
 * The content root and the siblings of it to drop, or body when there is no clear main block;
 * `core` is the best candidate inside the root, and `stated` says it is the block holding the text
 * `statedBody` (the article as the page's JSON-LD states it).
 */
export function chooseRoot(body: Element, stats: StatsMap, url: string, statedBody?: string): { root: Element; drop: Set<Element>; core: Element; stated: boolean } {
  const whole = { root: body, drop: new Set<Element>(), core: body, stated: false };
  const located = statedBody === undefined ? undefined : locateArticleBody(body, stats, statedBody);
  const top = topCandidate(body, stats, located);
  if (!top) return whole;
  let root = top;
  const drop = new Set<Element>();
  const parent = top.parentElement;
  // The root is a block with stats of its own: never an inline wrapper.
  if (parent && parent !== body && stats.has(parent)) {
    const siblings = elementChildren(parent).filter((el) => el !== top);
    const keep = siblings.filter((el) => isContentSibling(el, top, stats));
    if (keep.length > 0) {
      root = parent;
      for (const el of siblings) if (!keep.includes(el)) drop.add(el);
    }
  }
  // The root's prose and text without the siblings it drops.
  const kept = (of: (s: Stats) => number): number => of(stats.get(root)!) - [...drop].reduce((sum, el) => sum + (stats.has(el) ? of(stats.get(el)!) : 0), 0);
  // Teasers' blurbs are not the page's prose: on older news templates, lists of other stories with
  // a blurb each outweigh the article they surround.
  const prose = kept(proseMass);
  if (prose <= 0) return whole;
  if (prose < CLEAR_ROOT_SHARE * proseMass(stats.get(body)!)) {
    // One document on a busy template (a ticker, a column of features, teasers with blurbs): the
    // prose beside it counts at its share outside links, squared.
    if (!isDocumentUrl(url) || prose < CLEAR_ROOT_SHARE * (prose + proseBeside(body, root, drop, stats))) return whole;
  }
  // A sliver of the page (a promotion, a blurb) can hold its only prose when the rest is product
  // cards or headlines: that page has no main block either. On a hub (a category, a home page) a
  // short intro above its items is such a sliver even when it is a good part of the text.
  const text = kept((s) => s.text);
  if (text < SLIVER_TEXT && text < (isDocumentUrl(url) ? SLIVER_SHARE : HUB_SLIVER_SHARE) * (stats.get(body)?.text ?? 0)) return whole;
  return { ...(withTitle(body, root, drop, stats) ?? { root, drop }), core: top, stated: top === located };
}

/**
 * The prose outside the root (its dropped siblings, and the branches beside it up to body), each
 * branch's at its share of text outside links, squared: a column that is half links counts a quarter.
 */
function proseBeside(body: Element, root: Element, drop: ReadonlySet<Element>, stats: StatsMap): number {
  const weigh = (el: Element): number => {
    const s = stats.get(el);
    return s ? proseMass(s) * (1 - linkDensity(s)) ** 2 : 0;
  };
  let beside = 0;
  for (const el of drop) beside += weigh(el);
  for (let el = root; el !== body && el.parentElement; el = el.parentElement) {
    for (let c = el.parentElement.firstElementChild; c; c = c.nextElementSibling) if (c !== el) beside += weigh(c);
  }
  return beside;
}

/** Words (a year counts as one) from which the last part of a URL's path is a document's slug (`lvmh-mit-ordentlichem-wachstum`, `histalp-jahresbericht-2021`). */
const SLUG_WORDS = 4;
/** A date in a path: `/2008/01/14/`, `/2024/03/`, or in a part of it: `/briefe/2010-10-26-18`. */
const DATE_PATH = /(?:^|\/)(?:19|20)\d{2}\/\d{1,2}\/(?:\d{1,2}\/)?|(?:^|[/_-])(?:19|20)\d{2}-\d{1,2}-\d{1,2}(?:$|[/_.-])/;
/** An id of five or more digits anywhere in the path or query: `art_aid=73388`, `/listing/615442107/`, `showthread.php?t=186269`. */
const LONG_ID = /\d{5,}/;

/**
 * Whether a URL names one document (an article, a thread, a product) rather than a hub (a home,
 * category, service or search page): a date in its path, a long numeric id, or a slug of several
 * words as its last part.
 */
export function isDocumentUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  let path = parsed.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: read the path as written.
  }
  if (DATE_PATH.test(path) || LONG_ID.test(path + parsed.search)) return true;
  const last = path.split('/').filter(Boolean).pop() ?? '';
  return last.replace(/\.[a-z]{2,5}$/i, '').split(/[-_+\s]+/).filter((word) => /\p{L}|^(?:19|20)\d{2}$/u.test(word)).length >= SLUG_WORDS;
}

/** How far above the root the page's title may sit for the root to reach up to it. */
const TITLE_LEVELS = 6;
/** What the title block may add, as a share of the root's text: a headline, a standfirst, a lead. */
const TITLE_BLOCK_SHARE = 0.5;

/**
 * The root widened up to the page's title when it sits just before the root: an article's header
 * (headline, standfirst, lead paragraph) is often a sibling branch of its body. The title is the
 * last `<h1>` before the root (a logo or site name in an h1 comes earlier), and none when the root
 * holds an h1 of its own. What lies between the title and the root is kept; what precedes the
 * title or follows the root is dropped.
 */
function withTitle(body: Element, root: Element, drop: Set<Element>, stats: StatsMap): { root: Element; drop: Set<Element> } | undefined {
  // The stats hold every block element of the page in document order: no second walk for the h1s.
  let title: Element | undefined;
  for (const el of stats.keys()) {
    if (el === root) break;
    if (el.localName === 'h1') title = el;
  }
  title ??= articleHeadline(root, stats);
  if (!title || findDescendant(root, (el) => el.localName === 'h1')) return undefined;
  let top = root.parentElement;
  for (let level = 1; top && top !== body && !isWithin(title, top) && level < TITLE_LEVELS; level++) top = top.parentElement;
  if (!top || top === body || !isWithin(title, top) || !stats.has(top)) return undefined;
  const widened = new Set(drop);
  let added = 0;
  let addedLinks = 0;
  for (let el: Element = root; el !== top; el = el.parentElement!) {
    const lca = el.parentElement === top;
    let before = true;
    for (let c = el.parentElement!.firstElementChild; c; c = c.nextElementSibling) {
      if (c === el) {
        before = false;
        continue;
      }
      // Before the path: kept when it lies after the title (or holds it); after the path: dropped.
      const keep = before && (!lca || isWithin(title, c) || !!(title.compareDocumentPosition(c) & 4));
      if (!keep) widened.add(c);
      else {
        added += stats.get(c)?.text ?? 0;
        addedLinks += stats.get(c)?.linkText ?? 0;
      }
    }
  }
  const rootText = stats.get(root)?.text ?? 0;
  if (added > TITLE_BLOCK_SHARE * rootText || addedLinks > 0.5 * added) return undefined;
  return { root: top, drop: widened };
}

const ARTICLE: ReadonlySet<string> = new Set(['article']);

/**
 * With no h1 left before the root (Funke's papers put theirs in the breadcrumb bar, which goes as
 * navigation), the story's headline is the first h2 of the `<article>` that holds the root, when
 * it comes before the root.
 */
function articleHeadline(root: Element, stats: StatsMap): Element | undefined {
  const article = ancestorWithTag(root, ARTICLE);
  if (!article) return undefined;
  for (const el of stats.keys()) {
    if (el === root) return undefined;
    if (el.localName === 'h2' && isWithin(el, article)) return el;
  }
  return undefined;
}

/** A table of figures or facts rather than layout: it has header cells or a caption. */
export function isDataTable(el: Element): boolean {
  return findDescendant(el, (c) => c.localName === 'th' || c.localName === 'caption' || c.localName === 'thead') !== undefined;
}
