/**
 * Removal that applies to every conversion: elements that never carry readable content (scripts,
 * styles, embedded documents and graphics, head-only elements that ended up in the body) and
 * comments. Runs on the body only; metadata and links are read before this.
 */
import { visibleTextLength, walkElements } from './dom.js';

const NEVER_CONTENT = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'math', 'canvas',
  'link', 'meta', 'base', 'title',
]);

const COMMENT_NODE = 8;

function removeComments(parent: Node): void {
  for (let child = parent.firstChild; child; ) {
    const next = child.nextSibling;
    if (child.nodeType === COMMENT_NODE) parent.removeChild(child);
    child = next;
  }
}

/** Text a `<noscript>` must hold to be read as the page's content rather than a notice or a pixel. */
const NOSCRIPT_CONTENT_TEXT = 200;

export function removeNonContent(body: Element): void {
  removeComments(body);
  const noscripts: Element[] = [];
  walkElements(body, (el) => {
    if (el.localName === 'noscript') {
      noscripts.push(el);
      return false;
    }
    if (NEVER_CONTENT.has(el.localName)) {
      el.parentNode!.removeChild(el);
      return false;
    }
    removeComments(el);
  });
  if (noscripts.length > 0) readNoscripts(body, noscripts);
}

/**
 * `<noscript>` is what a browser without scripts shows: usually a notice or a tracking pixel, but on
 * pages rendered by scripts (Discourse topics, some single-page apps) it holds the whole page for
 * crawlers while the rest of the body is a loading screen. Its content is kept, in place, when the
 * noscripts hold more text than everything else; otherwise they go.
 */
function readNoscripts(body: Element, noscripts: Element[]): void {
  const texts = noscripts.map((el) => visibleTextLength(el));
  const inside = texts.reduce((a, b) => a + b, 0);
  const outside = visibleTextLength(body, new Set(noscripts));
  noscripts.forEach((el, i) => {
    const parent = el.parentNode!;
    if (inside > outside && texts[i] >= NOSCRIPT_CONTENT_TEXT) {
      removeNonContent(el);
      while (el.firstChild) parent.insertBefore(el.firstChild, el);
    }
    parent.removeChild(el);
  });
}
