/**
 * Text statistics of a subtree, and where its main content is, in one walk.
 *
 * Every element gets its visible text length, the part of it inside links, and its commas. A
 * *text block* is a block element whose own inline text (text nodes and inline elements directly
 * in it, not nested blocks) has at least MIN_BLOCK characters; each credits its ancestors with a
 * paragraph score (1 + commas + one per 100 characters, at most 3), the parent in full, the
 * grandparent half, and further ancestors less, as Readability does. A candidate's score is that
 * credit plus what its tag and class/id say, times the share of its text outside links.
 */
import { classWeight } from './class-names.js';
import { ELEMENT_NODE, TEXT_NODE } from './dom.js';

export interface Stats {
  /** Visible (non-whitespace) characters under the element. */
  text: number;
  /** Of those, characters inside links. */
  linkText: number;
  commas: number;
  /** Paragraph scores credited by the text blocks below (diluted by distance). */
  score: number;
  /** Undiluted sum of the paragraph scores of the text blocks inside the element, each times its share of text outside links. */
  mass: number;
  /** Of that mass, the blurbs of teasers: text blocks that follow a headline linking elsewhere. */
  teaser: number;
  /** Own inline text: characters and commas not inside a nested block. */
  inline: number;
  inlineCommas: number;
  /** Counts of descendants by kind, for the conditional clean-up (main-content.ts). */
  paragraphs: number;
  images: number;
  inputs: number;
  media: number;
  /** Links to a fragment of the same page (a table of contents), and links in all. */
  fragmentLinks: number;
  links: number;
  /** Characters inside code, pre, kbd, samp and tt: how technical the text is. */
  codeText: number;
}

const MIN_BLOCK = 25;
const MIN_LIST_ITEM = 100;
const ANCESTOR_LEVELS = 5;

/** Elements whose text belongs to the enclosing block. */
const INLINE_TAGS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'ins', 'kbd',
  'label', 'mark', 'nobr', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);

/** Blocks whose text is not a paragraph of prose: headings, list and table furniture, captions. */
const NOT_PARAGRAPH = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'th', 'caption', 'figcaption', 'button', 'option', 'select', 'label', 'legend', 'summary',
]);

const TAG_SCORE: Record<string, number> = {
  div: 5, article: 5, section: 3, main: 5, pre: 3, td: 3, blockquote: 3,
  address: -3, ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3,
  h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5,
};

/** A comma, in Latin, full-width, ideographic or Arabic script: what a paragraph's score counts. */
const isComma = (c: number): boolean => c === 44 || c === 0xff0c || c === 0x3001 || c === 0x060c;

export function countCommas(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isComma(text.charCodeAt(i))) n++;
  return n;
}

export type StatsMap = Map<Element, Stats>;

function emptyStats(): Stats {
  return {
    text: 0, linkText: 0, commas: 0, score: 0, mass: 0, teaser: 0, inline: 0, inlineCommas: 0,
    paragraphs: 0, images: 0, inputs: 0, media: 0, fragmentLinks: 0, links: 0, codeText: 0,
  };
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const CODE = new Set(['code', 'pre', 'kbd', 'samp', 'tt']);

/** Counts a block element itself, once its subtree is in `s`. */
function countBlock(el: Element, s: Stats): void {
  switch (el.localName) {
    case 'p': s.paragraphs++; return;
    case 'input': case 'select': case 'textarea': s.inputs++; return;
    case 'video': case 'audio': s.media++; return;
    case 'pre': s.codeText = s.text; return;
    default:
      if (!HEADINGS.has(el.localName)) return;
      // API references title each item with its signature: `<h3 class="code-header">`.
      if (/\bcode\b|\bsig\b/.test(el.getAttribute('class') ?? '')) s.codeText = s.text;
  }
}

function addText(value: string, block: Stats, link: boolean, code: boolean): void {
  let n = 0;
  let commas = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 160) n++;
    if (isComma(c)) commas++;
  }
  block.text += n;
  block.commas += commas;
  block.inline += n;
  block.inlineCommas += commas;
  if (link) block.linkText += n;
  if (code) block.codeText += n;
}

function addChild(s: Stats, cs: Stats, link: boolean): void {
  s.text += cs.text;
  s.linkText += link ? cs.text : cs.linkText;
  s.commas += cs.commas;
  s.mass += cs.mass;
  s.teaser += cs.teaser;
  s.paragraphs += cs.paragraphs;
  s.images += cs.images;
  s.inputs += cs.inputs;
  s.media += cs.media;
  s.fragmentLinks += cs.fragmentLinks;
  s.links += cs.links;
  s.codeText += cs.codeText;
}

/**
 * Stats of every block element under `root` (and root). Inline elements get no entry of their own:
 * their text and counts go straight to the enclosing block, which keeps this walk cheap.
 */
export function measure(root: Element): StatsMap {
  const map: StatsMap = new Map();
  const children = (el: Element, block: Stats, link: boolean, code: boolean): void => {
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) addText(child.nodeValue ?? '', block, link, code);
      else if (child.nodeType === ELEMENT_NODE) {
        const c = child as Element;
        const tag = c.localName;
        if (!INLINE_TAGS.has(tag)) {
          addChild(block, visitBlock(c), link);
          continue;
        }
        if (tag === 'a') {
          block.links++;
          if (c.getAttribute('href')?.startsWith('#')) block.fragmentLinks++;
        } else if (tag === 'img') block.images++;
        children(c, block, link || tag === 'a', code || CODE.has(tag));
      }
    }
  };
  const visitBlock = (el: Element): Stats => {
    const s = emptyStats();
    map.set(el, s);
    children(el, s, false, false);
    countBlock(el, s);
    // A list item is prose when it is long: short items are menus, tags and headlines.
    if (s.inline >= (el.localName === 'li' ? MIN_LIST_ITEM : MIN_BLOCK) && !NOT_PARAGRAPH.has(el.localName)) {
      const points = 1 + s.inlineCommas + Math.min(Math.floor(s.inline / 100), 3);
      // Mass is prose: a block that is mostly link text (a teaser, a menu entry) weighs little.
      const prose = points * (1 - s.linkText / s.text);
      s.mass += prose;
      if (followsHeadline(el, map)) s.teaser += prose;
      let up = el.parentElement;
      for (let level = 0; level < ANCESTOR_LEVELS && up; level++, up = up.parentElement) {
        const us = map.get(up);
        if (!us) {
          if (INLINE_TAGS.has(up.localName)) continue;
          break;
        }
        us.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
      }
    }
    return s;
  };
  visitBlock(root);
  return map;
}

/** A headline's length at most: one line of link text. */
const HEADLINE_TEXT = 150;

/**
 * A block right after a headline that links to another page and is nothing else (`<dt><a>`,
 * `<h3><a>`, a lone link): the blurb of a teaser, however much prose it holds.
 */
export function followsHeadline(el: Element, map: StatsMap): boolean {
  const prev = el.previousElementSibling;
  const ps = prev && map.get(prev);
  return !!ps && ps.text > 0 && ps.text <= HEADLINE_TEXT && ps.linkText === ps.text && ps.links - ps.fragmentLinks === 1;
}

/** An element's paragraph mass without the blurbs of teasers: the prose that is the page's. */
export function proseMass(s: Stats): number {
  return s.mass - s.teaser;
}

export function linkDensity(s: Stats): number {
  return s.text === 0 ? 0 : s.linkText / s.text;
}

/** A candidate's score: its paragraph credit plus tag and class/id evidence, less its link share. */
export function candidateScore(el: Element, s: Stats): number {
  return (s.score + (TAG_SCORE[el.localName] ?? 0) + classWeight(el)) * (1 - linkDensity(s));
}
