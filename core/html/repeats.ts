/**
 * A forum reply's quote of a post the page already shows (main-content.ts step 4): the post stays,
 * the copy in the reply goes. Not every repeat: a pull quote repeats a sentence of the story on
 * purpose, a manual repeats its "Stability: Experimental" notes, a guide quotes its own example,
 * and the references keep them.
 */
import { type StatsMap } from './content-score.js';
import { ancestorWithTag, findDescendant, walkElements } from './dom.js';

/** Characters at least of a quoted line that goes: shorter ones ("Yes", "Thanks!") repeat by nature. */
const REPEAT_LINE = 60;
const QUOTES = new Set(['blockquote']);
/** A forum's quote of a post: XenForo's `bbCodeBlock--quote` with `data-quote`, Invision's `ipsQuote`, phpBB's `uncited`, a `<cite>` naming the poster. */
const POST_QUOTE_CLASS = /(?:^|\s)(?:bbcodeblock--quote|ipsquote|uncited|bbcode_quote|quotecontent)(?:\s|$)/i;

function isPostQuote(quote: Element): boolean {
  return quote.hasAttribute('data-quote') || quote.hasAttribute('data-ipsquote') || quote.hasAttribute('data-author') ||
    POST_QUOTE_CLASS.test(quote.getAttribute('class') ?? '') || findDescendant(quote, (c) => c.localName === 'cite') !== undefined;
}

/** Lines (blocks of inline text only) in a post's quote whose text an earlier line of the root already shows. */
export function collectRepeats(root: Element, stats: StatsMap): Set<Element> {
  const seen = new Set<string>();
  const found = new Set<Element>();
  walkElements(root, (el) => {
    // Code repeats by design.
    if (el.localName === 'pre') return false;
    const s = stats.get(el);
    if (!s || s.text < REPEAT_LINE || s.inline !== s.text) return true;
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!seen.has(text)) seen.add(text);
    else {
      const quote = QUOTES.has(el.localName) ? el : ancestorWithTag(el, QUOTES, root);
      if (quote && isPostQuote(quote)) found.add(el);
    }
    return false;
  });
  return found;
}
