/**
 * The edges of the content root, judged line by line (main-content.ts step 4): the tail after the
 * last prose and the head before the title. Lines as in lines.ts.
 */
import { followsHeadline, type StatsMap } from './content-score.js';
import { ancestorWithTag, ELEMENT_NODE, findDescendant, MEDIA_TAGS, TEXT_NODE, visibleTextLength } from './dom.js';
import { lineStats, textLine } from './lines.js';
import { STORY_BEFORE } from './other-stories.js';
import { CARD_TEXT } from './teaser-cards.js';

/** Characters at most of a line before the title or after the last prose that is not content. */
const EDGE_LINE = 100;

const LINK = new Set(['a']);

/** A picture shown for itself: media not inside a link (a teaser's thumbnail) and not a tracking pixel. */
function isPicture(el: Element, root: Element): boolean {
  if (!MEDIA_TAGS.has(el.localName) || ancestorWithTag(el, LINK, root)) return false;
  return !['width', 'height'].some((name) => /^\s*[0-2](?:px)?\s*$/.test(el.getAttribute(name) ?? ''));
}

/** Teasers at least (a headline that links elsewhere and its blurb) for them to end the root: one is a link before a last paragraph. */
const TAIL_TEASERS = 2;

/** Characters at most of a line that titles what follows it. */
const TITLE_LINE = 80;

/**
 * A line that titles a list of teasers ("B.C. Headlines", "Verwandte Beiträge"): a short heading that is
 * not a teaser's own `headline` (it may link to the section), or a short line without links that does
 * not introduce the list as the article's own ("Here are the deals:").
 */
function isTitleLine(line: Element, stats: StatsMap, headline: boolean): boolean {
  const s = lineStats(line, stats);
  if (headline || s.text > TITLE_LINE) return false;
  return /^h[2-6]$/.test(line.localName) || (s.linkText === 0 && !/[:：.]\s*$/.test(line.textContent ?? ''));
}

/**
 * What ends the content root after its last prose: headings (not a title, h1) left without their
 * section ("More on this topic", whose teasers were furniture), lead-in lines ending in a colon, short lines
 * that are all link ("Back to the list", "Pictures of the event") and teasers, each a headline that
 * links elsewhere and its blurb (`<dt><a>…</a></dt><dd>…</dd>`), when there are several after an
 * article. Read backwards from the end, text by text, up to the first text that is not in such a
 * line; a line is a block with no block inside it. Images are passed over, but a heading over a
 * picture of its own (not a linked thumbnail) has its section: a gallery's captions, a screenshot's step.
 */
export function collectTail(root: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  let done = false;
  let pictured = false;
  // The teasers' blurbs read so far, and what was found before the first of them.
  const blurbs = new Set<Element>();
  let beforeTeasers: Element[] = [];
  const isTail = (line: Element): boolean => {
    const s = lineStats(line, stats);
    if (line === root || s.mixed || s.text > EDGE_LINE) return false;
    if (/^h[2-6]$/.test(line.localName)) return !pictured;
    return s.linkText >= 0.8 * s.text || /[:：]\s*$/.test(line.textContent ?? '');
  };
  const isBlurb = (line: Element): boolean => {
    const s = stats.get(line);
    return !!s && s.inline === s.text && s.text <= CARD_TEXT && followsHeadline(line, stats);
  };
  const visit = (node: Node): void => {
    for (let child = node.lastChild; child && !done; child = child.previousSibling) {
      if (child.nodeType === ELEMENT_NODE && isPicture(child as Element, root)) pictured = true;
      if (child.nodeType === ELEMENT_NODE) visit(child);
      else if (child.nodeType === TEXT_NODE && /\S/.test((child as Text).data)) {
        const line = textLine(child, root, stats);
        if (found.has(line)) continue;
        if (isTail(line)) found.add(line);
        else if (isBlurb(line)) {
          if (blurbs.size === 0) beforeTeasers = [...found];
          blurbs.add(line);
          found.add(line);
        } else done = true;
      }
    }
  };
  visit(root);
  if (blurbs.size === 0) return found;
  // Teasers after an article: several of them, after enough text of the root's own (as other stories).
  const lines = [...found];
  const before = visibleTextLength(root) - lines.reduce((sum, line) => sum + lineStats(line, stats).text, 0);
  const top = lines.length - 1;
  const title = isTitleLine(lines[top], stats, top > 0 && blurbs.has(lines[top - 1]));
  return blurbs.size >= TAIL_TEASERS && before >= STORY_BEFORE && title ? found : new Set(beforeTeasers);
}

/**
 * What precedes the title in the content root: short lines before its first `<h1>` (kickers,
 * category links, "Press release", dates, credits of the picture above), read from the start up
 * to the h1 or to the first text that is not such a line. Lines as in `collectTail`.
 */
export function collectHead(root: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  const title = findDescendant(root, (el) => el.localName === 'h1');
  if (!title) return found;
  let done = false;
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child && !done; child = child.nextSibling) {
      if (child === title) done = true;
      else if (child.nodeType === ELEMENT_NODE) visit(child);
      else if (child.nodeType === TEXT_NODE && /\S/.test((child as Text).data)) {
        const line = textLine(child, root, stats);
        if (found.has(line)) continue;
        const s = lineStats(line, stats);
        if (line !== root && !s.mixed && s.text <= EDGE_LINE) found.add(line);
        else done = true;
      }
    }
  };
  visit(root);
  return found;
}
