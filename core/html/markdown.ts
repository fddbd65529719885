/**
 * Markdown from the cleaned tree: ATX headings, fenced code with the language kept, `-` bullets,
 * GFM tables (markdown-tables.ts), `*` emphasis (works inside words, unlike `_`), absolute links
 * and images.
 *
 * The output is turndown's (7.2.5, with these options and rules), written by a converter of our
 * own: turndown took ~3 ms of a 20 KB page's ~4.5 ms, most of it re-reading each element's
 * textContent (a walk of its whole subtree, for every element), trying ~25 rules in turn on every
 * node and running 13 regular expressions over every text node. This one reads the page's text
 * once, picks a node's rule by its name and escapes only text that needs it; same algorithm
 * otherwise: whitespace collapsed as turndown collapses it, children converted before their parent,
 * blocks joined with at most one blank line, whitespace at an inline element's edges moved outside
 * its markup. core/html/markdown-turndown.test.ts checks the two agree on thousands of generated
 * pages.
 */
import { findDescendant } from './dom.js';
import { dataCell, dataTable, inDataTable, isDataTable } from './markdown-tables.js';

const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'AUDIO', 'BLOCKQUOTE', 'BODY', 'CANVAS', 'CENTER', 'DD', 'DIR', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'FRAMESET', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'HTML', 'ISINDEX', 'LI', 'MAIN', 'MENU', 'NAV', 'NOFRAMES', 'NOSCRIPT', 'OL', 'OUTPUT', 'P', 'PRE', 'SECTION', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL']);
const VOID = new Set(['AREA', 'BASE', 'BR', 'COL', 'COMMAND', 'EMBED', 'HR', 'IMG', 'INPUT', 'KEYGEN', 'LINK', 'META', 'PARAM', 'SOURCE', 'TRACK', 'WBR']);
/** Elements that are written even when they hold no text. */
const MEANINGFUL_WHEN_BLANK = new Set(['A', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TH', 'TD', 'IFRAME', 'SCRIPT', 'AUDIO', 'VIDEO']);

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

// ---------------------------------------------------------------------------------------------
// Whitespace

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
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
 * Collapses runs of whitespace in the text under `root` to one space and drops what a browser
 * would not show: spaces at the start and end of blocks and after another space, empty text
 * nodes, comments. `<pre>` keeps its whitespace. Turndown's collapse-whitespace pass, step for step.
 */
function collapseWhitespace(root: Element): void {
  if (!root.firstChild || root.nodeName === 'PRE') return;
  let prevText: CharacterData | null = null;
  let keepLeadingWs = false;
  let prev: Node | null = null;
  let node = walkNext(prev, root);
  while (node !== root) {
    if (node.nodeType === TEXT_NODE || node.nodeType === 4) {
      const data = (node as CharacterData).data;
      let text = /[ \r\n\t]{2}|[\r\n\t]/.test(data) ? data.replace(/[ \r\n\t]+/g, ' ') : data;
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
interface PageText {
  text: string;
  spans: Map<Node, { start: number; end: number }>;
  nextVisible: Int32Array;
  lastVisible: Int32Array;
}

function readText(root: Element): PageText {
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
function asciiPrefixLength(s: string): number {
  let n = 0;
  while (n < s.length && isAsciiSpace(s.charCodeAt(n))) n++;
  return n;
}

function asciiSuffixLength(s: string): number {
  let n = 0;
  while (n < s.length && isAsciiSpace(s.charCodeAt(s.length - 1 - n))) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Text

const ESCAPES: Array<[RegExp, string]> = [
  [/\\/g, '\\\\'], [/\*/g, '\\*'], [/^-/g, '\\-'], [/^\+ /g, '\\+ '], [/^(=+)/g, '\\$1'], [/^(#{1,6}) /g, '\\$1 '], [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'], [/\[/g, '\\['], [/\]/g, '\\]'], [/^>/g, '\\>'], [/_/g, '\\_'], [/^(\d+)\. /g, '$1\\. '],
];
/** Whether any of ESCAPES can apply: a character escaped anywhere, or one that starts a block. */
const NEEDS_ESCAPE = /[\\*`[\]_]|^[-+=#~>\d]/;

/** Markdown syntax in page text made literal, exactly as turndown escapes it. */
function escapeText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  for (const [pattern, replacement] of ESCAPES) text = text.replace(pattern, replacement);
  return text;
}

// ---------------------------------------------------------------------------------------------
// Rules: what an element becomes, given its converted content. Those that differ from turndown's
// own are exported for its reference configuration (test/helpers/turndown-markdown.ts).

/** Language from `language-x` / `lang-x` classes, as highlighters and CommonMark renderers emit. */
function codeLanguage(pre: Element): string {
  for (const el of [findDescendant(pre, (e) => e.localName === 'code'), pre]) {
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(el?.getAttribute('class') ?? '');
    if (m) return m[1];
  }
  return pre.getAttribute('data-lang')?.replace(/[^\w+#.-]/g, '') ?? '';
}

/** Text of a code block; `<br>` and per-line block elements (some highlighters) become newlines. */
function codeText(node: Node): string {
  let out = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) out += child.nodeValue ?? '';
    else if (child.nodeName === 'BR') out += '\n';
    else if (child.nodeType === ELEMENT_NODE) {
      out += codeText(child);
      if ((child.nodeName === 'DIV' || child.nodeName === 'P') && !out.endsWith('\n')) out += '\n';
    }
  }
  return out;
}

/** A fence longer than any backtick run that starts a line of the code. */
function fenceFor(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/^`{3,}/gm)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function codeBlock(pre: Element): string {
  const code = codeText(pre).replace(/\n$/, '');
  const fence = fenceFor(code);
  return `\n\n${fence}${codeLanguage(pre)}\n${code}\n${fence}\n\n`;
}

/** Inline code: backticks around, more of them than any run inside. */
function inlineCode(content: string): string {
  if (!content) return '';
  const code = content.replace(/\r?\n|\r/g, ' ');
  const extraSpace = /^`|^ .*?[^ ].* $|`$/.test(code) ? ' ' : '';
  const runs: string[] = code.match(/`+/gm) ?? [];
  let delimiter = '`';
  while (runs.includes(delimiter)) delimiter += '`';
  return delimiter + extraSpace + code + extraSpace + delimiter;
}

/** Link destinations: parentheses escaped; anything with spaces in angle brackets. */
function destination(url: string): string {
  if (/\s/.test(url)) return `<${url.replace(/[<>]/g, encodeURIComponent)}>`;
  return url.replace(/[()]/g, '\\$&');
}

/** Inline text from block content (a card link around a heading and a paragraph). */
function inline(content: string): string {
  return content.replace(/^#{1,6}\s+/gm, '').replace(/\s*\n\s*/g, ' ').trim();
}

export function heading(el: Element, content: string): string {
  const text = inline(content);
  return text ? `\n\n${'#'.repeat(Number(el.nodeName[1]))} ${text}\n\n` : '';
}

export function image(img: Element): string {
  const src = img.getAttribute('src')?.trim();
  // data: URIs are placeholders or inline blobs: kilobytes of base64 an LLM cannot use.
  if (!src || src.startsWith('data:')) return '';
  const alt = (img.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
  return `![${alt}](${destination(src)})`;
}

export function link(href: string, content: string): string {
  const text = inline(content);
  // A link with nothing to click (an icon whose svg was removed) is noise in markdown.
  return text ? `[${text}](${destination(href)})` : '';
}

/** Position of each `<li>` among its list's items, computed once per list (a lookup per item is quadratic). */
const itemIndexes = new WeakMap<Element, Map<Element, number>>();

function itemIndex(list: Element, item: Element): number {
  let indexes = itemIndexes.get(list);
  if (!indexes) {
    indexes = new Map();
    for (const child of Array.from(list.children)) if (child.nodeName === 'LI') indexes.set(child, indexes.size);
    itemIndexes.set(list, indexes);
  }
  return indexes.get(item) ?? 0;
}

export function listItem(li: Element, content: string): string {
  const parent = li.parentElement;
  let marker = '- ';
  if (parent?.nodeName === 'OL') {
    const start = Number(parent.getAttribute('start') ?? 1);
    marker = `${(Number.isFinite(start) ? start : 1) + itemIndex(parent, li)}. `;
  }
  const body = content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/\n/g, `\n${' '.repeat(marker.length)}`);
  return marker + body + (li.nextSibling ? '\n' : '');
}

function list(el: Element, content: string): string {
  const parent = el.parentNode as Element | null;
  // A list ending an item continues it.
  if (parent?.nodeName === 'LI' && parent.lastElementChild === el) return `\n${content}`;
  return `\n\n${content}\n\n`;
}

function blockquote(content: string): string {
  return `\n\n${content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/^/gm, '> ')}\n\n`;
}

/**
 * What `el` becomes. `upper` is its name in upper case; `html` says the name was upper case
 * already (an HTML element): turndown matches some rules by exact name (these need `html`) and
 * others whatever the case.
 */
function replacement(el: Element, upper: string, html: boolean, block: boolean, content: string): string {
  switch (upper) {
    case 'TABLE':
      if (html && isDataTable(el)) return dataTable(el, content);
      break;
    case 'CAPTION':
      if (html) return `\n\n${content.trim()}\n\n`;
      break;
    case 'TR': case 'THEAD': case 'TBODY': case 'TFOOT':
      if (html && inDataTable(el)) return '';
      break;
    case 'TD': case 'TH':
      if (html && inDataTable(el)) return dataCell(el, content);
      break;
    case 'DEL': case 'S':
      return content.trim() ? `~~${content}~~` : '';
    case 'IMG':
      return image(el);
    case 'A': {
      const href = html ? el.getAttribute('href') : null;
      if (href) return link(href, content);
      break;
    }
    case 'LI':
      return listItem(el, content);
    case 'PRE':
      return codeBlock(el);
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6':
      return heading(el, content);
    case 'P':
      return `\n\n${content}\n\n`;
    case 'BR':
      return '  \n';
    case 'BLOCKQUOTE':
      return blockquote(content);
    case 'UL': case 'OL':
      return list(el, content);
    case 'HR':
      return '\n\n---\n\n';
    case 'EM': case 'I':
      return content.trim() ? `*${content}*` : '';
    case 'STRONG': case 'B':
      return content.trim() ? `**${content}**` : '';
    case 'CODE': {
      // A <pre>'s only child is the block's code, not inline code.
      const codeOfBlock = el.parentNode?.nodeName === 'PRE' && !el.previousSibling && !el.nextSibling;
      if (html && !codeOfBlock) return inlineCode(content);
      break;
    }
  }
  return block ? `\n\n${content}\n\n` : content;
}

// ---------------------------------------------------------------------------------------------
// The walk

/**
 * Converted children, joined as turndown joins them: the newlines where two pieces meet are the
 * most either brings, at most two (one blank line). `out` is kept without its trailing newlines,
 * which wait in `newlines` for the next piece.
 */
class Joiner {
  out = '';
  newlines = '';

  add(piece: string): void {
    let lead = 0;
    while (lead < piece.length && piece.charCodeAt(lead) === 10) lead++;
    if (lead === piece.length) {
      // Nothing but newlines (or nothing): they only widen the gap, to two at most.
      const n = Math.min(2, Math.max(this.newlines.length, lead));
      this.newlines = n === 2 ? '\n\n' : n === 1 ? '\n' : '';
      return;
    }
    let end = piece.length;
    while (piece.charCodeAt(end - 1) === 10) end--;
    const gap = Math.min(2, Math.max(this.newlines.length, lead));
    this.out += (gap === 2 ? '\n\n' : gap === 1 ? '\n' : '') + (lead === 0 && end === piece.length ? piece : piece.slice(lead, end));
    this.newlines = end === piece.length ? '' : piece.slice(end);
  }

  toString(): string {
    return this.out + this.newlines;
  }
}

class Converter {
  constructor(private readonly page: PageText) {}

  children(parent: Node, inCode: boolean): string {
    const joined = new Joiner();
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        const data = (child as CharacterData).data;
        joined.add(inCode ? data : escapeText(data));
      } else if (child.nodeType === ELEMENT_NODE) {
        joined.add(this.element(child as Element, inCode));
      } else {
        joined.add('');
      }
    }
    return joined.toString();
  }

  element(el: Element, parentInCode: boolean): string {
    const name = el.nodeName;
    const upper = name.toUpperCase();
    const html = upper === name;
    const block = BLOCK.has(name);
    const { start, end } = this.page.spans.get(el)!;
    const blank = !VOID.has(name) && !MEANINGFUL_WHEN_BLANK.has(name) && this.page.nextVisible[start] >= end
      && !findDescendant(el, (d) => VOID.has(d.nodeName) || MEANINGFUL_WHEN_BLANK.has(d.nodeName));
    const [leading, trailing] = block ? ['', ''] : this.flankingWhitespace(el, start, end);
    // A code block writes its text as it is, so what is inside it needs no converting.
    let content = name === 'PRE' ? '' : this.children(el, parentInCode || name === 'CODE');
    if (leading || trailing) content = content.trim();
    const body = blank ? (block ? '\n\n' : '') : replacement(el, upper, html, block, content);
    return leading + body + trailing;
  }

  /**
   * The whitespace at the edges of an inline element's text, written outside its markup
   * (`<b> bold </b>` gives ` **bold** `). ASCII whitespace is dropped on a side where the
   * neighbour already ends (or starts) with a space.
   */
  private flankingWhitespace(el: Element, start: number, end: number): [string, string] {
    const { text, nextVisible, lastVisible } = this.page;
    const firstVisible = nextVisible[start];
    if (firstVisible >= end) {
      // Whitespace only: all of it leads, nothing trails.
      const all = text.slice(start, end);
      const ascii = asciiPrefixLength(all);
      return [ascii > 0 && this.spaceBeside(el, 'before') ? all.slice(ascii) : all, ''];
    }
    let leading = text.slice(start, firstVisible);
    let trailing = text.slice(lastVisible[end] + 1, end);
    const asciiLead = asciiPrefixLength(leading);
    if (asciiLead > 0 && this.spaceBeside(el, 'before')) leading = leading.slice(asciiLead);
    const asciiTrail = asciiSuffixLength(trailing);
    if (asciiTrail > 0 && this.spaceBeside(el, 'after')) trailing = trailing.slice(0, trailing.length - asciiTrail);
    return [leading, trailing];
  }

  /** The sibling on `side` is text, or an inline element, with a space on its edge next to `el`. */
  private spaceBeside(el: Element, side: 'before' | 'after'): boolean {
    const sibling = side === 'before' ? el.previousSibling : el.nextSibling;
    if (!sibling) return false;
    if (sibling.nodeType === TEXT_NODE) {
      const data = (sibling as CharacterData).data;
      return side === 'before' ? data.endsWith(' ') : data.startsWith(' ');
    }
    if (sibling.nodeType !== ELEMENT_NODE || BLOCK.has(sibling.nodeName)) return false;
    const { start, end } = this.page.spans.get(sibling)!;
    return end > start && this.page.text.charCodeAt(side === 'before' ? end - 1 : start) === 32;
  }
}

/**
 * Tidies the converted text outside code blocks: at most one blank line in a row, no
 * whitespace-only lines. Code keeps its blank lines.
 */
export function tidyMarkdown(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  let blank = 0;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (opener && line.trim() === opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) fence = opener;
    if (line.trim() === '') {
      if (++blank > 1 || out.length === 0) continue;
      out.push('');
    } else {
      blank = 0;
      out.push(line);
    }
  }
  return out.join('\n').trim();
}

/**
 * Markdown of `root`'s content (typically the cleaned body). Consumes the tree: whitespace is
 * collapsed in place, so the caller reads nothing from it afterwards.
 */
export function toMarkdown(root: Element): string {
  collapseWhitespace(root);
  const converted = new Converter(readText(root)).children(root, false);
  // Newlines and tabs off the start, whitespace off the end; a loop, since a regular expression
  // anchored at the end retries from every whitespace run in the text.
  let start = 0;
  while (start < converted.length && /[\t\r\n]/.test(converted[start])) start++;
  let end = converted.length;
  while (end > start && isSpace(converted.charCodeAt(end - 1))) end--;
  return tidyMarkdown(converted.slice(start, end));
}
