/**
 * onlyMainContent: narrow the page to its main content and prune chrome inside it.
 *
 * 1. Root: a single `<main>` / `[role=main]` with text; else a single `<article>` holding at least
 *    a fifth of the page's text (one article in a sidebar is a teaser, not the content); else body.
 * 2. Prune, inside the root, everything `chromeEvidence` flags. Class/id guesses are guarded:
 *    never remove an element that holds the page's `<h1>`, a main/article, or most of the text.
 * 3. Never empty the page: if the pruned root has no text and no media, try pruning the whole body;
 *    if that is empty too, keep the body unpruned.
 */
import { chromeEvidence } from './boilerplate.js';
import { hasMedia, isElement, tagOf, visibleTextLength } from './dom.js';

const CONTENT_ROOTS = 'main, [role="main"]';

/** Share of the root's text above which a class/id guess is presumed to be a wrapper, not chrome. */
const WRAPPER_TEXT_SHARE = 0.6;
/** Share of the body's text a lone article needs to count as the page's content. */
const ARTICLE_TEXT_SHARE = 0.2;

function pickRoot(body: Element): Element {
  const mains = Array.from(body.querySelectorAll(CONTENT_ROOTS));
  if (mains.length === 1 && visibleTextLength(mains[0]) > 0) return mains[0];
  if (mains.length > 1) return body;
  const articles = Array.from(body.querySelectorAll('article'));
  if (articles.length === 1) {
    const share = visibleTextLength(articles[0]) / Math.max(1, visibleTextLength(body));
    if (share >= ARTICLE_TEXT_SHARE) return articles[0];
  }
  return body;
}

function isGuarded(el: Element, rootText: number): boolean {
  const tag = tagOf(el);
  if (tag === 'main' || tag === 'article' || el.getAttribute('role') === 'main') return true;
  if (el.querySelector('h1, main, article, [role="main"]')) return true;
  return rootText > 0 && visibleTextLength(el) / rootText >= WRAPPER_TEXT_SHARE;
}

/** The outermost chrome elements under `root`, not descending into what is already flagged. */
function collectChrome(root: Element, protect: ReadonlySet<Element>): Set<Element> {
  const found = new Set<Element>();
  const rootText = visibleTextLength(root);
  const walk = (parent: Element): void => {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      if (!isElement(node)) continue;
      const evidence = protect.has(node) ? undefined : chromeEvidence(node);
      const guessed = evidence === 'words' || evidence === 'edge';
      if (evidence && !(guessed && isGuarded(node, rootText))) found.add(node);
      else walk(node);
    }
  };
  walk(root);
  return found;
}

function hasContent(root: Element, removed: ReadonlySet<Element>): boolean {
  return visibleTextLength(root, removed) > 0 || hasMedia(root, removed);
}

/** Prunes `root` if something would remain; returns whether it did. */
function pruneIfNonEmpty(root: Element, protect: ReadonlySet<Element>): boolean {
  const chrome = collectChrome(root, protect);
  if (!hasContent(root, chrome)) return false;
  for (const el of chrome) el.parentNode?.removeChild(el);
  return true;
}

function keepOnly(body: Element, root: Element): void {
  while (body.firstChild) body.removeChild(body.firstChild);
  body.appendChild(root);
}

/**
 * Applies onlyMainContent to `body` in place. `kept` are elements includeTags selected (now the
 * body's children): the caller chose them, so they are neither replaced by a main root nor pruned
 * themselves, only their insides.
 */
export function applyMainContent(body: Element, kept?: readonly Element[]): void {
  if (kept) {
    pruneIfNonEmpty(body, new Set([body, ...kept]));
    return;
  }
  const root = pickRoot(body);
  if (root !== body && pruneIfNonEmpty(root, new Set([root]))) {
    keepOnly(body, root);
    return;
  }
  pruneIfNonEmpty(body, new Set([body]));
}
