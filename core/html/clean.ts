/**
 * Removal that applies to every conversion: elements that never carry readable content (scripts,
 * styles, embedded documents and graphics, head-only elements that ended up in the body) and
 * comments. Runs on the body only; metadata and links are read before this. What a browser would
 * show that is hidden in the markup is put back first: React's streamed segments, and `<noscript>`
 * when it holds the page.
 */
import { ELEMENT_NODE, visibleTextLength, walkElements } from './dom.js';

const NEVER_CONTENT = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'math', 'canvas',
  'link', 'meta', 'base', 'title',
]);

const COMMENT_NODE = 8;

/**
 * Players whose children, besides their sources and tracks, are fallback for browsers that cannot
 * play them ("Your browser does not support the video tag."): no browser of today shows it.
 */
const PLAYERS = new Set(['video', 'audio']);
const PLAYER_PARTS = new Set(['source', 'track']);

function removeFallback(player: Element): void {
  for (let child = player.firstChild; child; ) {
    const next = child.nextSibling;
    if (child.nodeType !== ELEMENT_NODE || !PLAYER_PARTS.has((child as Element).localName)) player.removeChild(child);
    child = next;
  }
}

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
  revealStreamed(body);
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
    if (PLAYERS.has(el.localName)) {
      removeFallback(el);
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
  // Pixels and notices, the usual noscripts, are short: the rest of the page is not measured for them.
  const read = texts.some((n) => n >= NOSCRIPT_CONTENT_TEXT) && inside > visibleTextLength(body, new Set(noscripts), inside + 1);
  noscripts.forEach((el, i) => {
    const parent = el.parentNode!;
    if (read && texts[i] >= NOSCRIPT_CONTENT_TEXT) {
      removeNonContent(el);
      while (el.firstChild) parent.insertBefore(el.firstChild, el);
    }
    parent.removeChild(el);
  });
}

/** React numbers its segments in base 32 or 16 (`S:0` … `S:a` … `S:1f`). */
const STREAMED_SEGMENT = /^S:[0-9a-z]+$/;
const REVEAL = /\$R([CS])\("([^"]+)","([^"]+)"\)/g;

/**
 * React's streamed server rendering (Next.js among others) sends a page's late parts as hidden
 * `<div hidden id="S:n">` at the end of the body, and small scripts that move each into its place:
 * `$RC("B:n","S:n")` replaces a boundary's fallback (a spinner, a skeleton), `$RS("S:n","P:n")` a
 * placeholder. A browser runs them; here they are replayed in document order, so the content is
 * where the page shows it instead of hidden (and dropped) at the end.
 */
function revealStreamed(body: Element): void {
  const segments = new Map<string, Element>();
  const collect = (parent: Element): void => {
    for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
      if (el.localName === 'div' && el.hasAttribute('hidden') && STREAMED_SEGMENT.test(el.id)) segments.set(el.id, el);
      // Our parser reads <noscript> as markup (as a browser without scripts would): one holding a
      // raw-text element left open (`<iframe … />`, a tag manager's) runs on over the rest of the body.
      else if (el.localName === 'noscript' && parent === body) collect(el);
    }
  };
  collect(body);
  if (segments.size === 0) return;
  const doc = body.ownerDocument;
  const move = (segmentId: string, targetId: string, boundary: boolean): void => {
    const segment = segments.get(segmentId);
    const target = doc.getElementById(targetId);
    if (!segment || !target?.parentNode) return;
    const parent = target.parentNode;
    const end = boundary ? boundaryEnd(target) : undefined;
    if (end) {
      while (target.nextSibling && target.nextSibling !== end) parent.removeChild(target.nextSibling);
    }
    while (segment.firstChild) parent.insertBefore(segment.firstChild, end ?? target);
    parent.removeChild(target);
    segment.parentNode?.removeChild(segment);
    segments.delete(segmentId);
  };
  const scripts = body.getElementsByTagName('script');
  for (let i = 0; i < scripts.length; i++) {
    for (const [, kind, a, b] of (scripts[i].textContent ?? '').matchAll(REVEAL)) {
      if (kind === 'C') move(b, a, true);
      else move(a, b, false);
    }
  }
  // A saved copy of a page may have lost the scripts: a segment still goes to the placeholder of its number.
  for (const id of [...segments.keys()]) {
    const n = id.slice(2);
    if (doc.getElementById(`P:${n}`)) move(id, `P:${n}`, false);
    else if (doc.getElementById(`B:${n}`)) move(id, `B:${n}`, true);
  }
}

/** The `<!--/$-->` comment that closes the boundary whose placeholder `template` is. */
function boundaryEnd(template: Element): Node | undefined {
  let depth = 0;
  for (let node = template.nextSibling; node; node = node.nextSibling) {
    if (node.nodeType !== COMMENT_NODE) continue;
    const data = node.nodeValue ?? '';
    if (data === '/$') {
      if (depth === 0) return node;
      depth--;
    } else if (data.startsWith('$')) depth++;
  }
  return undefined;
}
