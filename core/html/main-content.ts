/**
 * onlyMainContent: narrow the page to its main content and prune chrome inside it.
 *
 * 1. Root: a single `<main>` / `[role=main]` with text; else a single `<article>` holding at least
 *    a fifth of the page's text (one article in a sidebar is a teaser, not the content); else body.
 * 2. Prune, inside the root, everything `chromeEvidence` flags. Class/id guesses (and page-level
 *    header/footer tags) are guarded: never remove an element that holds an `<h1>` (or, for
 *    header-like ones, an `<h2>`), a main/article, or most of the root's text.
 * 3. Never empty the page: if the pruned root has no text and no media, try pruning the whole body;
 *    if that is empty too, keep the body unpruned.
 */
import { chromeEvidence, isHeaderLike } from './boilerplate.js';
import { findDescendant, hasMedia, visibleTextLength, walkElements } from './dom.js';

/** Share of the root's text above which a class/id guess is presumed to be a wrapper, not chrome. */
const WRAPPER_TEXT_SHARE = 0.6;
/** Share of the body's text a lone article needs to count as the page's content. */
const ARTICLE_TEXT_SHARE = 0.2;

function isContentRoot(el: Element): boolean {
  return el.localName === 'main' || el.getAttribute('role') === 'main';
}

function pickRoot(body: Element): Element {
  const mains: Element[] = [];
  const articles: Element[] = [];
  walkElements(body, (el) => {
    if (isContentRoot(el)) mains.push(el);
    else if (el.localName === 'article') articles.push(el);
  });
  if (mains.length === 1 && visibleTextLength(mains[0], undefined, 1) > 0) return mains[0];
  if (mains.length > 1) return body;
  if (articles.length === 1) {
    const share = visibleTextLength(articles[0]) / Math.max(1, visibleTextLength(body));
    if (share >= ARTICLE_TEXT_SHARE) return articles[0];
  }
  return body;
}

function holdsContent(el: Element): boolean {
  return el.localName === 'h1' || el.localName === 'article' || isContentRoot(el);
}

function holdsContentOrH2(el: Element): boolean {
  return el.localName === 'h2' || holdsContent(el);
}

/** The outermost chrome elements under `root`, not descending into what is already flagged. */
function collectChrome(root: Element, protect: ReadonlySet<Element>): Set<Element> {
  const found = new Set<Element>();
  let rootText: number | undefined; // computed only if a class/id guess needs the wrapper guard
  const isGuarded = (el: Element): boolean => {
    const holds = isHeaderLike(el) ? holdsContentOrH2 : holdsContent;
    if (holds(el) || findDescendant(el, holds)) return true;
    rootText ??= visibleTextLength(root);
    return rootText > 0 && visibleTextLength(el) / rootText >= WRAPPER_TEXT_SHARE;
  };
  walkElements(root, (el) => {
    const evidence = protect.has(el) ? undefined : chromeEvidence(el);
    const guessed = evidence === 'words' || evidence === 'edge';
    if (!evidence || (guessed && isGuarded(el))) return true;
    found.add(el);
    return false;
  });
  return found;
}

/** Prunes `root` if something would remain; returns whether it did. */
function pruneIfNonEmpty(root: Element, protect: ReadonlySet<Element>): boolean {
  const chrome = collectChrome(root, protect);
  const remains = visibleTextLength(root, chrome, 1) > 0 || hasMedia(root, chrome);
  if (!remains) return false;
  for (const el of chrome) el.parentNode?.removeChild(el);
  return true;
}

/**
 * Applies onlyMainContent in place and returns the element whose content is the page's content:
 * the chosen root, or `body` itself. `kept` are the elements includeTags selected (the children of
 * `body`, then a container): the caller chose them, so they are neither replaced by a main root nor
 * pruned themselves, only their insides.
 */
export function applyMainContent(body: Element, kept?: readonly Element[]): Element {
  if (kept) {
    pruneIfNonEmpty(body, new Set([body, ...kept]));
    return body;
  }
  const root = pickRoot(body);
  if (root !== body && pruneIfNonEmpty(root, new Set([root]))) return root;
  pruneIfNonEmpty(body, new Set([body]));
  return body;
}
