/**
 * Short lines of the content root that are furniture by their wording (main-content.ts step 4):
 * credits, bylines, datelines, reading times, sources, prompts, disclosures, notices (their wording: worded-patterns.ts).
 * Lines as in lines.ts.
 */
import { countCommas, type StatsMap } from './content-score.js';
import { ancestorWithTag, collapse, countVisible, ELEMENT_NODE, findDescendant, linkTextOf, TEXT_NODE, textOf, visibleTextLength, walkElements, wrapNodes } from './dom.js';
import { breakRuns } from './lines.js';
import { isDataTable } from './markdown-tables.js';
import {
  BYLINE_LINE, BYLINES, CALL_TO_ACTION, CODE_LIKE, DATE_LINE, DATELINE, DATELINES, DISCLOSURE_LINE, DISCLOSURES, LABEL_LINE,
  NO_DISCLOSURE, NOTICE_LINE, WORDED_LINE, isByline, isDateline, isDisclosure, isFurnitureLine, isNotice, isPrompt, isReadingTime, mayBeLongWorded,
} from './worded-patterns.js';

/**
 * A pointer to another story set in an article's text: "Related: <a>Core Value #1: Safety First</a>",
 * "READ MORE: <a>…</a>", "Also read: <a>…</a>", "WATCH: <a>…</a>". The label, then a link and nothing
 * else (POINTER_LINKS). Not "See also": a manual's cross-references are its content.
 */
const POINTER_OPENS =
  /^(?:related(?: (?:articles?|stories|story|posts?|reading|coverage))?|read (?:more|also|next)|also read|recommended(?: reading)?|more(?: (?:news|stories|coverage))?|watch(?: now)?|listen|don'?t miss|must read)\s*[:|»›]\s*(?=\S)/iu;
/** Share of the text after a pointer's label in links, at least. */
const POINTER_LINKS = 0.8;

/**
 * The title of a table of contents: "Table of contents", "On this page", "In this article", "Jump to:".
 * The table goes (in the chrome, as a nav, or as links to the page's own sections); its title,
 * left alone in the box they shared, goes too. A title with its table kept (a plain-text one, an
 * RFC's) is not alone.
 */
const TOC_LABEL = /^(?:table of contents|contents|on this page|in this (?:article|post|guide|page)|jump to|inhaltsverzeichnis|inhalt|sommaire|índice|contenido|indice)\s*:?$/iu;
const TOC_LABEL_LINE = 20;

/**
 * A number alone in its box: beside each post or product a count (votes, replies, likes: "0", "12"),
 * furniture. Not a figure with its caption in the same box ("365" over "daily back-ups"), a table's
 * cell, or a number in a sequence (1, 2, 3 or 01, 02, 03): a step's or a list item's.
 */
const LONE_NUMBER = /^\d{1,4}$/u;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Whether an element's text is all its parent's (what it shared its box with is gone), and it is
 * not a heading: a section titled "Contents" is the page's, however its heading is wrapped.
 */
function isLoneLabel(el: Element, length: number): boolean {
  const parent = el.parentElement;
  if (!parent || HEADINGS.has(el.localName) || ancestorWithTag(el, HEADINGS)) return false;
  return visibleTextLength(parent, undefined, length + 1) === length;
}

/** A line to judge: an element, or the nodes of a line written with line breaks (lines.ts breakRuns). */
type Line = Element | readonly Node[];

/**
 * Short lines in the root that are furniture by their wording (isFurnitureLine, LABEL_LINE, PROMPT_LINE, a notice),
 * and calls to action unless the root is `technical` (a manual's "Read more" leads to the rest of its own text).
 * In an `article` root, also its dates, reading times, bylines, datelines, disclosures and pointers to other stories;
 * in a whole page (a listing, a forum thread: no main block) those are the content, each card's or post's.
 */
export function collectWorded(root: Element, stats: StatsMap, { article = true, technical = false } = {}): Set<Element> {
  const found: Line[] = [];
  const disclosures = new Map<Line, string>();
  // Datelines are looked for above the first paragraph: below it, and in numbers (a listing of
  // events, a forum's posts), dates and names are the content.
  const datelines: Line[] = [];
  const bylines: Line[] = [];
  const numbers: [Line, number][] = [];
  let prose = 0;
  const judge = (line: Line, tag: string, length: number, text: string, commas: number): void => {
    if (length === 0 || length > DISCLOSURE_LINE || tag === 'h1') return;
    if (length > DATELINE) prose++;
    // An API's line ("sources: <string[]>", "channel.subscribe(onMessage)") is never furniture.
    if (CODE_LIKE.test(text)) return;
    if (isDisclosure(text)) {
      if (article && !NO_DISCLOSURE.test(text)) disclosures.set(line, text);
    }
    else if (length <= NOTICE_LINE && isNotice(text)) found.push(line);
    else if (length <= WORDED_LINE && (isFurnitureLine(text) || isPrompt(text, commas) || (LABEL_LINE.test(text) && !HEADINGS.has(tag) && !CELLS.has(tag) && !isCode(line, text)))) found.push(line);
    else if (length <= TOC_LABEL_LINE && TOC_LABEL.test(text) && isElement(line) && isLoneLabel(line, length)) found.push(line);
    else if (length <= 4 && LONE_NUMBER.test(text)) {
      if (isElement(line) && isLoneLabel(line, length) && !ancestorWithTag(line, CELLS) && !isCode(line, text)) numbers.push([line, Number(text)]);
    }
    else if (!technical && length <= CALL_TO_ACTION_MAX && !HEADINGS.has(tag) && isCallToAction(line, length, text, article)) found.push(line);
    else if (!article) return;
    else if (length <= WORDED_LINE && (DATE_LINE.test(text) || isReadingTime(text))) found.push(line);
    else if (length <= WORDED_LINE && (BYLINE_LINE.test(text) || isByline(text))) bylines.push(line);
    else if (length <= WORDED_LINE && isPointer(line, length, text)) found.push(line);
    else if (prose === 0 && isDateline(tag, text)) datelines.push(line);
  };
  const judgeElement = (el: Element, length: number, commas: number, raw = textOf(el)): void => {
    // A long line that cannot be a disclosure or a notice is judged by its length alone (it counts as prose).
    judge(el, el.localName, length, length > WORDED_LINE && !mayBeLongWorded(raw) ? '' : collapse(raw), commas);
  };
  // A block that also holds blocks, or is too long to be one line: its runs of text and inline
  // elements between blocks and line breaks are lines (`…</p><hr><span class="legal">Copyright
  // …</span><br>`, `story…<br><br>Follow us on Twitter<br>` at the end of a story written with `<br>`s).
  const judgeRuns = (block: Element): void => {
    for (const run of breakRuns(block, stats)) {
      if (article && isLinkLine(run)) {
        found.push(run.length === 1 && run[0].nodeType === ELEMENT_NODE ? (run[0] as Element) : run);
        continue;
      }
      if (run.length === 1 && run[0].nodeType === ELEMENT_NODE) {
        const el = run[0] as Element;
        const length = visibleTextLength(el);
        if (length === 0 || length > DISCLOSURE_LINE) continue;
        const raw = textOf(el);
        judgeElement(el, length, countCommas(raw), raw);
        continue;
      }
      const text = collapse(run.map(textOf).join(''));
      // Collapsed, its only whitespace is single spaces.
      judge(run, 'span', countVisible(text), text, countCommas(text));
    }
  };
  if (stats.get(root)!.inline > 0) judgeRuns(root);
  walkElements(root, (el) => {
    // Code is judged by nobody: a license header or a dated log line in it is the code's. Nor is the
    // cell of a table with headers: a column headed "Comments" or "Share" is the table's, and a
    // cell taken out would shift the rest of its row.
    if (el.localName === 'pre' || (CELLS.has(el.localName) && isHeadedTable(ancestorWithTag(el, TABLE)))) return false;
    const s = stats.get(el);
    if (!s || s.text === 0) return true;
    if (s.inline !== s.text) {
      if (s.inline > 0) judgeRuns(el);
      return true;
    }
    if (s.text <= DISCLOSURE_LINE) judgeElement(el, s.text, s.commas);
    else if (hasBreak(el)) judgeRuns(el);
    return false;
  });
  // The same disclosure repeated under every product is furniture however often it comes.
  if (new Set(disclosures.values()).size <= DISCLOSURES) found.push(...disclosures.keys());
  if (datelines.length <= DATELINES) found.push(...datelines);
  if (bylines.length <= BYLINES) found.push(...bylines);
  found.push(...counts(numbers));
  return new Set(found.map((line) => (isElement(line) ? line : wrapNodes(line))));
}

const CELLS = new Set(['td', 'th']);
const TABLE = new Set(['table']);

/** Of the numbers alone on a line, in order, the counts: those in no run of consecutive numbers (a sequence's steps). */
function counts(numbers: readonly [Line, number][]): Line[] {
  return numbers.filter(([, n], i) => numbers[i - 1]?.[1] !== n - 1 && numbers[i + 1]?.[1] !== n + 1).map(([line]) => line);
}

/** A data table with a header cell: a table of figures, not one that lays out a page. Once a table: its cells all ask. */
const headedTables = new WeakMap<Element, boolean>();
function isHeadedTable(table: Element | null): boolean {
  if (!table) return false;
  let headed = headedTables.get(table);
  if (headed === undefined) headedTables.set(table, (headed = isDataTable(table) && findDescendant(table, (el) => el.localName === 'th') !== undefined));
  return headed;
}

const isElement = (line: Line): line is Element => !Array.isArray(line);

/** Whether a line is a piece of code: an API's `close` or `edit` is a name, not a control. */
const isCode = (line: Line, text: string): boolean =>
  isElement(line) && (line.localName === 'code' || findDescendant(line, (el) => el.localName === 'code' && collapse(el.textContent ?? '') === text) !== undefined);

/** Whether a line is a pointer to another story (POINTER_OPENS): its label, then links only. */
function isPointer(line: Line, length: number, text: string): boolean {
  const opens = text.match(POINTER_OPENS);
  if (!opens) return false;
  const links = lineLinkText(line);
  return links > 0 && links >= POINTER_LINKS * (length - opens[0].replace(/\s/g, '').length);
}

/** Characters of a line's text in links. */
const lineLinkText = (line: Line): number =>
  isElement(line) ? linkTextOf(line) : line.reduce((sum, n) => sum + (n.nodeType === ELEMENT_NODE ? linkTextOf(n as Element) : 0), 0);

/** Characters at most of a call to action. */
const CALL_TO_ACTION_MAX = 100;
/**
 * Words at most of a call to action on a page with no main block: a button's label ("Read more",
 * "View Company Profile"). A longer line that opens with a verb there may be an item's name (a
 * shop's "Register II/Isode II Helmet Vent Light").
 */
const BUTTON_WORDS = 3;

/** A product tour's link that names the page it leads to ("Learn more about Web Console"): not a call to action. */
const NAMED_TARGET = /^(?:learn|read|find out) more about\b/iu;

/**
 * A line that is one link to another page telling the reader to go there, written as a button (no
 * full stop): "Read the full Kia EV3 review", "Compare new car deals with leasing.com", "Book now",
 * "Click here to sign up" (CALL_TO_ACTION), in an article or on a listing's cards (BUTTON_WORDS). A
 * sentence that links ("Read our full review.") is the writer's, a link that names its page
 * (NAMED_TARGET) is the page's, and code is a name (an API's `Request`).
 */
function isCallToAction(line: Line, length: number, text: string, article: boolean): boolean {
  if (/[.!?:;]$/u.test(text) || !CALL_TO_ACTION.test(text) || NAMED_TARGET.test(text)) return false;
  if ((!article && text.split(' ').length > BUTTON_WORDS) || lineLinkText(line) < length || isCode(line, text)) return false;
  const links = linksOf(line);
  return links.length === 1 && !links[0]!.getAttribute('href')?.startsWith('#');
}

/** The links of a line, outermost (an `<a>` is not looked into). */
function linksOf(line: Line): Element[] {
  const links: Element[] = [];
  const visit = (el: Element): boolean => {
    if (el.localName !== 'a') return true;
    links.push(el);
    return false;
  };
  for (const n of isElement(line) ? [line] : line) if (n.nodeType === ELEMENT_NODE && visit(n as Element)) walkElements(n, visit);
  return links;
}

/**
 * A line of links in an article written with line breaks: a section's links (`Football | Cricket |
 * Rugby Union …`), a row of headlines. LINK_LINE_LINKS links at least, and LINK_LINE_SHARE of its text in them.
 */
const LINK_LINE_LINKS = 4;
const LINK_LINE_SHARE = 0.8;
function isLinkLine(run: readonly Node[]): boolean {
  // Most lines hold no link: count them first, and measure the text only of those that may qualify.
  let links = 0;
  for (const node of run) if (node.nodeType === ELEMENT_NODE) links += (node as Element).localName === 'a' ? 1 : (node as Element).getElementsByTagName('a').length;
  if (links < LINK_LINE_LINKS) return false;
  let linkText = 0;
  let text = 0;
  for (const node of run) {
    if (node.nodeType === TEXT_NODE) text += countVisible(node.nodeValue ?? '');
    else if (node.nodeType === ELEMENT_NODE) {
      text += visibleTextLength(node);
      linkText += linkTextOf(node as Element);
    }
  }
  return linkText >= LINK_LINE_SHARE * text;
}

/** Whether a block holds a line break of its own: only then is a long block more than one line. */
const hasBreak = (el: Element): boolean => {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'br' || c.localName === 'hr') return true;
  return false;
};
