/**
 * The line model of the line rules (furniture-lines.ts, worded-lines.ts, other-stories.ts): a line is
 * a block with no block inside it, or an inline element standing alone between blocks (`</p><time>
 * Publiziert: …</time><div>`, `</p><a>Back to the list</a></div>`).
 */
import { type StatsMap } from './content-score.js';
import { COMMENT_NODE, ELEMENT_NODE, findDescendant, TEXT_NODE, visibleTextLength, walkElements } from './dom.js';

/** What the line rules read of a line: its text, the part in links, and whether it holds blocks. */
export interface LineStats {
  text: number;
  linkText: number;
  mixed: boolean;
}

/** Blank text, or an empty inline element (`<a name="comments"></a>`): nothing a reader sees. */
const isBlank = (node: Node): boolean => {
  if (node.nodeType === TEXT_NODE) return !/\S/.test(node.nodeValue ?? '');
  const el = node as Element;
  return node.nodeType === ELEMENT_NODE && !el.firstChild && INLINE_EMPTY.has(el.localName);
};

/** Inline elements that show nothing when empty (an `<img>` or a `<br>` shows something). */
const INLINE_EMPTY = new Set(['a', 'span', 'b', 'strong', 'i', 'em', 'font', 'small']);

const BREAKS = new Set(['br', 'hr']);

/**
 * An inline element (no stats) whose neighbours in its block are blocks or blank text; with
 * `breaks`, line breaks (`<br>`, `<hr>`) count as such neighbours too.
 */
export function isLoneInline(el: Element, stats: StatsMap, breaks = false): boolean {
  const alone = (node: Node | null, next: (n: Node) => Node | null): boolean => {
    while (node && (isBlank(node) || node.nodeType === COMMENT_NODE)) node = next(node);
    return !node || (node.nodeType === ELEMENT_NODE && (stats.has(node as Element) || (breaks && BREAKS.has((node as Element).localName))));
  };
  return alone(el.previousSibling, (n) => n.previousSibling) && alone(el.nextSibling, (n) => n.nextSibling);
}

/**
 * The lines of a block written with line breaks: the runs of text and inline elements between its
 * blocks and its `<br>`s and `<hr>`s, blank nodes and comments trimmed from their ends (`Story
 * text…<br><br>Copyright 2008 The Associated Press. All rights reserved.<br>`). A run of one element
 * is a lone inline element (isLoneInline with breaks).
 */
export function breakRuns(block: Element, stats: StatsMap): Node[][] {
  const runs: Node[][] = [];
  let run: Node[] = [];
  const end = (): void => {
    let first = 0;
    let last = run.length - 1;
    while (first <= last && (isBlank(run[first]) || run[first].nodeType === COMMENT_NODE)) first++;
    while (last >= first && (isBlank(run[last]) || run[last].nodeType === COMMENT_NODE)) last--;
    if (first <= last) runs.push(run.slice(first, last + 1));
    run = [];
  };
  for (let c = block.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === ELEMENT_NODE && (stats.has(c as Element) || BREAKS.has((c as Element).localName))) end();
    else run.push(c);
  }
  end();
  return runs;
}

/**
 * The line that a text node belongs to: its block (the nearest ancestor with stats, or `root`), or,
 * when that block also holds blocks, the inline element under it that stands alone between them.
 */
export function textLine(text: Node, root: Element, stats: StatsMap): Element {
  let outer: Element | undefined;
  let block = text.parentElement!;
  while (block !== root && !stats.has(block)) {
    outer = block;
    block = block.parentElement!;
  }
  const s = stats.get(block)!;
  return outer && s.inline !== s.text && isLoneInline(outer, stats) ? outer : block;
}

/** A line's stats: a block's from the content stats; an inline element's counted here. */
export function lineStats(line: Element, stats: StatsMap): LineStats {
  const s = stats.get(line);
  if (s) return { text: s.text, linkText: s.linkText, mixed: s.inline !== s.text };
  const text = visibleTextLength(line);
  let linkText = line.localName === 'a' ? text : 0;
  walkElements(line, (el) => {
    if (linkText === text || el.localName !== 'a') return true;
    linkText += visibleTextLength(el);
    return false;
  });
  return { text, linkText, mixed: findDescendant(line, (el) => stats.has(el)) !== undefined };
}
