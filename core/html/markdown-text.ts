/**
 * The text side of the markdown converter (markdown.ts), done as turndown does it: whitespace
 * collapsed in the tree, then the page's text read once, so that an element's textContent, and
 * the whitespace at its edges, are lookups rather than walks of its subtree.
 */
import { CDATA_SECTION_NODE, ELEMENT_NODE, TEXT_NODE } from './dom.js';

/** Turndown's block and void elements, by upper-case name. */
export const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'AUDIO', 'BLOCKQUOTE', 'BODY', 'CANVAS', 'CENTER', 'DD', 'DIR', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'FRAMESET', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'HTML', 'ISINDEX', 'LI', 'MAIN', 'MENU', 'NAV', 'NOFRAMES', 'NOSCRIPT', 'OL', 'OUTPUT', 'P', 'PRE', 'SECTION', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL']);
export const VOID = new Set(['AREA', 'BASE', 'BR', 'COL', 'COMMAND', 'EMBED', 'HR', 'IMG', 'INPUT', 'KEYGEN', 'LINK', 'META', 'PARAM', 'SOURCE', 'TRACK', 'WBR']);

/** JavaScript's `\s`. */
export function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** HTML's collapsible whitespace, as turndown collapses it: space, tab, CR, LF. */
function isAsciiSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The next node of turndown's whitespace walk: children first, except inside `<pre>`. */
function walkNext(prev: Node | null, current: Node): Node {
  if ((prev && prev.parentNode === current) || current.nodeName === 'PRE') return (current.nextSibling ?? current.parentNode)!;
  return (current.firstChild ?? current.nextSibling ?? current.parentNode)!;
}

function removeNode(node: Node): Node {
  const next = (node.nextSibling ?? node.parentNode)!;
  node.parentNode!.removeChild(node);
  return next;
}

/**
 * A hyphenation hint (`&shy;`): shown only where a browser breaks the word, and put into every long
 * word by hyphenation plugins ("Mit&shy;tel&shy;al&shy;ter"). In markdown it would split the words
 * for a reader's search and a model's tokenizer alike, so it goes.
 */
const SOFT_HYPHEN = '\u00ad';

/**
 * Collapses runs of whitespace in the text under `root` to one space and drops what a browser
 * would not show: spaces at the start and end of blocks and after another space, soft hyphens,
 * empty text nodes, comments. `<pre>` keeps its whitespace. Turndown's collapse-whitespace pass,
 * step for step, and the soft hyphens.
 */
export function collapseWhitespace(root: Element): void {
  if (!root.firstChild || root.nodeName === 'PRE') return;
  let prevText: CharacterData | null = null;
  let keepLeadingWs = false;
  let prev: Node | null = null;
  let node = walkNext(prev, root);
  while (node !== root) {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      const data = (node as CharacterData).data;
      const shown = data.includes(SOFT_HYPHEN) ? data.replaceAll(SOFT_HYPHEN, '') : data;
      let text = /[ \r\n\t]{2}|[\r\n\t]/.test(shown) ? shown.replace(/[ \r\n\t]+/g, ' ') : shown;
      if ((!prevText || prevText.data.endsWith(' ')) && !keepLeadingWs && text.charCodeAt(0) === 32) text = text.slice(1);
      if (!text) {
        node = removeNode(node);
        continue;
      }
      if (text !== data) (node as CharacterData).data = text;
      prevText = node as CharacterData;
    } else if (node.nodeType === ELEMENT_NODE) {
      const name = node.nodeName;
      if (BLOCK.has(name) || name === 'BR') {
        if (prevText?.data.endsWith(' ')) prevText.data = prevText.data.slice(0, -1);
        prevText = null;
        keepLeadingWs = false;
      } else if (VOID.has(name) || name === 'PRE') {
        // Spaces around inline void elements (images) and an inline <pre> are kept.
        prevText = null;
        keepLeadingWs = true;
      } else if (prevText) {
        keepLeadingWs = false;
      }
    } else {
      node = removeNode(node);
      continue;
    }
    const next = walkNext(prev, node);
    prev = node;
    node = next;
  }
  if (prevText?.data.endsWith(' ')) {
    prevText.data = prevText.data.slice(0, -1);
    if (!prevText.data) removeNode(prevText);
  }
}

/**
 * The text under the root, read once: `text` is every text node's data in document order, and an
 * element's textContent is `text.slice(start, end)` of its span. `nextVisible[i]` is the first
 * non-whitespace position at or after i (`text.length` if none), `lastVisible[i]` the last one
 * before i (-1 if none).
 */
export interface PageText {
  text: string;
  spans: Map<Node, { start: number; end: number }>;
  nextVisible: Int32Array;
  lastVisible: Int32Array;
}

export function readText(root: Element): PageText {
  const parts: string[] = [];
  const spans = new Map<Node, { start: number; end: number }>();
  let length = 0;
  const walk = (el: Node): void => {
    const span = { start: length, end: length };
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        const data = (child as CharacterData).data;
        parts.push(data);
        length += data.length;
      } else if (child.nodeType === ELEMENT_NODE) walk(child);
    }
    span.end = length;
    spans.set(el, span);
  };
  walk(root);
  const text = parts.join('');
  const nextVisible = new Int32Array(text.length + 1);
  nextVisible[text.length] = text.length;
  for (let i = text.length - 1; i >= 0; i--) nextVisible[i] = isSpace(text.charCodeAt(i)) ? nextVisible[i + 1] : i;
  const lastVisible = new Int32Array(text.length + 1);
  lastVisible[0] = -1;
  for (let i = 1; i <= text.length; i++) lastVisible[i] = isSpace(text.charCodeAt(i - 1)) ? lastVisible[i - 1] : i - 1;
  return { text, spans, nextVisible, lastVisible };
}

/** Leading ASCII whitespace of `s` (turndown's edge rule tells ASCII from other whitespace). */
export function asciiPrefixLength(s: string): number {
  let n = 0;
  while (n < s.length && isAsciiSpace(s.charCodeAt(n))) n++;
  return n;
}

export function asciiSuffixLength(s: string): number {
  let n = 0;
  while (n < s.length && isAsciiSpace(s.charCodeAt(s.length - 1 - n))) n++;
  return n;
}
