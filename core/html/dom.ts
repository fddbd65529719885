/**
 * The one adapter around the DOM implementation (domino, the DOM turndown parses with). Every
 * stage of the pipeline, markdown included, works on the same parsed tree.
 */
import { createDocument } from '@mixmark-io/domino';

/**
 * Deepest element nesting kept, like Chrome's parser limit (512). domino's serializer and
 * textContent, and the markdown converter, recurse per level and overflow the stack around 1,500 levels, which
 * malformed pages (thousands of unclosed divs) reach.
 */
export const MAX_DEPTH = 512;

export function parseHtml(html: string): Document {
  // `force` so an empty body still yields a document with <html>, <head> and <body>.
  let doc = createDocument(html, true);
  const repaired = closeRunawayTitle(doc, html);
  if (repaired !== undefined) doc = createDocument(repaired, true);
  limitDepth(doc.documentElement, MAX_DEPTH);
  return doc;
}

/** A title this long that holds a tag is a page swallowed by its title, not a title. */
const RUNAWAY_TITLE = 500;
const TAG_LIKE = /<\/?[a-z][^>]*>/i;

/**
 * A `<title>` that is never closed (or closed by a typo such as `</titlevalue>`) is, by the HTML
 * standard, text up to the end of the file: the page has an empty body and a browser shows nothing.
 * Lenient parsers (libxml2, which the Python extractors use) end such a title at the next tag, so a
 * scrape of it should too. Returns the page with `</title>` inserted before that tag, or undefined
 * when the title is an ordinary one.
 */
function closeRunawayTitle(doc: Document, html: string): string | undefined {
  // The head first: the collection of every title walks the whole document (3 % of a page's
  // conversion), and a title in the head is the first in tree order anyway.
  const title = (doc.head && findDescendant(doc.head, (el) => el.localName === 'title')) ?? doc.getElementsByTagName('title')[0];
  const text = title?.textContent ?? '';
  if (text.length < RUNAWAY_TITLE || !TAG_LIKE.test(text)) return undefined;
  const open = /<title\b[^>]*>/i.exec(html);
  if (!open) return undefined;
  const next = html.indexOf('<', open.index + open[0].length);
  return next < 0 ? undefined : `${html.slice(0, next)}</title>${html.slice(next)}`;
}

/** DOM node types, as `Node.nodeType` gives them (domino has no `Node` global to read them from). */
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_SECTION_NODE = 4;
export const COMMENT_NODE = 8;

/**
 * Flattens everything below `maxDepth`: the element at that depth keeps its descendants' text and
 * void elements, in order, as direct children. Iterative throughout, since the tree is too deep for
 * recursion by assumption.
 */
export function limitDepth(root: Element, maxDepth: number): void {
  // Two parallel stacks rather than one of [element, depth] pairs: this walks every element of
  // every page, and a pair per element was most of its cost.
  const elements: Element[] = [root];
  const depths: number[] = [0];
  while (elements.length > 0) {
    const el = elements.pop()!;
    const depth = depths.pop()! + 1;
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) {
      if (depth < maxDepth) {
        elements.push(child);
        depths.push(depth);
      } else flatten(child);
    }
  }
}

function flatten(el: Element): void {
  if (!el.firstElementChild) return;
  const leaves: Node[] = [];
  const inner: Element[] = [];
  const pending: Node[] = [];
  for (let c = el.lastChild; c; c = c.previousSibling) pending.push(c);
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.nodeType === ELEMENT_NODE && node.firstChild) {
      inner.push(node as Element);
      // A space where an element began, so words of adjacent blocks do not run together.
      leaves.push(el.ownerDocument.createTextNode(' '));
      for (let c = node.lastChild; c; c = c.previousSibling) pending.push(c);
    } else {
      leaves.push(node);
    }
  }
  // Move the leaves up first, then drop the emptied elements deepest first: every DOM operation
  // then touches a single node, never a deep subtree (domino's re-rooting recurses).
  for (const leaf of leaves) el.appendChild(leaf);
  for (let i = inner.length - 1; i >= 0; i--) inner[i].parentNode?.removeChild(inner[i]);
}

/** Non-whitespace characters in `text`; a loop, because this runs on every text node of a page. */
export function countVisible(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Space, tab, newline, CR, form feed, no-break space.
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 160) n++;
  }
  return n;
}

/**
 * Length of the non-whitespace text under `root`, skipping subtrees in `skip`, stopping early once
 * it reaches `enough`. Decides whether a pruning step leaves anything, without mutating the tree.
 */
export function visibleTextLength(root: Node, skip?: ReadonlySet<Element>, enough = Infinity): number {
  let total = 0;
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child && total < enough; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        total += countVisible(child.nodeValue ?? '');
      } else if (child.nodeType === ELEMENT_NODE && !skip?.has(child as Element)) {
        walk(child);
      }
    }
  };
  walk(root);
  return total;
}

/**
 * Visits the elements under `root` in document order. `visit` may remove the element it is given;
 * returning `false` skips the element's descendants. A plain walk: domino's selector engine
 * re-traverses the tree for every selector, which made selector-based passes the pipeline's
 * largest cost (see bench/html-pipeline.ts).
 */
export function walkElements(root: Node, visit: (el: Element) => boolean | void): void {
  let child = root.firstChild;
  while (child) {
    const next = child.nextSibling;
    if (child.nodeType === ELEMENT_NODE && visit(child as Element) !== false && child.parentNode) walkElements(child, visit);
    child = next;
  }
}

/** The first descendant of `root` (not `root` itself) for which `test` holds. */
export function findDescendant(root: Node, test: (el: Element) => boolean): Element | undefined {
  let found: Element | undefined;
  walkElements(root, (el) => {
    if (found) return false;
    if (test(el)) found = el;
    return !found;
  });
  return found;
}

/**
 * The nearest ancestor of `el` (excluding `el`) with one of the given lower-case tag names, looking
 * no higher than below `stop` when given.
 */
export function ancestorWithTag(el: Element, tags: ReadonlySet<string>, stop?: Element): Element | null {
  for (let up = el.parentElement; up && up !== stop; up = up.parentElement) {
    if (tags.has(up.localName)) return up;
  }
  return null;
}

export const MEDIA_TAGS: ReadonlySet<string> = new Set(['img', 'picture', 'video', 'audio']);

/** True when `root` (outside `skip`) holds an image or other embedded media worth keeping. */
export function hasMedia(root: Element, skip?: ReadonlySet<Element>): boolean {
  return findDescendant(root, (el) => MEDIA_TAGS.has(el.localName) && !(skip && hasAncestorIn(el, skip))) !== undefined;
}
/** True when `el` or one of its ancestors is in `set`. */
export function hasAncestorIn(el: Element, set: ReadonlySet<Element>): boolean {
  for (let cur: Element | null = el; cur; cur = cur.parentElement) {
    if (set.has(cur)) return true;
  }
  return false;
}

/** Characters of text inside the links under `el` (not counting `el` itself when it is a link). */
export function linkTextUnder(el: Element): number {
  let total = 0;
  walkElements(el, (a) => {
    if (a.localName !== 'a') return true;
    total += visibleTextLength(a);
    return false;
  });
  return total;
}

/** Characters of link text in `el`, all of it when `el` is a link itself. */
export function linkTextOf(el: Element): number {
  return el.localName === 'a' ? visibleTextLength(el) : linkTextUnder(el);
}

/**
 * Moves `first` and the nodes after it in its parent into a `<span>` put in its place, and returns
 * the span: the rest of a block whose lines are inline elements and text, as one element.
 */
export function wrapFrom(first: Element): Element {
  const nodes: Node[] = [];
  for (let node: Node | null = first; node; node = node.nextSibling) nodes.push(node);
  return wrapNodes(nodes);
}

/** Moves `nodes`, siblings in order, into a `<span>` put in their place, and returns the span. */
export function wrapNodes(nodes: readonly Node[]): Element {
  const wrapper = nodes[0].ownerDocument!.createElement('span');
  nodes[0].parentNode!.insertBefore(wrapper, nodes[0]);
  for (const node of nodes) wrapper.appendChild(node);
  return wrapper;
}

/** `first` and every element after it inside `root`: its following siblings, then its ancestors' (below `root`). */
export function fromHereOn(first: Element, root: Element): Element[] {
  const rest: Element[] = [first];
  for (let node: Element = first; node !== root; node = node.parentElement!) {
    for (let sib = node.nextElementSibling; sib; sib = sib.nextElementSibling) rest.push(sib);
  }
  return rest;
}

/**
 * Whether `node` is `ancestor` or lies inside it, as `ancestor.contains(node)` answers: domino's
 * `contains` builds the ancestor lists of both nodes on every call, which the pruning steps make
 * for most elements of a page.
 */
export function isWithin(node: Node, ancestor: Node): boolean {
  for (let n: Node | null = node; n; n = n.parentNode) if (n === ancestor) return true;
  return false;
}

/**
 * The text under `root`, as `textContent` reads it, through `firstChild` and `nextSibling`: domino's
 * `textContent` goes through `childNodes`, which turns every element's list of children into an
 * array the first time it is asked.
 */
export function textOf(root: Node): string {
  if (root.nodeType === TEXT_NODE) return root.nodeValue ?? '';
  let text = '';
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) text += child.nodeValue ?? '';
      else if (child.nodeType === ELEMENT_NODE) walk(child);
    }
  };
  walk(root);
  return text;
}

/** Text with its runs of white space as one space, trimmed. */
export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
