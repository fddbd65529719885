/**
 * Copies of lines the root already shows (main-content.ts step 4), the first showing staying:
 * - a forum reply's quote of a post on the page;
 * - a text shipped once for wide screens and once for narrow ones (`hidden-up-md` and
 *   `hidden-down-md`, `mobileText`, `slide desktop` and `slide mobile`), of which a reader sees one.
 * - a block of several lines whose whole text an earlier block shows: a site builder's copy of a
 *   story for each screen under classes that say nothing (Framer's `ssr-variant hidden-1rq27kw`),
 *   a thread's first post again in its preview card. Not on technical pages, where two methods or
 *   two tabs of a manual share their description and the references keep both.
 * Not every repeat: a pull quote repeats a sentence of the story on purpose, a manual repeats its
 * "Stability: Experimental" notes, a guide quotes its own example, and the references keep them.
 */
import { type StatsMap } from './content-score.js';
import { ancestorWithTag, collapse, ELEMENT_NODE, findDescendant, isWithin, TEXT_NODE, textOf, walkElements } from './dom.js';
import { isSpace } from './markdown-text.js';

/** Characters at least of a quoted line that goes: shorter ones ("Yes", "Thanks!") repeat by nature. */
const REPEAT_LINE = 60;
/** Characters at least of a block of lines that goes when it repeats an earlier block whole. */
const REPEAT_BLOCK = 200;
const QUOTES = new Set(['blockquote']);
/** A forum's quote of a post: XenForo's `bbCodeBlock--quote` with `data-quote`, Invision's `ipsQuote`, phpBB's `uncited`, a `<cite>` naming the poster. */
const POST_QUOTE_CLASS = /(?:^|\s)(?:bbcodeblock--quote|ipsquote|uncited|bbcode_quote|quotecontent)(?:\s|$)/i;

function isPostQuote(quote: Element): boolean {
  return quote.hasAttribute('data-quote') || quote.hasAttribute('data-ipsquote') || quote.hasAttribute('data-author') ||
    POST_QUOTE_CLASS.test(quote.getAttribute('class') ?? '') || findDescendant(quote, (c) => c.localName === 'cite') !== undefined;
}

/**
 * Lines (blocks of inline text only) in a post's quote or a block for one screen whose text an
 * earlier line of the root already shows, and blocks of lines an earlier block shows whole.
 */
export function collectRepeats(root: Element, stats: StatsMap, technical = false): Set<Element> {
  // Lines seen, by their length as it is now (earlier steps may have taken a line out of a block
  // since it was measured): a line's text is collapsed and compared only when an earlier one is as
  // long, which few are (collapsing every paragraph was most of this step's cost).
  const seen = new Map<number, Element[]>();
  const texts = new Map<Element, string>();
  const lineText = (el: Element): string => {
    let text = texts.get(el);
    if (text === undefined) texts.set(el, (text = collapse(textOf(el))));
    return text;
  };
  const found = new Set<Element>();
  // Blocks of several lines seen, by their measured length (the same for two copies, whatever
  // earlier steps took from elsewhere): one whose text an earlier block, not one around it, shows
  // whole is a copy.
  const blocks = new Map<number, Element[]>();
  walkElements(root, (el) => {
    // Code repeats by design.
    if (el.localName === 'pre') return false;
    const s = stats.get(el);
    if (!s || s.text < REPEAT_LINE) return true;
    if (s.inline !== s.text) {
      if (technical || s.text < REPEAT_BLOCK) return true;
      const alike = blocks.get(s.text);
      if (!alike) blocks.set(s.text, [el]);
      else if (alike.some((other) => !isWithin(el, other) && lineText(other) === lineText(el))) {
        found.add(el);
        return false;
      } else alike.push(el);
      return true;
    }
    const length = nonSpaceLength(el);
    const alike = seen.get(length);
    if (!alike) {
      seen.set(length, [el]);
      return false;
    }
    const text = lineText(el);
    const first = alike.find((other) => lineText(other) === text);
    if (!first) alike.push(el);
    else {
      const quote = QUOTES.has(el.localName) ? el : ancestorWithTag(el, QUOTES, root);
      const screen = oneScreenBlock(el, root);
      // A copy for another screen: the first showing is outside the block that holds the copy.
      if ((quote && isPostQuote(quote)) || (screen && !isWithin(first, screen))) found.add(el);
    }
    return false;
  });
  return found;
}

/** Characters under `el` that are not white space as `\s` reads it: lines whose collapsed texts are equal have as many. */
function nonSpaceLength(el: Node): number {
  let n = 0;
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) n += nonSpaceLength(child);
    else if (child.nodeType === TEXT_NODE) {
      const text = child.nodeValue ?? '';
      for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) n++;
    }
  }
  return n;
}

/** Class tokens of a block shown on some screens only: `mobileText`, `product-description hidden-up-md`, `d-md-none`, `desktop-only`. */
const ONE_SCREEN = /(?:^|[-_\s])(?:mobile|desktop|tablet)(?:[-_A-Z\s]|$)|(?:^|\s)(?:hidden|visible|show|hide)-(?:xs|sm|md|lg|xl|up|down|for)\b|(?:^|\s)d-(?:xs|sm|md|lg|xl)-none\b/;

/** The block, below the root, shown on some screens only that holds a line. */
function oneScreenBlock(el: Element, root: Element): Element | undefined {
  for (let up: Element | null = el; up && up !== root; up = up.parentElement) {
    if (ONE_SCREEN.test(up.getAttribute('class') ?? '')) return up;
  }
  return undefined;
}
