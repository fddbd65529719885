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
 * its markup (markdown-text.ts reads the text, markdown-rules.ts holds the rules).
 * core/html/markdown-turndown.test.ts checks the two agree on thousands of generated pages.
 */
import { ELEMENT_NODE, findDescendant, TEXT_NODE } from './dom.js';
import { escapeText, replacement } from './markdown-rules.js';
import { isDataTable, withTableScope } from './markdown-tables.js';
import { asciiPrefixLength, asciiSuffixLength, BLOCK, collapseWhitespace, isSpace, readText, VOID, type PageText } from './markdown-text.js';

/** Elements that are written even when they hold no text. */
const MEANINGFUL_WHEN_BLANK = new Set(['A', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TH', 'TD', 'IFRAME', 'SCRIPT', 'AUDIO', 'VIDEO']);

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
  const converter = new Converter(readText(root));
  // A data table chosen as the content root (a ranked list, a schedule) is written as the table it
  // is: its cells write nothing of their own, and only the table lays them out.
  const asTable = root.localName === 'table' && isDataTable(root);
  const converted = withTableScope(root, () => (asTable ? converter.element(root, false) : converter.children(root, false)));
  // Newlines and tabs off the start, whitespace off the end; a loop, since a regular expression
  // anchored at the end retries from every whitespace run in the text.
  let start = 0;
  while (start < converted.length && /[\t\r\n]/.test(converted[start])) start++;
  let end = converted.length;
  while (end > start && isSpace(converted.charCodeAt(end - 1))) end--;
  return tidyMarkdown(converted.slice(start, end));
}
