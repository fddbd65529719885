/**
 * onlyMainContent: narrow the page to its main content and prune what is not content inside it.
 *
 * 1. Chrome goes first, from the whole body (chrome.ts): what `chromeEvidence` flags (tags, ARIA roles, hidden
 *    elements, utility forms, a signup form with the box around it, skip links, class/id words such as
 *    comments, related, sidebar). Class/id guesses (and page-level header/footer tags) are
 *    guarded: never remove an element that holds an `<h1>` (or, for header-like ones, an `<h2>`),
 *    a main/article, or most of the text; headers and footers beside a `<main>` (of prose, or of
 *    more text than theirs) are the site's, and only an `<h1>` keeps them. A block named as other
 *    posts (related, most read) is not kept by card-sized articles or by the excerpts of its
 *    cards: only by a larger article or one piece of prose that links nowhere.
 * 2. The content root is chosen by scoring (main-root.ts, content-score.ts, after Readability): the best-scoring
 *    candidate, widened to an ancestor several good candidates share, to a parent that scores
 *    higher or holds much more prose (documentation spreads its text over sections), then to its
 *    parent when siblings are content too (the other siblings are dropped). A block the page marks
 *    as its article's body (microdata), or the one holding the text its JSON-LD states as the body,
 *    is the candidate as it stands; inside the latter, blocks the statement leaves out (a bio, a
 *    product box) go (article-body.ts).
 * 3. When that root does not hold most of the page's prose, teasers' blurbs aside (listing, home and search pages, where
 *    prose is spread over many blocks), there is no clear main block: the whole pruned body is the
 *    content, so nothing is cut but other stories after the article, menus of short links, and the
 *    lines that end it after its last prose.
 * 4. Inside a chosen root, blocks that are furniture (`isFurniture`: link-dense bylines and teaser
 *    lists, form fields, image strips, lone embeds; "read also" paragraphs) are removed, unless they hold most of the best
 *    candidate's prose or four times the rest of the root's text (a page of teasers,
 *    `isTeaserPage`), and with them the cards of other posts that follow the article (teaser-cards.ts:
 *    a headline or picture that links elsewhere, an excerpt of prose); then, line by line (lines.ts), a
 *    heading that opens other stories and what follows it
 *    (other-stories.ts), the lines that end the root after its last prose (furniture-lines.ts, `collectTail`:
 *    emptied headings, lead-ins, lone links, titled teasers; not on a page of teasers, whose last links are its own), the short lines before its h1 (`collectHead`: kickers,
 *    categories, dates) and short lines that are furniture by their wording (worded-lines.ts:
 *    picture credits, bylines, datelines, sources, "Über den Autor", subscription, app and follow
 *    prompts, in several languages; calls to action written as a link alone on their line, also
 *    on a page with no main block), and copies of what the page already shows: a forum reply's
 *    quote of a post, a text shipped for another screen (repeats.ts; also when there is no main block); on technical pages only the cards go. A table of contents (links to the page's own
 *    sections and little else) goes on every page.
 * Never empty the page: a step that would leave no text and no media is not taken.
 */
import { collectUnstated } from './article-body.js';
import { classWeight, names, namesTableOfContents } from './class-names.js';
import { CODE_BLOCKS, collectChrome } from './chrome.js';
import { linkDensity, measure, type Stats, type StatsMap } from './content-score.js';
import { ancestorWithTag, ELEMENT_NODE, findDescendant, hasMedia, isWithin, TEXT_NODE, visibleTextLength, walkElements } from './dom.js';
import { collectHead, collectTail } from './furniture-lines.js';
import { chooseRoot, isDataTable, isTechnical } from './main-root.js';
import { collectOtherStories } from './other-stories.js';
import { collectRepeats } from './repeats.js';
import { HEADING, collectTeaserCards } from './teaser-cards.js';
import { collectWorded } from './worded-lines.js';

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

/** Removes `doomed` from the tree if something would remain under `root`; returns whether it did. */
function removeIfNonEmpty(root: Element, doomed: ReadonlySet<Element>): boolean {
  const remains = visibleTextLength(root, doomed, 1) > 0 || hasMedia(root, doomed);
  if (!remains) return false;
  for (const el of doomed) el.parentNode?.removeChild(el);
  return true;
}

const CLEANED = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'fieldset', 'figure', 'header', 'footer', 'center']);

const FIGURE = new Set(['figure']);

/**
 * Whether a block inside the content root is furniture (after Readability's conditional clean):
 * class/id words against it with no prose; a small block that is mostly links, or a list of
 * headline links (not same-page links); form fields in a small block;
 * an image strip; a lone embed with little text. Ten commas or a data table say content.
 */
function isFurniture(el: Element, s: Stats, root: Element): boolean {
  const weight = classWeight(el);
  if (s.commas >= 10) return false;
  // Class words alone do not make furniture of a block with prose of its own.
  if (weight + s.score < 0 && s.mass < FURNITURE_PROSE && !isHeadingWidget(el, s)) return true;
  const tag = el.localName;
  if (tag === 'table' && isDataTable(el)) return false;
  // An image strip: images with little text each (a forum post or recipe step with smileys or
  // step photos is prose).
  const strip = s.images > 1 && s.paragraphs / s.images < 0.5 && s.text < STRIP_TEXT * s.images;
  if (strip && tag !== 'figure' && !ancestorWithTag(el, FIGURE, root)) return true;
  if (s.inputs > Math.floor(s.paragraphs / 3) && s.text < SMALL_BLOCK * 2) return true;
  if ((s.media === 1 && s.text < 75) || s.media > 1) return true;
  // Links: a small block that is mostly links (a byline, "read more", an ad label), or a list of
  // headlines (teasers, related stories). Same-page links are not headlines (tables of contents
  // went before: collectTablesOfContents).
  const density = linkDensity(s);
  if (s.links === 0 || s.fragmentLinks / s.links > 0.5) return false;
  if (isLinkedSentence(el, s)) return false;
  if (s.text >= SMALL_BLOCK && s.linkText / s.links < HEADLINE_LINK) return false;
  const isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
  // A long list is headlines when its text is nearly all links; with prose around its links it is content.
  if (isList && s.text >= SMALL_BLOCK) return density > HEADLINE_LIST_DENSITY;
  return density > 0.5 || (weight < 25 && density > (isList ? 0.5 : 0.2));
}

/**
 * A page builder's heading widget (Elementor's `elementor-widget-heading` in its `elementor-widget-wrap`):
 * one heading and nothing else, in a block that only weak words (`widget`) count against. Such
 * builders put each section's heading in a widget of its own beside the text's; it is the section's
 * title. Not a heading that links (a teaser's), nor one in a block named as chrome.
 */
function isHeadingWidget(el: Element, s: Stats): boolean {
  if (s.links > 0 || s.text === 0 || names(el).chrome) return false;
  const heading = findDescendant(el, (d) => HEADING.test(d.localName));
  return heading !== undefined && visibleTextLength(heading) === s.text;
}

/** Links to sections of the page, at least, in a table of contents. */
const TOC_LINKS = 3;

/** Share of a table of contents' text in its links. */
const TOC_LINK_TEXT = 0.8;

/**
 * A table of contents: a block of links to sections of this page and little else. It repeats the
 * headings that follow.
 */
function isTableOfContents(s: Stats): boolean {
  return s.fragmentLinks >= TOC_LINKS && s.fragmentLinks > 0.5 * s.links && s.linkText >= TOC_LINK_TEXT * s.text;
}

/** Tables of contents under `root`, outermost first, each with a heading just before it ("Contents"). */
function collectTablesOfContents(root: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  walkElements(root, (el) => {
    const s = stats.get(el);
    if (s && s.fragmentLinks < TOC_LINKS) return false;
    if (!s || el === root || !CLEANED.has(el.localName) || !isTableOfContents(s)) return true;
    found.add(el);
    const lead = el.previousElementSibling;
    if (lead && isLeadIn(lead, stats)) found.add(lead);
    return false;
  });
  return found;
}

/** The text before an element's first link, or undefined when it has no link. */
function textBeforeLink(el: Element): string | undefined {
  let text = '';
  for (let node: Node | null = el.firstChild; node; ) {
    if (node.nodeType === TEXT_NODE) text += node.nodeValue ?? '';
    else if ((node as Element).localName === 'a') return text;
    if (node.nodeType === ELEMENT_NODE && node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && !node.nextSibling && node.parentNode !== el) node = node.parentNode;
    node = node?.nextSibling ?? null;
  }
  return undefined;
}

/** Words of the story's own before a link, at least, and links at most, in a sentence that links part of itself. */
const SENTENCE_LEAD_WORDS = 2;
const SENTENCE_LINKS = 2;
const SENTENCE_END = /[.!?]["”’)]?$/;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * One paragraph that is a sentence linking a part of itself: words of its own before the link, not
 * a label ("Read more:"), and the sentence's end after it ("It also [co-ordinates military plans
 * and carries out joint military exercises]."). BBC links half a sentence to its source; such a
 * block is mostly link text but is the story's. A pointer to another story ends with its link.
 */
function isLinkedSentence(el: Element, s: Stats): boolean {
  if (s.paragraphs > 1 || s.links > SENTENCE_LINKS || s.images > 0 || s.text > READ_ALSO_MAX * 2) return false;
  const lead = textBeforeLink(el)?.trim();
  if (!lead || LINK_LABEL.test(lead) || (lead.match(WORD) ?? []).length < SENTENCE_LEAD_WORDS || !/^\p{Lu}/u.test(lead)) return false;
  // The sentence ends after its last link: a pointer ends with its link ("… in unserem Beitrag [iCloud: …?]").
  let last: Element | undefined;
  walkElements(el, (d) => {
    if (d.localName === 'a') last = d;
    return d.localName !== 'a';
  });
  const text = el.textContent ?? '';
  const linked = last?.textContent ?? '';
  const after = text.slice(text.lastIndexOf(linked) + linked.length).trim();
  return after.length > 0 && SENTENCE_END.test(after);
}

/** A short label ending in a colon or a bar: "Read more:", "Lesen Sie auch:", "VEA TAMBIÉN:", "FUNDA OLUNYE UDABA LAPHA |". */
const LINK_LABEL = /^[^.!?\d|]{2,40}[:：|]\s*$/;
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
  const around = new Set<Node>();
  for (let up: Node | null = core; up && up !== root; up = up.parentNode) around.add(up);
  const coreText = stats.get(core)?.text ?? 0;
  const rootText = stats.get(root)?.text ?? 0;
  walkElements(root, (el) => {
    // The blocks around the best candidate hold the content itself, whatever their class says.
    if (around.has(el)) return true;
    if (CODE_BLOCKS.has(el.localName)) return false;
    const s = stats.get(el);
    if (s && isChapterContents(el, s, core, coreText, rootText)) return false;
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

/** Share of its block's text from which a table of contents of other pages is a chapter's contents. */
const CHAPTER_CONTENTS_SHARE = 0.1;
/** Share of a chapter's contents in its links: less than a table of contents' (TOC_LINK_TEXT), as a contents of two entries under its title ("Table of Contents") is a third title. */
const CHAPTER_CONTENTS_LINK_TEXT = 0.6;

/**
 * A manual's chapter or part page lists the pages it is made of (DocBook's `div.toc` under the
 * chapter's title, a Sphinx `toctree`): a block named as a table of contents, mostly links,
 * holding a tenth or more of the block it is in (the best candidate's text when it is inside it,
 * else the root's). That list is what the page has to say, not a list of headlines, even after a
 * long introduction. A box of a series' other parts in a post is a small share of the post (at
 * most 6 % on WCXB's development articles), and still goes. The name is read first: the walk
 * asks this of every block, and only a named one is worth looking up the tree for.
 */
function isChapterContents(el: Element, s: Stats, core: Element, coreText: number, rootText: number): boolean {
  if (!namesTableOfContents(el) || s.linkText < CHAPTER_CONTENTS_LINK_TEXT * s.text) return false;
  return s.text > CHAPTER_CONTENTS_SHARE * (isWithin(el, core) ? coreText : rootText);
}

/** Share of the best candidate's prose from which the furniture inside it is the page itself (see isTeaserPage). */
const TEASER_PAGE_SHARE = 0.5;
/** Text of the furniture, as a multiple of the rest of the root's text, from which the root is made of it (see isTeaserPage). */
const TEASER_ROOT_TEXT = 2;

/**
 * A page of teasers (a listing, a section front, search results, a category of products): what
 * reads as furniture in an article (link-dense teaser cards, image strips) holds most of the prose
 * (`Stats.mass`) of the best candidate itself, the block the content root grew from, or twice the
 * rest of the root's text (a home page whose only prose is a few blurbs among its headlines, a chart
 * of a hundred titles under a paragraph). Those teasers are the page's content, and none of them is
 * removed. An article's prose lies outside its teaser lists, so they still go, even when they are
 * more than half its text.
 */
function isTeaserPage(root: Element, core: Element, furniture: Set<Element>, stats: StatsMap): boolean {
  let inside = 0;
  let text = 0;
  for (const el of furniture) {
    if (isWithin(el, core)) inside += stats.get(el)?.mass ?? 0;
    text += stats.get(el)?.text ?? 0;
  }
  if (text > TEASER_ROOT_TEXT * ((stats.get(root)?.text ?? 0) - text)) return true;
  return inside > TEASER_PAGE_SHARE * (stats.get(core)?.mass ?? 0);
}

/** LEAD_IN characters at most: a heading or line that introduces what follows ("Read also:"). */
const LEAD_IN = 80;

/** Links, at least, characters a link, at most, and share of the page's text, at most, of a menu: a site's sections as one-word links. */
const MENU_LINKS = 8;
const MENU_LINK_TEXT = 15;
const MENU_SHARE = 0.2;

/**
 * Menus left in a page with no main block (an old template's left column of sections, not in a
 * `<nav>`): blocks of many short links and nothing else, a small part of the page's text. A
 * listing's items say more than a word or two each; an index under a heading (a wiki's list of
 * languages under "A") is the page's.
 */
function collectMenus(body: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  const most = stats.get(body)!.text * MENU_SHARE;
  walkElements(body, (el) => {
    const s = stats.get(el);
    if (!s || s.links < MENU_LINKS) return false;
    if (el === body || !CLEANED.has(el.localName) || s.text > most) return true;
    if (s.linkText < 0.9 * s.text || s.linkText > MENU_LINK_TEXT * s.links || s.fragmentLinks > 0.5 * s.links) return true;
    if (isHeaded(el)) return false;
    found.add(el);
    return false;
  });
  return found;
}

/** Whether a heading introduces the block (just before it, or before its parent that it opens): a wiki's index under "A". */
function isHeaded(el: Element): boolean {
  for (let at: Element | null = el; at; at = at.parentElement) {
    const before = at.previousElementSibling;
    if (before) return HEADING.test(before.localName) || HEADING.test(before.firstElementChild?.localName ?? '');
  }
  return false;
}

/** A heading or a short line without links just before furniture: "You might also like:". */
function isLeadIn(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > LEAD_IN || s.links > 0 || s.images > 0) return false;
  return HEADING.test(el.localName) || /[:：]\s*$/.test(el.textContent ?? '');
}

/**
 * Applies onlyMainContent in place and returns the element whose content is the page's content:
 * the chosen root, or `body` itself. `url` is the page's (main-root.ts isDocumentUrl). `kept` are
 * the elements includeTags selected (the children of `body`, then a container): the caller chose
 * them, so they are neither replaced by a main root nor pruned themselves, only their insides.
 * `statedBody` is the article's text as the page's JSON-LD states it (article-body.ts), read before
 * the scripts went.
 */
export function applyMainContent(body: Element, url: string, kept?: readonly Element[], statedBody?: string): Element {
  if (kept) {
    removeIfNonEmpty(body, collectChrome(body, new Set([body, ...kept])));
    return body;
  }
  removeIfNonEmpty(body, collectChrome(body, new Set([body])));
  const stats = measure(body);
  const { root, drop, core, stated } = chooseRoot(body, stats, url, statedBody);
  // Inside the body the page states, what the statement leaves out is not the story.
  if (stated) removeIfNonEmpty(core, collectUnstated(core, statedBody!));
  if (root === body || !removeIfNonEmpty(root, drop)) {
    // No main block: only other stories after the article (under a heading that says so, or as
    // cards with excerpts), menus of short links and the lines that end the page after its last prose go.
    removeIfNonEmpty(body, collectTeaserCards(body, stats));
    removeIfNonEmpty(body, collectMenus(body, stats));
    removeIfNonEmpty(body, collectOtherStories(body, stats));
    removeIfNonEmpty(body, collectTail(body, stats));
    removeIfNonEmpty(body, collectWorded(body, stats, { article: false }));
    removeIfNonEmpty(body, collectRepeats(body, stats, isTechnical(stats.get(body)!)));
    return body;
  }
  // Technical pages (API references, manuals) are made of small link-dense blocks: signatures,
  // version notes, lists of implementations. Their furniture was removed with the chrome; only
  // cards of other posts after the text go (a blog post with code, then "recent posts"), and lines
  // that are furniture by their wording ("Powered by …", "You might also like:"), never in code.
  const technical = isTechnical(stats.get(root)!);
  // A table of contents goes on every page, a manual's too: it repeats the headings that follow.
  removeIfNonEmpty(root, collectTablesOfContents(root, stats));
  const furniture = collectFurniture(root, stats, core);
  const teasers = isTeaserPage(root, core, furniture, stats);
  if (!teasers) {
    // Collected before the furniture goes: that may take a card's headline or picture.
    const cards = collectTeaserCards(root, stats);
    if (!technical) removeIfNonEmpty(root, furniture);
    removeIfNonEmpty(root, cards);
  }
  if (!technical) {
    removeIfNonEmpty(root, collectOtherStories(root, stats));
    // A page made of lists of links (a wiki's index of articles) ends with its own.
    if (!teasers) removeIfNonEmpty(root, collectTail(root, stats));
    removeIfNonEmpty(root, collectHead(root, stats));
  }
  removeIfNonEmpty(root, collectWorded(root, stats, { technical }));
  removeIfNonEmpty(root, collectRepeats(root, stats, technical));
  return root;
}
