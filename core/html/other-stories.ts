/**
 * A heading or a line of its own that opens other stories or readers' comments ends the article
 * (main-content.ts step 4): it and what follows it in the root go. Lines as in lines.ts.
 */
import { type StatsMap } from './content-score.js';
import { collapse, fromHereOn, isWithin, linkTextOf, TEXT_NODE, textOf, visibleTextLength, wrapFrom } from './dom.js';
import { isLoneInline } from './lines.js';

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
export const STORY_BEFORE = 500;
/** Share of link text from which what follows such a heading is a list of other stories. */
const STORY_LINK_SHARE = 0.2;

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
    const wording = collapse(textOf(el));
    const comments = COMMENTS_OPEN.test(wording);
    if (!comments && !OTHER_STORIES.test(wording)) return false;
    let rest = fromHereOn(el, root);
    let after = rest.reduce((sum, r) => sum + visibleTextLength(r), 0);
    // After an inline line, the text of its block goes on in text nodes too.
    for (let n = el.nextSibling; inline && n; n = n.nextSibling) if (n.nodeType === TEXT_NODE) after += visibleTextLength(n);
    total ??= visibleTextLength(root);
    // Other stories follow a larger article; readers' comments often outgrow it.
    if (total - after < (COMMENTS_ONLY.test(wording) ? STORY_BEFORE : Math.max(STORY_BEFORE, after))) return false;
    // Teasers are headlines that link: prose after such a heading is the article going on. With
    // nothing after it (its teasers went as furniture), the heading goes alone.
    const links = rest.reduce((sum, r) => sum + linkTextOf(r), 0);
    const teasers = after - length;
    if (!comments && teasers > 0 && links < STORY_LINK_SHARE * teasers) return false;
    // The inline line and the nodes after it go as one element.
    if (inline) rest = fromHereOn(wrapFrom(el), root);
    for (const r of rest) found.add(r);
    return true;
  };
  for (const el of stats.keys()) {
    const s = stats.get(el)!;
    if (s.text === 0 || !isWithin(el, root)) continue;
    // A heading, or a line of its own without links (`<p class="uppercase">Trending stories</p>`).
    const line = /^h[2-6]$/.test(el.localName) || (s.inline === s.text && s.links === 0);
    if (line && s.text <= OPENER_LINE && ends(el, s.text, false)) return found;
    // Or an inline line among the blocks or breaks of a story (`</p><hr><b>Comments are now closed</b><br>`).
    if (line || s.inline === 0) continue;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (stats.has(c) || !isLoneInline(c, stats, true)) continue;
      const length = visibleTextLength(c, undefined, OPENER_LINE + 1);
      if (length > 0 && length <= OPENER_LINE && linkTextOf(c) === 0 && ends(c, length, true)) return found;
    }
  }
  return found;
}

/** Characters at most of a line that opens other stories or comments. */
const OPENER_LINE = 60;
