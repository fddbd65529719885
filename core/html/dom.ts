/**
 * The one adapter around the DOM implementation. Every stage of the pipeline works on the same
 * parsed tree: domino is what turndown itself parses with, so handing it our tree (instead of a
 * serialized string) saves a second parse (see bench/html-pipeline.ts).
 */
import { createDocument } from '@mixmark-io/domino';

export function parseHtml(html: string): Document {
  // `force` so an empty body still yields a document with <html>, <head> and <body>.
  return createDocument(html, true);
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Lower-case local name; domino reports upper case `nodeName` for HTML elements. */
export function tagOf(el: Element): string {
  return el.localName;
}

export function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE;
}

/**
 * Length of the non-whitespace text under `root`, skipping subtrees in `skip`. Used to decide
 * whether a pruning step left anything worth converting, without mutating the tree first.
 */
export function visibleTextLength(root: Node, skip?: ReadonlySet<Element>): number {
  let total = 0;
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        total += (child.nodeValue ?? '').replace(/\s+/g, '').length;
      } else if (child.nodeType === ELEMENT_NODE && !skip?.has(child as Element)) {
        walk(child);
      }
    }
  };
  walk(root);
  return total;
}

/** True when `root` (outside `skip`) holds an image or other embedded media worth keeping. */
export function hasMedia(root: Element, skip?: ReadonlySet<Element>): boolean {
  for (const el of Array.from(root.querySelectorAll('img, picture, video, audio'))) {
    if (!skip || !hasAncestorIn(el, skip)) return true;
  }
  return false;
}

/** True when `el` or one of its ancestors is in `set`. */
export function hasAncestorIn(el: Element, set: ReadonlySet<Element>): boolean {
  for (let cur: Element | null = el; cur; cur = cur.parentElement) {
    if (set.has(cur)) return true;
  }
  return false;
}
