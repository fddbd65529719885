/**
 * Step 1 of onlyMainContent (main-content.ts): the page's chrome, from the whole body. What
 * `chromeEvidence` flags by tag, ARIA role, hidden state or utility form goes; class/id guesses
 * and page-level headers and footers are guarded against taking the content itself.
 */
import { chromeEvidence, isSignupForm, readsAsConsent } from './boilerplate.js';
import { classIdParts, isHeaderLike, namesComments, namesConsent, namesContent, namesOnly, namesOtherPosts, namesWidget } from './class-names.js';
import { isCommentsMarker, isThread, threadAfter } from './comment-threads.js';
import { linkDensity, measure, type Stats, type StatsMap } from './content-score.js';
import { collapse, findDescendant, hasAncestorIn, isWithin, linkTextUnder, TEXT_NODE, textOf, visibleTextLength, walkElements } from './dom.js';
import { CARD_TEXT } from './teaser-cards.js';

/** Share of the root's text above which a class/id guess is presumed to be a wrapper, not chrome. */
const WRAPPER_TEXT_SHARE = 0.6;
/** The same for an element whose class/id also has content words (article, body, content, main). */
const CONTENT_TEXT_SHARE = 0.25;
/** Paragraph points (`Stats.mass`) and link share of a block whose class/id guess is overruled as prose. */
const WRAPPER_PROSE = 20;
const WRAPPER_LINKS = 0.2;
const WRAPPER_TEXT = 500;

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
  const s = wrapperStats(el)?.get(el);
  return !!s && isProse(s);
}

/** Stats under `el` when it has a wrapper's worth of text (not a list, not comments). */
function wrapperStats(el: Element): StatsMap | undefined {
  if (LISTS.has(el.localName) || namesComments(el)) return undefined;
  // Twenty paragraphs' worth is hundreds of characters: most chrome is not measured at all.
  if (visibleTextLength(el, undefined, WRAPPER_TEXT) < WRAPPER_TEXT) return undefined;
  return measure(el);
}

function isProse(s: Stats): boolean {
  return s.mass >= WRAPPER_PROSE && linkDensity(s) < WRAPPER_LINKS;
}

/**
 * Whether most of a block's prose is one piece that links nowhere: the article's text in a wrapper
 * named as related articles. Other posts link to each: their excerpts are as many pieces.
 */
function holdsUnlinkedProse(el: Element): boolean {
  const stats = wrapperStats(el);
  const total = stats?.get(el);
  if (!stats || !total || !isProse(total)) return false;
  for (const s of stats.values()) if (s.mass >= total.mass / 2 && s.links === s.fragmentLinks) return true;
  return false;
}

const HEADINGS = /^h[1-6]$/;
const slug = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * A section whose id is made from its heading ("Import-related module attributes" gives
 * `import-related-module-attributes`, as documentation generators do): the id names the topic,
 * not the block's role.
 */
function isHeadingAnchor(el: Element): boolean {
  const id = slug(el.getAttribute('id') ?? '');
  if (id.length === 0) return false;
  const heading = findDescendant(el, (c) => HEADINGS.test(c.localName));
  return !!heading && slug(heading.textContent ?? '').includes(id);
}

/** Articles, at least, that are cards of other posts rather than content (teaser-cards.ts). */
const CARD_ARTICLES = 3;

/**
 * Whether a block named as other posts (related, recommended, most read) holds the content: an
 * h1, a main, an article. Several small articles under it are its cards, not the page's article,
 * and do not keep it.
 */
function holdsContentBelow(el: Element, holds: (el: Element) => boolean): boolean {
  const articles: Element[] = [];
  let other = false;
  walkElements(el, (c) => {
    if (other) return false;
    if (c.localName === 'article') {
      articles.push(c);
      return true;
    }
    if (holds(c)) other = true;
    return !other;
  });
  if (other) return true;
  if (articles.length === 0) return false;
  return articles.length < CARD_ARTICLES || articles.some((a) => visibleTextLength(a, undefined, CARD_TEXT) >= CARD_TEXT);
}

/** Text of a signup box at most: a pitch, the form, the fine print ("By signing up, you agree…"). */
const SIGNUP_BOX_TEXT = 700;

/**
 * The box a signup form sits in: its pitch and fine print are outside the form. The highest
 * ancestor below `root` with at most SIGNUP_BOX_TEXT characters and no content of its own.
 */
function signupBox(form: Element, root: Element): Element {
  let box = form;
  for (let up = form.parentElement; up && up !== root; up = up.parentElement) {
    if (holdsContent(up) || visibleTextLength(up, undefined, SIGNUP_BOX_TEXT + 1) > SIGNUP_BOX_TEXT) break;
    if (findDescendant(up, holdsContentOrH2)) break;
    box = up;
  }
  return box;
}

export const CODE_BLOCKS = new Set(['pre', 'code']);

const COOKIE = /cookie/i;
const PROSE_SIBLINGS = /^(?:p|h[1-6])$/;

/** A paragraph among paragraphs or headings: a page's own text (a privacy policy's "We use cookies…"). */
function amongProse(el: Element): boolean {
  const near = [el.previousElementSibling, el.nextElementSibling];
  return near.some((sib) => !!sib && PROSE_SIBLINGS.test(sib.localName) && visibleTextLength(sib, undefined, 1) > 0);
}

/** Whether one of the element's own text nodes mentions cookies. */
function mentionsCookies(el: Element): boolean {
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE && COOKIE.test(child.nodeValue ?? '')) return true;
  }
  return false;
}

/**
 * A cookie or consent notice found by its wording, whatever its class says (`cookiebanner`,
 * `botclick`, generated names): the box around a text that mentions cookies (as for a signup form:
 * at most SIGNUP_BOX_TEXT characters, no content of its own) when the box reads as a request for
 * consent. A paragraph of an article or a privacy policy that mentions cookies sits in a larger
 * block, among other paragraphs, or does not ask.
 */
function consentBox(el: Element, root: Element): Element | undefined {
  const box = signupBox(el, root);
  if (visibleTextLength(box, undefined, SIGNUP_BOX_TEXT + 1) > SIGNUP_BOX_TEXT) return undefined;
  return !holdsContent(box) && !amongProse(box) && readsAsConsent(box.textContent ?? '') ? box : undefined;
}

/**
 * The story behind the paywall, in the page: Condé Nast's pages (The New Yorker, Wired) name each
 * paragraph after the first few `paywall`, ABC (Spain) wraps the rest of the story in a hidden
 * `div.paywall`, Jyllands-Posten each part in a `paywalled` block. A paragraph so named, or a block
 * of WRAPPER_TEXT characters or more with few links. A paywall's prompt ("Subscribe to read on")
 * is shorter, or links and asks. Named only `paywall`.
 */
function isBehindPaywall(el: Element): boolean {
  if (el.localName === 'p') return true;
  const s = wrapperStats(el)?.get(el);
  return !!s && linkDensity(s) < WRAPPER_LINKS && findDescendant(el, (d) => d.localName === 'form' || d.localName === 'button') === undefined;
}

/** Words that open a block, read to tell whether the page shows its text elsewhere. */
const OPENING_WORDS = 12;

/**
 * Whether the page has already shown the block's text before it: der Freitag keeps a hidden
 * `div.o-paywall` with the story's second half as one blob after the story itself. Its opening
 * words, found in the text before it, say so. The first of two versions of a story (Rzeczpospolita's
 * for subscribers and for the rest) is no copy.
 */
function isCopyOfShownText(el: Element, root: Element): boolean {
  const opening = collapse(textOf(el)).split(' ').slice(0, OPENING_WORDS).join(' ');
  if (!opening) return false;
  let before = '';
  const walk = (node: Node): boolean => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child === el) return true;
      if (child.nodeType === TEXT_NODE) before += child.nodeValue ?? '';
      else if (walk(child)) return true;
    }
    return false;
  };
  walk(root);
  return collapse(before).includes(opening);
}

/** A block named as a cookie or consent notice that reads as one and holds no headline or article. */
function isConsentDialog(el: Element): boolean {
  return namesConsent(el) && findDescendant(el, holdsContent) === undefined && readsAsConsent(el.textContent ?? '');
}

/**
 * A listing's entry in a block named `meta` (arXiv's `div.meta` holds each paper's title, authors
 * and subjects): `meta` is its only chrome word and an element in it is named as a title. A post's
 * `entry-meta` holds its date and author, not its title.
 */
function isListingEntry(el: Element): boolean {
  return namesOnly(el, 'meta') && findDescendant(el, (d) => classIdParts(d).includes('title')) !== undefined;
}

/** The outermost chrome elements under `root`, not descending into what is already flagged. */
export function collectChrome(root: Element, protect: ReadonlySet<Element>): Set<Element> {
  const found = new Set<Element>();
  // The page's text, counted up to `enough` characters (all of it, and then kept, when it has fewer).
  let rootText: number | undefined;
  const pageText = (enough: number): number => {
    if (rootText !== undefined) return rootText;
    const counted = visibleTextLength(root, undefined, enough);
    if (counted < enough) rootText = counted;
    return counted;
  };
  const isGuarded = (el: Element, siteEdge: boolean): boolean => {
    // A site's header or footer (below) is kept for a title it holds, not for its prose.
    if (siteEdge) return findDescendant(el, (c) => c.localName === 'h1') !== undefined;
    const holds = isHeaderLike(el) ? holdsContentOrH2 : holdsContent;
    if (holds(el) || isListingEntry(el)) return true;
    // Named only for the paywall: the story behind it stays, a copy of text the page shows goes.
    if (namesOnly(el, 'paywall')) {
      if (isCopyOfShownText(el, root)) return false;
      if (isBehindPaywall(el)) return true;
    }
    // A consent dialog named so is not kept for its length: OneTrust's preference centre
    // (`onetrust-consent-sdk`) explains each kind of cookie at more length than a short story.
    if (isConsentDialog(el)) return false;
    // Most of the page's text, unless most of it is links: a mega menu in the site header.
    // `entry-content no-share`: a block that also says it is content needs less text to be kept.
    // The page's text is counted only as far as could still leave the block that share of it: for
    // a small block (most guesses), a few lines, not the whole page.
    const share = namesContent(el) ? CONTENT_TEXT_SHARE : WRAPPER_TEXT_SHARE;
    const text = visibleTextLength(el);
    if (text > 0 && text >= pageText(Math.floor(text / share) + 1) * share && linkTextUnder(el) <= 0.5 * text) return true;
    if (namesWidget(el)) return false;
    if (namesOtherPosts(el) && !isHeadingAnchor(el)) return holdsContentBelow(el, holds) || holdsUnlinkedProse(el);
    return findDescendant(el, holds) !== undefined || holdsProse(el);
  };
  const comments: Element[] = [];
  const words = new Set<Element>();
  const cookies: Element[] = [];
  // Headers and footers beside a <main> are the site's, whatever prose they hold (testimonials,
  // an "about us" blurb, teasers, a disclaimer): only a title keeps them. The main is looked up at
  // the first header or footer; it counts when it holds prose, or more text than the header or
  // footer (a short page in a <main>, a long disclaimer in the footer).
  let main: Element | null | undefined;
  let mainProse: boolean | undefined; // measured only when its text does not already outweigh the edge's
  const isSiteEdge = (el: Element): boolean => {
    if (main === undefined) main = findDescendant(root, isContentRoot) ?? null;
    if (!main || isWithin(el, main) || isWithin(main, el)) return false;
    const text = visibleTextLength(el);
    return visibleTextLength(main, undefined, text + 1) > text || (mainProse ??= holdsProse(main));
  };
  let marker: Element | undefined;
  walkElements(root, (el) => {
    // Code keeps every line: a highlighter's classes (`token comment`, `hljs-meta`) are not chrome.
    if (CODE_BLOCKS.has(el.localName)) return false;
    if (!marker && isCommentsMarker(el)) marker = el;
    const evidence = protect.has(el) ? undefined : chromeEvidence(el);
    const guessed = evidence === 'words' || evidence === 'edge';
    if (!evidence || (guessed && isGuarded(el, evidence === 'edge' && isSiteEdge(el)))) {
      if (mentionsCookies(el)) cookies.push(el);
      return true;
    }
    found.add(evidence === 'form' && isSignupForm(el) ? signupBox(el, root) : el);
    if (guessed && namesComments(el)) comments.push(el);
    if (evidence === 'words') words.add(el);
    return false;
  });
  for (const el of cookies) {
    const box = consentBox(el, root);
    if (box && !protect.has(box) && !hasAncestorIn(box, found)) found.add(box);
  }
  if (comments.length > 0 && isThread(root, found, comments)) for (const el of comments) found.delete(el);
  // The marker is found outside the chrome, or is itself flagged (`disqus_thread`): what follows it is the thread.
  else if (marker) for (const el of threadAfter(root, marker, found, (el) => holdsContent(el) || protect.has(el))) found.add(el);
  if (words.size > 0 && isEmptiedByGuesses(root, found, words)) {
    for (const el of words) if (!namesConsent(el)) found.delete(el);
  }
  return found;
}

/** Text a page keeps after its chrome (characters, share of its text) under which the class/id guesses are doubted. */
const EMPTIED_TEXT = 500;
const EMPTIED_SHARE = 0.1;

/**
 * Class/id guesses that between them take nearly the whole page (product captions, sections
 * named like a carousel, each too small for the wrapper guard) are not chrome: the page is made of
 * such blocks, and they stay, but for cookie and consent notices. What tags, roles and hidden
 * elements say still goes.
 */
function isEmptiedByGuesses(root: Element, chrome: ReadonlySet<Element>, guessed: ReadonlySet<Element>): boolean {
  const left = visibleTextLength(root, chrome, EMPTIED_TEXT);
  if (left >= EMPTIED_TEXT || left >= EMPTIED_SHARE * visibleTextLength(root)) return false;
  // Only when the guesses are what empties it: without them, the page keeps its text.
  const unguessed = new Set([...chrome].filter((el) => !guessed.has(el)));
  return visibleTextLength(root, unguessed, EMPTIED_TEXT) > left;
}
