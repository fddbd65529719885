/**
 * onlyMainContent: narrow the page to its main content and prune what is not content inside it.
 *
 * 1. Chrome goes first, from the whole body: what `chromeEvidence` flags (tags, ARIA roles, hidden
 *    elements, utility forms, class/id words such as comments, related, sidebar). Class/id guesses
 *    (and page-level header/footer tags) are guarded: never remove an element that holds an `<h1>`
 *    (or, for header-like ones, an `<h2>`), a main/article, or most of the text.
 * 2. The content root is chosen by scoring (content-score.ts, after Readability): the best-scoring
 *    candidate, widened to an ancestor several good candidates share, to a parent that scores
 *    higher or holds much more prose (documentation spreads its text over sections), then to its
 *    parent when siblings are content too (the other siblings are dropped).
 * 3. When that root does not hold most of the page's prose (listing, home and search pages, where
 *    prose is spread over many blocks), there is no clear main block: the whole pruned body is the
 *    content, so nothing is cut but the lines that end it after its last prose (`collectTail`).
 * 4. Inside a chosen root, blocks that are furniture (`isFurniture`: link-dense bylines and teaser
 *    lists, form fields, image strips, lone embeds) are removed, then the lines that end the root
 *    after its last prose (`collectTail`: emptied headings, lead-ins, lone links) and the short
 *    lines before its h1 (`collectHead`: kickers, categories, dates), and short lines that are
 *    furniture by their wording (`collectWorded`, these three in furniture-lines.ts: picture credits, "Über den Autor", subscription,
 *    app and follow prompts, in several languages); not on technical pages.
 * Never empty the page: a step that would leave no text and no media is not taken.
 */
import { chromeEvidence, classWeight, isHeaderLike, namesComments, namesContent } from './boilerplate.js';
import { candidateScore, linkDensity, measure, type Stats, type StatsMap } from './content-score.js';
import { ancestorWithTag, findDescendant, hasMedia, visibleTextLength, walkElements } from './dom.js';
import { collectHead, collectOtherStories, collectTail, collectWorded } from './furniture-lines.js';

/** Share of the root's text above which a class/id guess is presumed to be a wrapper, not chrome. */
const WRAPPER_TEXT_SHARE = 0.6;
/** The same for an element whose class/id also has content words (article, body, content, main). */
const CONTENT_TEXT_SHARE = 0.25;
/** Paragraph points (`Stats.mass`) and link share of a block whose class/id guess is overruled as prose. */
const WRAPPER_PROSE = 20;
const WRAPPER_LINKS = 0.2;
const WRAPPER_TEXT = 500;
/** Share of the page's prose (paragraph score mass) the chosen root needs to be the main block. */
const CLEAR_ROOT_SHARE = 0.5;
/** How many of the best candidates vote for a shared ancestor, and how good they must be. */
const TOP_CANDIDATES = 5;
const ALTERNATIVE_SHARE = 0.75;
const ALTERNATIVE_VOTES = 3;
/** Prose a parent must add, as a share of the candidate's, for the root to widen to it. */
const WIDEN_GAIN = 0.25;
/** Paragraph points (`Stats.mass`) from which class/id words alone do not make a block furniture. */
const FURNITURE_PROSE = 5;
/** Characters per image under which a block of images is an image strip (a caption's worth). */
const STRIP_TEXT = 25;
/** Blocks under this many characters are judged by link density alone. */
const SMALL_BLOCK = 150;
/** Mean characters per link from which a link-dense block is a list of headlines. */
const HEADLINE_LINK = 20;
/** Link share above which a long list is a list of headlines rather than prose with links. */
const HEADLINE_LIST_DENSITY = 0.75;
/** Share of the root's text in code from which a page is technical (see applyMainContent). */
const TECHNICAL_SHARE = 0.05;
/** Same-page links from which a page is a sectioned document (see isTechnical). */
const SECTION_LINKS = 20;
/** On technical pages the root widens over any section that adds this share of prose. */
const TECHNICAL_WIDEN_GAIN = 0.05;

function isContentRoot(el: Element): boolean {
  return el.localName === 'main' || el.getAttribute('role') === 'main';
}

function holdsContent(el: Element): boolean {
  return el.localName === 'h1' || el.localName === 'article' || isContentRoot(el);
}

function holdsContentOrH2(el: Element): boolean {
  return el.localName === 'h2' || holdsContent(el);
}

const LISTS = new Set(['ul', 'ol', 'dl']);

/**
 * A wrapper of prose, whatever its class words say (`documentContent__sharingContainer`,
 * `o-section--has-ads`, `tab-menu--product` around a description): many paragraphs with few links.
 * Not reader comments, prose by design, nor a list: a slideshow's legends, teasers with standfirsts.
 */
function holdsProse(el: Element): boolean {
  if (LISTS.has(el.localName) || namesComments(el)) return false;
  // Twenty paragraphs' worth is hundreds of characters: most chrome is not measured at all.
  if (visibleTextLength(el, undefined, WRAPPER_TEXT) < WRAPPER_TEXT) return false;
  const s = measure(el).get(el)!;
  return s.mass >= WRAPPER_PROSE && linkDensity(s) < WRAPPER_LINKS;
}

/** The outermost chrome elements under `root`, not descending into what is already flagged. */
function collectChrome(root: Element, protect: ReadonlySet<Element>): Set<Element> {
  const found = new Set<Element>();
  let rootText: number | undefined; // computed only if a class/id guess needs the wrapper guard
  const isGuarded = (el: Element): boolean => {
    const holds = isHeaderLike(el) ? holdsContentOrH2 : holdsContent;
    if (holds(el)) return true;
    rootText ??= visibleTextLength(root);
    // `entry-content no-share`: a block that also says it is content needs less text to be kept.
    const needed = rootText * (namesContent(el) ? CONTENT_TEXT_SHARE : WRAPPER_TEXT_SHARE);
    if (rootText > 0 && visibleTextLength(el, undefined, needed) >= needed) return true;
    return findDescendant(el, holds) !== undefined || holdsProse(el);
  };
  const comments: Element[] = [];
  walkElements(root, (el) => {
    const evidence = protect.has(el) ? undefined : chromeEvidence(el);
    const guessed = evidence === 'words' || evidence === 'edge';
    if (!evidence || (guessed && isGuarded(el))) return true;
    found.add(el);
    if (guessed && namesComments(el)) comments.push(el);
    return false;
  });
  if (comments.length > 0 && isThread(root, found, comments)) for (const el of comments) found.delete(el);
  return found;
}

/** Text outside the comment blocks under which a page is a thread (a forum, a Q&A), not an article. */
const THREAD_OUTSIDE_TEXT = 500;

/**
 * A page whose text is all in blocks named as comments is a thread: there the comments are the
 * content (a forum's posts, `ipsComment_content`). An article keeps its body outside them.
 */
function isThread(root: Element, chrome: ReadonlySet<Element>, comments: readonly Element[]): boolean {
  if (visibleTextLength(root, chrome, THREAD_OUTSIDE_TEXT) >= THREAD_OUTSIDE_TEXT) return false;
  let inside = 0;
  for (const el of comments) if ((inside += visibleTextLength(el, undefined, THREAD_OUTSIDE_TEXT)) >= THREAD_OUTSIDE_TEXT) return true;
  return false;
}

/** Removes `doomed` from the tree if something would remain under `root`; returns whether it did. */
function removeIfNonEmpty(root: Element, doomed: ReadonlySet<Element>): boolean {
  const remains = visibleTextLength(root, doomed, 1) > 0 || hasMedia(root, doomed);
  if (!remains) return false;
  for (const el of doomed) el.parentNode?.removeChild(el);
  return true;
}

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) out.push(c);
  return out;
}

/**
 * Technical pages (API references, manuals): code, pre or signature headings make up a share of
 * the text, or the page links to its own sections many times (a table of contents, permalinks).
 */
function isTechnical(s: Stats): boolean {
  return s.codeText >= TECHNICAL_SHARE * s.text || s.fragmentLinks >= SECTION_LINKS;
}

/** The best candidate, widened as Readability widens it; undefined when no block scored. */
function topCandidate(body: Element, stats: StatsMap): Element | undefined {
  const gain = isTechnical(stats.get(body)!) ? TECHNICAL_WIDEN_GAIN : WIDEN_GAIN;
  const ranked: Array<[Element, number]> = [];
  for (const [el, s] of stats) if (s.score > 0 && el !== body) ranked.push([el, candidateScore(el, s)]);
  if (ranked.length === 0) return undefined;
  ranked.sort((a, b) => b[1] - a[1]);
  let [top] = ranked[0];
  const topScore = ranked[0][1];
  // An ancestor that several good candidates share holds an article split into parts.
  const good = ranked.slice(1, TOP_CANDIDATES).filter(([, sc]) => sc >= topScore * ALTERNATIVE_SHARE).map(([el]) => el);
  if (good.length >= ALTERNATIVE_VOTES) {
    for (let up = top.parentElement; up && up !== body; up = up.parentElement) {
      // Inline elements (a `<span>` or `<a>` around blocks) have no stats of their own: not candidates.
      if (!stats.has(up)) continue;
      if (good.filter((el) => up!.contains(el)).length >= ALTERNATIVE_VOTES) {
        top = up;
        break;
      }
    }
  }
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
  for (let up = top.parentElement; up && up !== body; up = up.parentElement) {
    const us = stats.get(up);
    if (!us) continue;
    const mass = stats.get(top)!.mass;
    if (elementChildren(up).length > 1 && us.mass - mass < gain * mass) break;
    top = up;
  }
  return top;
}

/** `compareDocumentPosition`: the other node follows this one. */
const FOLLOWING = 4;
const SENTENCE_END = /[.!?。！？]["'”’)]?\s*$/;

/** Siblings of the top candidate that are content too (Readability's sibling rule). */
function isContentSibling(sibling: Element, top: Element, stats: StatsMap): boolean {
  const s = stats.get(sibling);
  const ts = stats.get(top)!;
  if (!s || s.text === 0) return hasMedia(sibling) && sibling.localName !== 'a';
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

/** The content root and the siblings of it to drop, or body when there is no clear main block. */
function chooseRoot(body: Element, stats: StatsMap): { root: Element; drop: Set<Element>; core: Element } {
  const whole = { root: body, drop: new Set<Element>(), core: body };
  const top = topCandidate(body, stats);
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
  const mass = (stats.get(root)?.mass ?? 0) - [...drop].reduce((sum, el) => sum + (stats.get(el)?.mass ?? 0), 0);
  if (mass < CLEAR_ROOT_SHARE * (stats.get(body)?.mass ?? 0)) return whole;
  return { ...(withTitle(body, root, drop, stats) ?? { root, drop }), core: top };
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
  if (!title || findDescendant(root, (el) => el.localName === 'h1')) return undefined;
  let top = root.parentElement;
  for (let level = 1; top && top !== body && !top.contains(title) && level < TITLE_LEVELS; level++) top = top.parentElement;
  if (!top || top === body || !top.contains(title) || !stats.has(top)) return undefined;
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
      const keep = before && (!lca || c.contains(title) || !!(title.compareDocumentPosition(c) & 4));
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

const CLEANED = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'fieldset', 'figure', 'header', 'footer', 'center']);

const FIGURE = new Set(['figure']);

/** A table of figures or facts rather than layout: it has header cells or a caption. */
function isDataTable(el: Element): boolean {
  return findDescendant(el, (c) => c.localName === 'th' || c.localName === 'caption' || c.localName === 'thead') !== undefined;
}

/**
 * Whether a block inside the content root is furniture (after Readability's conditional clean):
 * class/id words against it with no prose; a small block that is mostly links, or a list of
 * headline links (same-page links, a table of contents, are kept); form fields in a small block;
 * an image strip; a lone embed with little text. Ten commas or a data table say content.
 */
function isFurniture(el: Element, s: Stats, root: Element): boolean {
  const weight = classWeight(el);
  if (s.commas >= 10) return false;
  // Class words alone do not make furniture of a block with prose of its own.
  if (weight + s.score < 0 && s.mass < FURNITURE_PROSE) return true;
  const tag = el.localName;
  if (tag === 'table' && isDataTable(el)) return false;
  // An image strip: images with little text each (a forum post or recipe step with smileys or
  // step photos is prose).
  const strip = s.images > 1 && s.paragraphs / s.images < 0.5 && s.text < STRIP_TEXT * s.images;
  if (strip && tag !== 'figure' && !ancestorWithTag(el, FIGURE, root)) return true;
  if (s.inputs > Math.floor(s.paragraphs / 3) && s.text < SMALL_BLOCK * 2) return true;
  if ((s.media === 1 && s.text < 75) || s.media > 1) return true;
  // Links: a small block that is mostly links (a byline, "read more", an ad label), or a list of
  // headlines (teasers, related stories). Same-page links are a table of contents, kept.
  const density = linkDensity(s);
  if (s.links === 0 || s.fragmentLinks / s.links > 0.5) return false;
  if (s.text >= SMALL_BLOCK && s.linkText / s.links < HEADLINE_LINK) return false;
  const isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
  // A long list is headlines when its text is nearly all links; with prose around its links it is content.
  if (isList && s.text >= SMALL_BLOCK) return density > HEADLINE_LIST_DENSITY;
  return density > 0.5 || (weight < 25 && density > (isList ? 0.5 : 0.2));
}

/** The text before an element's first link, or undefined when it has no link. */
function textBeforeLink(el: Element): string | undefined {
  let text = '';
  for (let node: Node | null = el.firstChild; node; ) {
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    else if ((node as Element).localName === 'a') return text;
    if (node.nodeType === 1 && node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && !node.nextSibling && node.parentNode !== el) node = node.parentNode;
    node = node?.nextSibling ?? null;
  }
  return undefined;
}

/** A short label ending in a colon: "Read more:", "Lesen Sie auch:", "VEA TAMBIÉN:". */
const LINK_LABEL = /^[^.!?\d]{2,40}[:：]\s*$/;
const READ_ALSO_MAX = 200;

/**
 * A paragraph that points to another story: a short label with a colon, then a link that is most
 * of the paragraph ("Read more: Looted colonial art"), in any language.
 */
function isReadAlso(el: Element, s: Stats): boolean {
  if (s.text > READ_ALSO_MAX || s.links === 0 || linkDensity(s) < 0.5) return false;
  const label = textBeforeLink(el);
  return label !== undefined && LINK_LABEL.test(label.trim());
}

/**
 * Blocks under `root` that are furniture, outermost first. `core` is the best candidate: neither
 * it nor a block around it is furniture (a root widened up to the title holds the body's wrappers,
 * `item-content__row--sidebar` around the text).
 */
function collectFurniture(root: Element, stats: StatsMap, core: Element): Set<Element> {
  const found = new Set<Element>();
  walkElements(root, (el) => {
    // The blocks around the best candidate hold the content itself, whatever their class says.
    if (el.contains(core)) return true;
    const s = stats.get(el);
    if (s && el.localName === 'p' && isReadAlso(el, s)) {
      found.add(el);
      return false;
    }
    if (!s || !CLEANED.has(el.localName) || !isFurniture(el, s, root)) return true;
    found.add(el);
    const lead = el.previousElementSibling;
    if (lead && isLeadIn(lead, stats)) found.add(lead);
    return false;
  });
  return found;
}

/** LEAD_IN characters at most: a heading or line that introduces what follows ("Read also:"). */
const LEAD_IN = 80;

/** A heading or a short line without links just before furniture: "You might also like:". */
function isLeadIn(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > LEAD_IN || s.links > 0 || s.images > 0) return false;
  return /^h[2-6]$/.test(el.localName) || /[:：]\s*$/.test(el.textContent ?? '');
}

/**
 * Applies onlyMainContent in place and returns the element whose content is the page's content:
 * the chosen root, or `body` itself. `kept` are the elements includeTags selected (the children of
 * `body`, then a container): the caller chose them, so they are neither replaced by a main root nor
 * pruned themselves, only their insides.
 */
export function applyMainContent(body: Element, kept?: readonly Element[]): Element {
  if (kept) {
    removeIfNonEmpty(body, collectChrome(body, new Set([body, ...kept])));
    return body;
  }
  removeIfNonEmpty(body, collectChrome(body, new Set([body])));
  const stats = measure(body);
  const { root, drop, core } = chooseRoot(body, stats);
  if (root === body || !removeIfNonEmpty(root, drop)) {
    // No main block: only other stories after the article and the lines that end the page after its last prose go.
    removeIfNonEmpty(body, collectOtherStories(body, stats));
    removeIfNonEmpty(body, collectTail(body, stats));
    return body;
  }
  // Technical pages (API references, manuals) are made of small link-dense blocks: signatures,
  // version notes, lists of implementations. Their furniture was removed with the chrome.
  if (!isTechnical(stats.get(root)!)) {
    removeIfNonEmpty(root, collectFurniture(root, stats, core));
    removeIfNonEmpty(root, collectOtherStories(root, stats));
    removeIfNonEmpty(root, collectTail(root, stats));
    removeIfNonEmpty(root, collectHead(root, stats));
    removeIfNonEmpty(root, collectWorded(root, stats));
  }
  return root;
}
