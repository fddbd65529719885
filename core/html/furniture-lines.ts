/**
 * Lines of the content root that are not content, judged line by line (main-content.ts step 4): the
 * tail after the last prose, the head before the title, and short lines that are furniture by
 * their wording. A line is a block with no block inside it, or an inline element standing alone
 * between blocks (`</p><time>Publiziert: …</time><div>`, `</p><a>Back to the list</a></div>`).
 */
import { followsHeadline, type StatsMap } from './content-score.js';
import { CARD_TEXT } from './teaser-cards.js';
import { ancestorWithTag, findDescendant, fromHereOn, linkTextUnder, MEDIA_TAGS, visibleTextLength, walkElements, wrapFrom } from './dom.js';

/** Characters at most of a line before the title or after the last prose that is not content. */
const EDGE_LINE = 100;

/** What the line rules read of a line: its text, the part in links, and whether it holds blocks. */
interface LineStats {
  text: number;
  linkText: number;
  mixed: boolean;
}

const COMMA = /[,\uff0c\u3001\u060c]/;

/** Blank text, or an empty inline element (`<a name="comments"></a>`): nothing a reader sees. */
const isBlank = (node: Node): boolean => {
  if (node.nodeType === 3) return !/\S/.test(node.nodeValue ?? '');
  const el = node as Element;
  return node.nodeType === 1 && !el.firstChild && INLINE_EMPTY.has(el.localName);
};

/** Inline elements that show nothing when empty (an `<img>` or a `<br>` shows something). */
const INLINE_EMPTY = new Set(['a', 'span', 'b', 'strong', 'i', 'em', 'font', 'small']);

const BREAKS = new Set(['br', 'hr']);

/**
 * An inline element (no stats) whose neighbours in its block are blocks or blank text; with
 * `breaks`, line breaks (`<br>`, `<hr>`) count as such neighbours too.
 */
function isLoneInline(el: Element, stats: StatsMap, breaks = false): boolean {
  const alone = (node: Node | null, next: (n: Node) => Node | null): boolean => {
    while (node && (isBlank(node) || node.nodeType === 8)) node = next(node);
    return !node || (node.nodeType === 1 && (stats.has(node as Element) || (breaks && BREAKS.has((node as Element).localName))));
  };
  return alone(el.previousSibling, (n) => n.previousSibling) && alone(el.nextSibling, (n) => n.nextSibling);
}

/**
 * The line that a text node belongs to: its block (the nearest ancestor with stats, or `root`), or,
 * when that block also holds blocks, the inline element under it that stands alone between them.
 */
function textLine(text: Node, root: Element, stats: StatsMap): Element {
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
function lineStats(line: Element, stats: StatsMap): LineStats {
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
      if (child.nodeType === 1 && isPicture(child as Element, root)) pictured = true;
      if (child.nodeType === 1) visit(child);
      else if (child.nodeType === 3 && /\S/.test((child as Text).data)) {
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
      else if (child.nodeType === 1) visit(child);
      else if (child.nodeType === 3 && /\S/.test((child as Text).data)) {
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

/** Characters at most of a line judged by its wording. */
const WORDED_LINE = 150;

/** Whole lines that are furniture by their wording: credits, author boxes, prompts. */
const FURNITURE_LINE = [
  // Picture credits and sources: "Foto: dpa", "Titelbild: ...", "© AFP", "Photograph: Jane Doe/Reuters".
  /^(?:fotos?|bild(?:er)?|titelbild|beitragsbild|bildquelle|quelle|photos?|photograph|image|credits?|fuente|źródło|crédits?|copyright|©)\s*[:©|]/iu,
  // "Photo by Jane Doe on Unsplash", "Image courtesy of the museum", and an agency alone or with its
  // photographer: "Getty Images / Holger Leue", "AP Photo/Jane Doe", "Reuters".
  /^(?:photo(?:graph)?|image|picture|illustration)s? (?:by|courtesy(?: of)?|via|credit)\b[^.!?]{0,60}$/iu,
  /^(?:getty images|shutterstock|istock(?:photo)?|alamy|unsplash|pexels|adobe stock|ap photo|reuters|afp|dpa|epa)(?:\s*(?:[/|:,]|via)\s*[^.!?]{0,50})?$/iu,
  // The story's source: "Article from: Agence France-Presse", "Source: The Associated Press".
  /^(?:(?:article|story|report) (?:from|by|courtesy of)|sources?)\s*:\s*[^.!?:]{2,50}$/iu,
  // Prompts to open a picture: "Press enter or click to view image in full size", "Click to enlarge".
  /^(?:press enter or )?(?:click|tap)(?: (?:on )?(?:the |an )?(?:image|photo|picture))? to (?:view|enlarge|expand|zoom)\b[^.!?]{0,40}$/iu,
  // Author boxes: "Über den Autor", "About the author", "Von:".
  /^(?:über (?:den|die) autor(?:in)?|about the author|von|autor(?:in|en)?|by)\s*:?$/iu,
  // Share prompts: "Möchten Sie den Artikel teilen?", "Share this article".
  /^(?:share (?:this|the) (?:article|story|post)|.{0,40}\bteilen\?)$/iu,
  // Advertising labels: "Anzeige", "*Werbung. Dieser Beitrag …", "enthält Affiliate Links".
  /^\W*(?:anzeige|werbung|advertisement|sponsored|publicidad)\b/iu,
  // Site credits: "Powered by Nikola".
  /^powered by\b/iu,
  // Bylines and datelines: "Von: Götz Warnke", "By: admin", "Publiziert: 03.04.2020, 12:35" (more bylines: isByline).
  /^(?:von|autor(?:in)?|text|by)\s*:\s*[^.!?]{0,40}$/iu,
  /^(?:(?:last|zuletzt) )?(?:publiziert|veröffentlicht|published|posted|release date|aktualisiert|updated)\b[^!?]{0,40}$/iu,
  // A date and time alone on a line: "Wednesday, 16 January 2008", "January 08, 2008 12:00am", "Mon, Jan 14 2008, 19:53 GMT".
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\.?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4}\b[\s,.\-–|@]*(?:\d{1,2}[:.]\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s*(?:[a-z]{2,4})?)?\.?$/iu,
  // Article tools: "Story Tools: E-MAIL PRINT Text Size", "Email this article", "Print this story", "Send this article to a friend".
  /^(?:(?:story|article) tools|font size|text size)\s*:/iu,
  /^(?:e-?mail|print|send|share)(?: this)? (?:article|story|page)?\s*(?:to (?:a )?friends?\b|$)/iu,
  // A caption's credit at its end: "… Ski-Star aus der Schweiz. © AFP / MARCO BERTORELLO".
  /(?:^|\s)(?:©|\(c\)|(?:foto|fotos|photo|bild)\s*:)\s*[^.!?]{2,50}$/iu,
  // Tag and category lines: "Themen: Ehrenamt Jugendverbände", "Tags: python, docker", "Posted in News".
  /^(?:themen|tags?|schlagw(?:ö|oe)rter|stichw(?:ö|oe)rter|kategorien?|categor(?:y|ies)|etiquetas|catégories?)\s*:\s/iu,
  /^(?:filed under|abgelegt unter|this entry was posted in)\s/iu,
  // Newsroom notes after a story: "Write to Nick Wingfield at nick@wsj.com", "Some information for this
  // report was provided by AFP", "This article was originally published on page 28 of ...", "TrackBack
  // URL for this entry". Not "(Reporting by ...; Editing by ...)": L3S-GN1's readers kept it as the story's.
  /^(?:write to|(?:to )?contact the (?:reporters?|writers?|authors?|editors?)\b)[^!?]{0,120}@/iu,
  /^\(?(?:some )?(?:information|material) (?:for|in) this (?:report|story|article) (?:was )?(?:provided|contributed) by\b/iu,
  /^\(?this (?:news )?(?:article|story|report) (?:was )?(?:(?:originally|first) (?:published|appeared)|provided|distributed|supplied) (?:by|in|on)\b/iu,
  /^(?:the )?(?:trackback url|uri to trackback)\b/iu,
  // Comment and related-story headings, whole lines.
  /^(?:comments?|kommentare?|kommentieren(?: sie)?|das könnte (?:sie|dich) auch interessieren|mehr zum thema|zum weiterlesen|weitere themen|schon gelesen\?|you might also like|related (?:articles|posts|stories)|externer inhalt|inhaltsverzeichnis|fragen an den autor|originalartikel)\s*:?$/iu,
];

/** Characters at most of a dateline. */
const DATELINE = 120;
/** Datelines above an article at most (a source's and a writer's): more are a listing's dates. */
const DATELINES = 2;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?\b\.?`;
/** A date: "January 11, 2008", "28th December, 2007", "18 Jan", "Dec 29", "1/10/2008", "2008-01-14". */
const DATE = new RegExp(String.raw`\b(?:${DAY}\s+${MONTH}(?:,?\s+\d{4}\b)?|${MONTH}\s+(?:${DAY},?(?:\s+\d{4}\b)?|\d{4}\b)|\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\d{4}-\d{2}-\d{2}\b)`, 'giu');
const SPAN = String.raw`\b\d+\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?)\b`;
const AGO = new RegExp(String.raw`${SPAN}\s+ago\b`, 'iu');
const TIME = /\b\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?/giu;
/** What a dateline holds besides the date and a source or a writer: weekdays, a year, "2 hours ago", "Published:", time zones. */
const DATELINE_FILLER = new RegExp(
  String.raw`\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?|\b\d{4}\b|${SPAN}|\b(?:ago|by|at|on|published|posted|updated|last|uhr|am|um|von|[ecpm][sd]?t|gmt|utc|cet|bst)\b|[^\p{L}\s]+`,
  'giu',
);
/**
 * A dateline: a date with a year or a time, and at most a few capitalised words beside it, a source or
 * a writer ("Associated Press - January 11, 2008 4:13 PM ET", "By SUMETH PANPETCH, Associated Press
 * Writer 1 hour, 40 minutes ago", "Eurosport - Sat, 29 Dec 15:58:00 2007"). Not a heading ("March
 * 2020"), nor a line with words in lower case ("March 2020: the lockdown begins").
 */
function isDateline(line: Element, text: string): boolean {
  if (text.length > DATELINE || /^h[2-6]$/.test(line.localName)) return false;
  const ago = AGO.test(text);
  const dates = text.match(DATE);
  if (!ago && !(dates && (dates.some((d) => /\d{4}/.test(d)) || /\d{1,2}[:.]\d{2}/.test(text)))) return false;
  return namesOnly(text, 6);
}

/**
 * Whether what a line holds besides dates, times and a dateline's filler is at most `most` words,
 * all of them names (capitalised) or short ones between names ("and", "in", "AP").
 */
function namesOnly(text: string, most: number): boolean {
  const words = text.replace(DATE, ' ').replace(TIME, ' ').replace(DATELINE_FILLER, ' ').split(/\s+/).filter(Boolean);
  return words.length <= most && words.every((w) => /^\p{Lu}/u.test(w) || (w.length <= 3 && words.length > 1));
}

/** A byline's opening: "By", "Written by", "Posted by:", "Von". */
const BYLINE_OPENS = /^(?:(?:written|posted|reported|words|story|text) )?(?:by|von)\b\s*:?\s*(?=\S)/iu;
/** Words at most of a byline besides its dates: writers, their titles, their paper, a place. */
const BYLINE_WORDS = 12;

/**
 * A byline, anywhere: "By Chris Foster, Los Angeles Times Staff Writer", "Written by Camila Karalyte",
 * "By Jennifer Agiesta January 14, 2008; 4:38 PM ET Post Polls", "by Kimber Streams, Dave Gershgorn,
 * and Haley Perry". Names after the opening and nothing else: not "By 2013, the landscape had
 * changed" nor "By pressing Submit I agree".
 */
function isByline(text: string): boolean {
  const opens = text.match(BYLINE_OPENS);
  return !!opens && text.length <= DATELINE && namesOnly(text.slice(opens[0].length), BYLINE_WORDS);
}

/** Words of subscription, app and social prompts anywhere in a short line with little prose. */
const PROMPT_LINE =
  /\b(?:newsletter|abonnier|subscri|google play|folg(?:e|en sie) uns|follow us|follow \S+(?: \S+)? on (?:twitter|facebook|instagram)|(?:canal|channel|kanal) (?:de |on |auf )?(?:telegram|whatsapp|youtube)|nos siga|s[ií]guenos|suivez-nous|apps? (?:for|für) (?:ios|android))/iu;
/** Commas from which a short line with prompt words is prose that mentions them. */
const PROMPT_COMMAS = 3;

/**
 * An affiliate disclosure: "We may earn commission from links on this page", "Purchases made through
 * links earn us a small commission", "As an Amazon Associate I earn from qualifying purchases",
 * "enthält Affiliate Links".
 */
const DISCLOSURE =
  /\b(?:(?:we|i|editors?) (?:may |might |will |could )?(?:earn|receive|get|make)(?: us)? (?:a |an )?(?:small )?(?:affiliate )?(?:commissions?|compensation)|earns? us (?:a )?(?:small )?(?:affiliate )?commission|affiliate[- ]links?|earn(?:s)? from qualifying purchases|(?:is |are )?(?:a )?reader[- ]supported)\b/iu;
/** Characters at most of a disclosure line: a paragraph of two or three sentences. */
const DISCLOSURE_LINE = 400;
/** Different disclosures a page shows at most (one at the top, one at the end): more are an article about affiliate sales. */
const DISCLOSURES = 2;

/**
 * A copyright or syndication notice: "Copyright 2008 The Associated Press. All rights reserved. This
 * material may not be published, broadcast, rewritten or redistributed.", "© dpa. Alle Rechte
 * vorbehalten", "Distributed by Internet Broadcasting. This material may not be published ...". It
 * reserves the rights in so many words, or opens with the right (or the syndicator) and then reserves
 * it; a sentence about copyright in an article ("the photos may not be published without consent,
 * a first for copyright law") does neither.
 */
const ALL_RIGHTS = /\b(?:all rights reserved|alle rechte vorbehalten|todos los derechos reservados|tous droits réservés)\b/iu;
const NOTICE_OPENS = /^(?:copyright\b|©|\(c\)|distributed by\b)/iu;
/** Characters at most of a notice line: a few sentences of terms (a syndicator's run to 300-400), not a paragraph that ends with one. */
const NOTICE_LINE = 400;
const NOTICE_RESERVES = /\b(?:(?:may|must) not be (?:re)?(?:published|reproduced|distributed|redistributed|broadcast|copied)|without (?:the )?(?:prior |express )?(?:written )?(?:permission|consent))\b/iu;

/** Short lines in the root that are furniture by their wording (FURNITURE_LINE, PROMPT_LINE, DISCLOSURE, a notice). */
export function collectWorded(root: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  const disclosures = new Map<Element, string>();
  // Datelines are looked for above the first paragraph: below it, and in numbers (a listing of
  // events, a forum's posts), dates and names are the content.
  const datelines: Element[] = [];
  let prose = 0;
  const judge = (line: Element, length: number, commas: number): void => {
    if (length === 0 || length > DISCLOSURE_LINE || line.localName === 'h1') return;
    const text = (line.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (DISCLOSURE.test(text)) disclosures.set(line, text);
    else if (length <= NOTICE_LINE && (ALL_RIGHTS.test(text) || (NOTICE_OPENS.test(text) && NOTICE_RESERVES.test(text)))) found.add(line);
    else if (length <= WORDED_LINE && (FURNITURE_LINE.some((re) => re.test(text)) || (commas < PROMPT_COMMAS && PROMPT_LINE.test(text)) || isByline(text))) found.add(line);
    else if (prose === 0 && isDateline(line, text)) datelines.push(line);
    if (length > DATELINE) prose++;
  };
  // A block that also holds blocks: its inline elements standing alone between them are lines; so
  // are those between line breaks in a block too long to be one line (`…</p><hr><span
  // class="legal">Copyright …</span><br>` at the end of a story written with `<br>`s).
  const judgeInline = (block: Element): void => {
    if (stats.get(block)!.inline === 0) return;
    for (let c = block.firstElementChild; c; c = c.nextElementSibling) {
      if (!stats.has(c) && isLoneInline(c, stats, true)) judge(c, visibleTextLength(c), (c.textContent ?? '').split(COMMA).length - 1);
    }
  };
  judgeInline(root);
  walkElements(root, (el) => {
    const s = stats.get(el);
    if (!s || s.text === 0) return true;
    if (s.inline !== s.text) {
      judgeInline(el);
      return true;
    }
    if (s.text > DISCLOSURE_LINE) judgeInline(el);
    else judge(el, s.text, s.commas);
    return false;
  });
  // The same disclosure repeated under every product is furniture however often it comes.
  if (new Set(disclosures.values()).size <= DISCLOSURES) for (const d of disclosures.keys()) found.add(d);
  if (datelines.length <= DATELINES) for (const d of datelines) found.add(d);
  return found;
}

/** Whole headings that open a list of other stories, in English and German, and the usual ones in French, Spanish, Italian, Portuguese and Dutch. */
const OTHER_STORIES =
  /^(?:related(?: (?:articles?|posts?|stories|content|reads?|news|coverage|reading))?|more (?:stories|articles|news|posts|reads?|to read|like this|on this topic|from [^.!?]{1,40})|(?:you|readers) (?:may|might|will) (?:also )?(?:like|enjoy|be interested in)|read (?:next|also)|recommended(?: for you| reading| stories| articles)?|trending(?: now| stories| articles| news)?(?: in [^.!?]{1,30})?|popular (?:posts|stories|articles|now)|most (?:read|popular|viewed|shared)(?: stories| articles)?|latest (?:news|posts|stories|articles)|recent (?:posts|articles|stories)(?: [^.!?]{1,40})?|related to this (?:story|article|post)|(?:also|elsewhere) in the news|other (?:news|stories|headlines|articles)(?: [^.!?]{1,40})?|top (?:stories|headlines)|(?:more|latest) headlines|editor'?s'? (?:choice|picks)|das könnte (?:sie|dich) auch interessieren|mehr zum thema|zum weiterlesen|weitere (?:artikel|themen|beiträge)|verwandte (?:artikel|beiträge|themen(?:bereiche)?)|lesen sie auch|auch interessant|meistgelesen|viel gelesen(?: in [^.!?]{1,30})?|diese beiträge (?:solltest du|sollten sie) nicht verpassen|(?:à )?lire aussi|à lire également|sur le même sujet|dans la même rubrique|articles? (?:similaires|liés|connexes)|les plus lus|noticias relacionadas|artículos relacionados|(?:también )?te puede interesar|lee también|lo más leído|articoli correlati|potrebbe interessarti|leggi anche|i più letti|notícias relacionadas|leia também|veja também|mais lidas|gerelateerde artikelen|lees ook|meest gelezen)\s*[:.!]?$/iu;
/**
 * Whole lines that open the readers' comments ("Comments are now closed for this story", "Have your
 * say", "Post a comment", "Readers' comments"): comments are prose, so no share of links is asked of
 * them. Not a bare "12 comments": on a forum or a blog read for its discussion the replies are the
 * page.
 */
const COMMENTS_OPEN =
  /^(?:(?:reader|user)s?'? comments|talkback)$|^(?:comments (?:are|have been) (?:now )?closed|there are (?:currently )?no comments|have your say|(?:post|add|leave|write) (?:a |your )?(?:comment|reply)|(?:read|view|show) (?:all )?(?:\d+ )?comments)\b/iu;
/**
 * Of those, the ones that only readers' comments follow, however long: not "Add a comment" or
 * "Post reply", which a forum or a Q&A page shows under the question, above the answers.
 */
const COMMENTS_ONLY = /^(?:(?:reader|user)s?'? comments|talkback)$|^(?:comments (?:are|have been) (?:now )?closed|have your say)\b/iu;
/** Text of the content before such a heading, at least, for it to end an article. */
const STORY_BEFORE = 500;
/** Share of link text from which what follows such a heading is a list of other stories. */
const STORY_LINK_SHARE = 0.2;

function linkTextLength(el: Element): number {
  return el.localName === 'a' ? visibleTextLength(el) : linkTextUnder(el);
}

/**
 * A heading (or a line of its own) that opens a list of other stories ("Related posts", "Trending stories in world
 * travel", "Recent posts on blogs I like") ends the article: it and everything after it in the
 * root go, when the root's text before it is the larger part (the article came first).
 */
export function collectOtherStories(root: Element, stats: StatsMap): Set<Element> {
  const found = new Set<Element>();
  let total: number | undefined; // measured once a heading matches: most pages have none
  // Whether the line `el` ends the article; if so, what goes with it is in `found`.
  const ends = (el: Element, length: number, inline: boolean): boolean => {
    const wording = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const comments = COMMENTS_OPEN.test(wording);
    if (!comments && !OTHER_STORIES.test(wording)) return false;
    let rest = fromHereOn(el, root);
    let after = rest.reduce((sum, r) => sum + visibleTextLength(r), 0);
    // After an inline line, the text of its block goes on in text nodes too.
    for (let n = el.nextSibling; inline && n; n = n.nextSibling) if (n.nodeType === 3) after += visibleTextLength(n);
    total ??= visibleTextLength(root);
    // Other stories follow a larger article; readers' comments often outgrow it.
    if (total - after < (COMMENTS_ONLY.test(wording) ? STORY_BEFORE : Math.max(STORY_BEFORE, after))) return false;
    // Teasers are headlines that link: prose after such a heading is the article going on. With
    // nothing after it (its teasers went as furniture), the heading goes alone.
    const links = rest.reduce((sum, r) => sum + linkTextLength(r), 0);
    const teasers = after - length;
    if (!comments && teasers > 0 && links < STORY_LINK_SHARE * teasers) return false;
    // The inline line and the nodes after it go as one element.
    if (inline) rest = fromHereOn(wrapFrom(el), root);
    for (const r of rest) found.add(r);
    return true;
  };
  for (const el of stats.keys()) {
    const s = stats.get(el)!;
    if (s.text === 0 || !root.contains(el)) continue;
    // A heading, or a line of its own without links (`<p class="uppercase">Trending stories</p>`).
    const line = /^h[2-6]$/.test(el.localName) || (s.inline === s.text && s.links === 0);
    if (line && s.text <= OPENER_LINE && ends(el, s.text, false)) return found;
    // Or an inline line among the blocks or breaks of a story (`</p><hr><b>Comments are now closed</b><br>`).
    if (line || s.inline === 0) continue;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (stats.has(c) || !isLoneInline(c, stats, true)) continue;
      const length = visibleTextLength(c, undefined, OPENER_LINE + 1);
      if (length > 0 && length <= OPENER_LINE && linkTextLength(c) === 0 && ends(c, length, true)) return found;
    }
  }
  return found;
}

/** Characters at most of a line that opens other stories or comments. */
const OPENER_LINE = 60;
