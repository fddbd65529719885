/**
 * Reader comments in step 1 of onlyMainContent (chrome.ts): whether the blocks named as comments
 * are a thread's posts, which stay (a forum, a Q&A), and what follows an empty marker where old
 * templates start their comments.
 */
import { measure, type StatsMap } from './content-score.js';
import { findDescendant, isWithin, visibleTextLength, walkElements } from './dom.js';

/** Text outside the comment blocks under which a page is a thread (a forum, a Q&A), not an article. */
const THREAD_OUTSIDE_TEXT = 500;
/** Paragraph points (`Stats.mass`) outside the comment blocks under which a page is a thread: less prose than a short article. */
const THREAD_OUTSIDE_PROSE = 25;
/** Paragraph points of a comment block that reads as a post (a few sentences). */
const POST_PROSE = 3;

/**
 * A page whose text is all in blocks named as comments is a thread: there the comments are the
 * content (a forum's posts, `ipsComment_content`, `comment-123_wrap`). An article keeps its body
 * outside them. Forums also carry text of their own around the posts (the thread's facts, top
 * posters, the board's rules), so a page is a thread too when its prose outside the comment blocks
 * is under a short article's, the comment blocks are several posts, and the first post holds more
 * prose than all that: a forum opens with its first post under the title, an article with comments
 * opens with the article. (Measured against the prose before the first post alone, more pages of
 * product reviews and services read as threads: development products 0.6391 -> 0.6367.)
 */
export function isThread(root: Element, chrome: ReadonlySet<Element>, comments: readonly Element[]): boolean {
  let inside = 0;
  for (const el of comments) {
    inside += visibleTextLength(el, undefined, THREAD_OUTSIDE_TEXT);
    if (inside >= THREAD_OUTSIDE_TEXT) break;
  }
  if (inside < THREAD_OUTSIDE_TEXT) return false;
  if (visibleTextLength(root, chrome, THREAD_OUTSIDE_TEXT) < THREAD_OUTSIDE_TEXT) return true;
  const stats = measure(root);
  const mass = (el: Element) => stats.get(el)?.mass ?? 0;
  let outside = mass(root);
  for (const el of chrome) outside -= mass(el);
  if (outside >= THREAD_OUTSIDE_PROSE) return false;
  const posts = comments.filter((el) => mass(el) >= POST_PROSE);
  return posts.length >= 2 && mass(posts[0]!) > outside;
}

/** Paragraph points of the prose outside `skip` that precedes `first` in document order. */
function proseBefore(root: Element, first: Element, skip: ReadonlySet<Element>, stats: StatsMap): number {
  let sum = 0;
  let reached = false;
  walkElements(root, (el) => {
    if (reached || el === first) {
      reached = true;
      return false;
    }
    if (skip.has(el)) return false;
    if (!isWithin(first, el)) sum += ownMass(el, stats);
  });
  return sum;
}

/** The paragraph points of an element's own text: its mass less that of the blocks inside it. */
function ownMass(el: Element, stats: StatsMap): number {
  const s = stats.get(el);
  if (!s) return 0;
  let own = s.mass;
  const subtract = (parent: Element): void => {
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      const cs = stats.get(c);
      if (cs) own -= cs.mass;
      else subtract(c);
    }
  };
  subtract(el);
  return own;
}

/** An empty element's id or name that marks where reader comments start: `<a name="comments"></a>`, `<div id="disqus_thread">`. */
const COMMENTS_MARK = /^(?:(?:article|blog|reader|user|start|cur)?comments?|disqusthread)$/i;

/** Elements that mark a place (an anchor, an empty box a script fills), not a form's field named `comments`. */
const MARKER_TAGS = new Set(['a', 'div', 'span', 'section']);

/** An element with no text whose id or name says the comments start here (COMMENTS_MARK). */
export function isCommentsMarker(el: Element): boolean {
  if (!MARKER_TAGS.has(el.localName)) return false;
  const name = el.getAttribute('id') ?? el.getAttribute('name');
  return !!name && COMMENTS_MARK.test(name.replace(/[-_]/g, '')) && visibleTextLength(el, undefined, 1) === 0;
}

/**
 * What follows a comments marker in the page, when an article comes before it: the comments, their
 * form, and whatever the page puts after them. Nothing when something after it is `content` (an h1,
 * an article, a main, or what the caller kept: includeTags): then the marker is not where the
 * content ends.
 */
export function threadAfter(root: Element, marker: Element, chrome: ReadonlySet<Element>, content: (el: Element) => boolean): Element[] {
  const after: Element[] = [];
  for (let el: Element | null = marker; el && el !== root; el = el.parentElement) {
    for (let sib = el.nextElementSibling; sib; sib = sib.nextElementSibling) {
      if (chrome.has(sib)) continue;
      if (content(sib) || findDescendant(sib, content)) return [];
      after.push(sib);
    }
  }
  if (after.length === 0) return after;
  const stats = measure(root);
  return proseBefore(root, marker, chrome, stats) >= THREAD_OUTSIDE_PROSE ? after : [];
}
