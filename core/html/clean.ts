/**
 * Removal that applies to every conversion: elements that never carry readable content (scripts,
 * styles, embedded documents and graphics, head-only elements that ended up in the body) and
 * comments. Runs on the body only; metadata and links are read before this.
 */

const NEVER_CONTENT = 'script, style, noscript, template, iframe, frame, frameset, object, embed, svg, math, canvas, link, meta, base, title';

const COMMENT_NODE = 8;

function removeComments(node: Node): void {
  let child = node.firstChild;
  while (child) {
    const next = child.nextSibling;
    if (child.nodeType === COMMENT_NODE) node.removeChild(child);
    else if (child.firstChild) removeComments(child);
    child = next;
  }
}

export function removeNonContent(body: Element): void {
  for (const el of Array.from(body.querySelectorAll(NEVER_CONTENT))) {
    // A nested match may already be gone with its ancestor; removing it again is harmless.
    el.parentNode?.removeChild(el);
  }
  removeComments(body);
}
