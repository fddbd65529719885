/**
 * Removal that applies to every conversion: elements that never carry readable content (scripts,
 * styles, embedded documents and graphics, head-only elements that ended up in the body) and
 * comments. Runs on the body only; metadata and links are read before this.
 */
import { walkElements } from './dom.js';

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

export function removeNonContent(body: Element): void {
  removeComments(body);
  walkElements(body, (el) => {
    if (NEVER_CONTENT.has(el.localName)) {
      el.parentNode!.removeChild(el);
      return false;
    }
    removeComments(el);
  });
}
