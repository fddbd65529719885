/**
 * Emphasis as markdown can write it. Pages nest bold in bold (`<b><strong>Term</strong></b>`, a
 * WordPress editor's habit) and split one bold word into several (`<strong>S</strong><strong>pecific</strong>`);
 * written as they stand, these give `****Term****` and `**S****pecific**`, which no markdown reader
 * takes for bold. Here an emphasis inside one of its kind gives way to its text, and emphasis
 * right after one of its kind (no space between) joins it. Bold and italic are kinds of their own.
 */
import { ELEMENT_NODE } from './dom.js';

type Kind = 'bold' | 'italic' | undefined;

function kindOf(node: Node): Kind {
  if (node.nodeType !== ELEMENT_NODE) return undefined;
  const name = (node as Element).localName;
  return name === 'b' || name === 'strong' ? 'bold' : name === 'i' || name === 'em' ? 'italic' : undefined;
}

export function tidyEmphasis(root: Element): void {
  tidy(root, false, false);
}

function tidy(parent: Node, bold: boolean, italic: boolean): void {
  let child = parent.firstChild;
  while (child) {
    if (child.nodeType !== ELEMENT_NODE) {
      child = child.nextSibling;
      continue;
    }
    const el = child as Element;
    const kind = kindOf(el);
    if ((kind === 'bold' && bold) || (kind === 'italic' && italic)) {
      // Its children take its place, and are visited in turn.
      const after = el.nextSibling;
      const first = el.firstChild;
      while (el.firstChild) parent.insertBefore(el.firstChild, el);
      parent.removeChild(el);
      child = first ?? after;
      continue;
    }
    if (kind) {
      for (let next = el.nextSibling; next && kindOf(next) === kind; next = el.nextSibling) {
        while (next.firstChild) el.appendChild(next.firstChild);
        parent.removeChild(next);
      }
    }
    tidy(el, bold || kind === 'bold', italic || kind === 'italic');
    child = el.nextSibling;
  }
}
