/**
 * What counts as page chrome rather than content, for onlyMainContent. Three kinds of evidence:
 * the element's tag, its ARIA role, and words in its class/id. Tag and role are authored meaning
 * and removed outright; class/id words are guesses and are guarded against removing the content
 * itself (see `isGuarded`).
 */
import { findDescendant, hasMedia, visibleTextLength } from './dom.js';

/** Tags that are chrome wherever they appear. */
const CHROME_TAGS = new Set(['nav', 'aside', 'dialog', 'menu']);

/** Tags that are chrome at page level but belong to the content inside an article or main. */
const SECTION_EDGE_TAGS = new Set(['header', 'footer']);

const CHROME_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'dialog', 'alertdialog', 'search', 'menu', 'menubar',
  // Controls: a drop-down's options (sizes, sort orders, review filters), a toolbar, a tooltip.
  'listbox', 'combobox', 'toolbar', 'tooltip', 'slider', 'spinbutton',
]);

/** Class/id words of reader comments; `namesComments` also takes the words `comment` leads. */
const COMMENT_WORDS = ['comment', 'comments', 'commentlist', 'commentform', 'disqus', 'respond', 'replies', 'reviews'];

/** Class/id words of a block of other posts (`namesOtherPosts`), and the ones that lead compounds (`jp-relatedposts`). */
const OTHER_POSTS_WORDS = ['related', 'recommended', 'recommendations', 'popular', 'trending', 'mostread', 'outbrain', 'taboola'];
const OTHER_POSTS_PREFIXES = ['related', 'recommend', 'trending', 'outbrain', 'taboola'];

/**
 * Class/id names of boxes that are never a page's content, whatever prose they hold: third-party
 * widgets (Jetpack's share bar, Simple Author Box's `saboxplugin-wrap`, Starbox's `abh_box`) and an
 * author box named so (`author-box`, `authorbox`, `author-bio`, `about-author`), whose bio is
 * paragraphs. (Outbrain's and Taboola's recommendations are other posts, guarded as those are.)
 */
const WIDGET_WORDS = ['sharedaddy', 'saboxplugin', 'abh', 'authorbox'];
const AUTHOR_BOX_WORDS = new Set(['box', 'bio', 'info', 'description', 'about', 'profile', 'card']);

export function namesWidget(el: Element): boolean {
  const parts = classIdParts(el);
  return parts.some((p) => WIDGET_WORDS.includes(p)) || (parts.includes('author') && parts.some((p) => AUTHOR_BOX_WORDS.has(p)));
}

/**
 * Class/id words (compared per part: `site-nav` and `mainNav` both contain `nav`) that mark chrome.
 * Whole-part matching is what keeps `ad` from hitting `shadow`, `badge` or `download`.
 */
const CHROME_WORDS = new Set([
  'nav', 'navbar', 'navigation', 'menu', 'menubar', 'sidebar', 'breadcrumb', 'breadcrumbs', 'skiplink',
  'cookie', 'cookies', 'consent', 'gdpr', 'banner',
  'ad', 'ads', 'advert', 'adverts', 'advertisement', 'advertising', 'adsbygoogle', 'adslot', 'sponsor', 'sponsored', 'promo',
  'modal', 'popup', 'share', 'sharing', 'social', 'newsletter', 'subscribe', 'signup',
  // Reader comments, teaser lists and the small furniture around an article.
  ...COMMENT_WORDS,
  ...OTHER_POSTS_WORDS, 'ticker',
  'tags', 'tagcloud', 'pagination', 'pager', 'paywall', 'print', 'toolbar',
  'author', 'authors', 'bio', 'byline', 'meta', 'postmeta', 'entrymeta', 'postmetadata', 'dateline',
  'nocomments',
  // Legal fine print. Not `signature`: API references name a function's signature so.
  'disclaimer', 'disclaimers', 'banners',
  'readmore', 'rating', 'ratings', 'donate', 'donation', 'donations', 'subscription', 'slideshow', 'carousel', 'slider', 'legends',
  ...WIDGET_WORDS,
]);

/**
 * Chrome words that also lead compound class names written as one word (`jp-relatedposts`,
 * `commentsArea` is split already, `sponsoredcontent`, `newsletterbox`). Only words that no content
 * word starts with: `bio` would hit `biology`, `meta` `metadata`, `author` `authority`.
 */
const CHROME_PREFIXES = [...OTHER_POSTS_PREFIXES, 'comment', 'sponsor', 'advert', 'newsletter', 'sidebar', 'disqus', 'breadcrumb', 'paywall'];

function isChromeWord(part: string): boolean {
  return CHROME_WORDS.has(part) || CHROME_PREFIXES.some((w) => part.length > w.length && part.startsWith(w));
}

/** Class/id words that say "content" (entry-content, article-body, post-text, storyBody). */
const CONTENT_WORDS = new Set([
  'article', 'articlebody', 'articletext', 'body', 'content', 'entry', 'hentry', 'main', 'post', 'postbody', 'text', 'blog', 'story', 'storybody',
]);

/**
 * Class/id words that count against a content candidate without removing anything by themselves.
 * Not `hidden`: as a part of a class it names something else (Drupal's `field-label-hidden` on
 * every body field) or hides only at some widths (`hidden-xs`); a whole `hidden` class is `isHidden`.
 */
const WEAK_CHROME_WORDS = new Set(['footer', 'masthead', 'contact', 'shoutbox', 'skyscraper', 'combx', 'widget', 'widgets']);

/**
 * Words that mark a side column only when they lead a class or id (`side`, `side-col`, `rail-right`):
 * elsewhere they describe layout (`padding-side`, `guardrail`).
 */
const LEADING_CHROME_WORDS = new Set(['side', 'rail']);

export function namesOtherPosts(el: Element): boolean {
  return classIdParts(el).some((p) => OTHER_POSTS_WORDS.includes(p) || OTHER_POSTS_PREFIXES.some((w) => p.startsWith(w)));
}

export function namesComments(el: Element): boolean {
  return classIdParts(el).some((p) => COMMENT_WORDS.includes(p) || p.startsWith('comment'));
}

/** Cookie and consent notices: chrome whatever else is doubted (main-content.ts `isEmptiedByGuesses`). */
const CONSENT_WORDS = new Set(['cookie', 'cookies', 'consent', 'gdpr']);

export function namesConsent(el: Element): boolean {
  return classIdParts(el).some((p) => CONSENT_WORDS.has(p));
}

/**
 * A notice that asks for consent to cookies, by its wording: the site says it uses cookies, or that
 * using it is agreeing to them ("By continuing to browse this site you agree…"), in the languages
 * of the pages we measure. Reporting on cookies ("cookies and session data track users") does not
 * say either.
 */
const CONSENT_WORDING = [
  /\b(?:we|this (?:web)?site|our (?:web)?site|this page)(?: also| may)? (?:use|uses|are using|is using) cookies\b/,
  /\bby (?:using|continuing|browsing|visiting|clicking|staying)\b[^.]{0,120}\b(?:agree|accept|consent)/,
  /\b(?:accept|allow|agree to)(?: all)? cookies\b/,
  /\b(?:wir|diese (?:web)?seite|unsere (?:web)?seite|diese website|unsere website) (?:verwenden|verwendet|nutzen|nutzt|setzen|setzt|benutzen|benutzt) cookies\b/,
  /\b(?:verwenden|nutzen|setzen|benutzen) wir cookies\b/,
  /\bverwendung von cookies zu\b|\bcookies (?:zulassen|akzeptieren)\b/,
  /\b(?:nous utilisons|ce site (?:web )?utilise)(?: des)? cookies\b|\bacceptez l.utilisation (?:des|de) cookies\b/,
  /\b(?:utilizamos|usamos|este sitio(?: web)? utiliza|utilizziamo|questo sito utilizza|wij gebruiken|we gebruiken|deze (?:web)?site gebruikt)(?: (?:i|las|los|de))? cookies?\b/,
];

export function readsAsConsent(text: string): boolean {
  const t = text.toLowerCase().replace(/\s+/g, ' ');
  return t.includes('cookie') && CONSENT_WORDING.some((re) => re.test(t));
}

/** Class/id words that name the content container itself, whatever else the class says. */
const CONTAINER_WORDS = new Set(['article', 'articlebody', 'body', 'content', 'main']);

export function namesContent(el: Element): boolean {
  return classIdParts(el).some((p) => CONTAINER_WORDS.has(p));
}

/**
 * Readability-style class/id weight for content candidates: -25 when the words say chrome, +25 when
 * they say content, for the class and the id each.
 */
export function classWeight(el: Element): number {
  return names(el).weight;
}

/** classWeight's share of one attribute's value. */
function attributeWeight(value: string): number {
  if (!value) return 0;
  const parts = splitWords(value);
  if (parts.some((p) => isChromeWord(p) || WEAK_CHROME_WORDS.has(p))) return -25;
  return parts.some((p) => CONTENT_WORDS.has(p)) ? 25 : 0;
}

/**
 * Class/id words that are chrome at page level but name the content's own parts inside an article
 * (`article-header` holds the headline and byline), so they follow the header/footer tag rule.
 */
const SECTION_EDGE_WORDS = new Set(['header', 'footer', 'masthead', 'topbar']);

/** Tags and words of the edge sets that mark the top of a page or section, where titles sit. */
const HEADER_LIKE = new Set(['header', 'masthead', 'topbar']);

/**
 * Header-like chrome guesses also keep an `<h2>`: a page whose title is an h2 in a
 * `div.post-header` outside any article would otherwise lose it. Footers get no such guard, since
 * their column headings are usually h2-h4.
 */
export function isHeaderLike(el: Element): boolean {
  return el.localName === 'header' || classIdParts(el).some((p) => HEADER_LIKE.has(p));
}

/**
 * Whole class tokens that hide an element visually or keep it for screen readers only (utility
 * classes `is-hidden`, `u-hidden`; Invision forums' `ipsHide`). Not `hide` nor `invisible`: pages
 * reveal accordions and scroll-in animations by taking them off (service pages lost text to them).
 */
const HIDDEN_CLASSES = new Set([
  'hidden', 'd-none', 'sr-only', 'visually-hidden', 'visuallyhidden', 'screen-reader-text', 'is-hidden', 'u-hidden', 'ipshide',
  // Amazon's: error messages and popovers a script shows when needed ("Sorry, there was a problem.").
  'a-hidden', 'aok-hidden',
  // A carousel's copies of its own slides, made so that it loops (Slick, Swiper, Owl, Splide, Glide): the slide is there once already.
  'slick-cloned', 'swiper-slide-duplicate', 'cloned', 'splide__slide--clone', 'glide__slide--clone', 'is-cloned',
]);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/** Forms that are signups, searches or logins rather than content. */
const UTILITY_FORM_ACTION = /search|login|log-in/i;

/**
 * Class tokens that are hooks for scripts (`js-readmore`, `js_sticky`): they name what a script does
 * to the element (fold its text away, pin it), not what it is, so their words are no evidence.
 */
const SCRIPT_HOOK = /(^|\s)js[-_]\S*/gi;

/** What an element's class and id say, worked out once per pair of strings (`names`). */
interface Names {
  /** `site-nav mainNav ad_slot js-readmore` -> site, nav, main, nav, ad, slot. */
  parts: readonly string[];
  /** Whether they say chrome: a part is a chrome word, or a class or id token opens with a LEADING_CHROME_WORDS word. */
  chrome: boolean;
  /** Whether a class token hides the element (HIDDEN_CLASSES). */
  hidden: boolean;
  /** Whether a class token names a signature (isSignature). */
  signature: boolean;
  /** classWeight. */
  weight: number;
}

const NO_NAMES: Names = { parts: [], chrome: false, hidden: false, signature: false, weight: 0 };

/**
 * Names by class, then id: pages repeat their class strings on element after element, and an
 * attribute's string is the same string each time it is read, so looking it up makes no new string
 * to hash (a key joined from both did, and each test split it again).
 */
const NAMES = new Map<string, Map<string, Names>>();
let namesKept = 0;
const NAMES_KEPT = 20_000;

function names(el: Element): Names {
  const cls = el.getAttribute('class') ?? '';
  const id = el.getAttribute('id') ?? '';
  if (!cls && !id) return NO_NAMES;
  let found = NAMES.get(cls)?.get(id);
  if (found) return found;
  if (namesKept >= NAMES_KEPT) {
    NAMES.clear();
    namesKept = 0;
  }
  let byId = NAMES.get(cls);
  if (!byId) NAMES.set(cls, (byId = new Map()));
  const both = `${cls} ${id}`;
  const parts = splitWords(both);
  const tokens = cls.toLowerCase().split(/\s+/);
  found = {
    parts,
    chrome: parts.some(isChromeWord) || both.split(/\s+/).some((token) => LEADING_CHROME_WORDS.has(splitWords(token)[0])),
    hidden: tokens.some((t) => HIDDEN_CLASSES.has(t)),
    signature: tokens.some((t) => t.includes('signature')),
    weight: attributeWeight(cls) + attributeWeight(id),
  };
  byId.set(id, found);
  namesKept++;
  return found;
}

/** The words of an element's class and id (`Names.parts`). */
export function classIdParts(el: Element): readonly string[] {
  return names(el).parts;
}

/**
 * Words that make a following `sidebar` a property of the element rather than its role:
 * `has-sidebar`, `withSidebar`, `no-sidebar`, `c-layout-sidebar-left` (a layout with a sidebar,
 * holding the content too). The two are read as one word (`hassidebar`), which is not chrome.
 */
const PROPERTY_WORDS = new Set(['has', 'with', 'without', 'no', 'layout']);

function splitWords(raw: string): string[] {
  const parts = raw
    .replace(SCRIPT_HOOK, '$1')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) out.push(PROPERTY_WORDS.has(parts[i]) && parts[i + 1] === 'sidebar' ? parts[i] + parts[++i] : parts[i]);
  return out;
}

/** Inside an article or main, where headers and footers belong to the content. */
function insideContentSection(el: Element): boolean {
  for (let up = el.parentElement; up; up = up.parentElement) {
    if (up.localName === 'article' || up.localName === 'main' || up.getAttribute('role') === 'main') return true;
  }
  return false;
}

/** Class/id words of the parts of accordions and collapsible sections a reader opens. */
const FOLDED_WORDS = new Set(['accordion', 'collapse', 'collapsible']);

/**
 * A closed accordion section or a tab panel not shown yet: its text is the page's, one click away
 * (a product's details, a service's steps, an FAQ's answers), not hidden for good, whether the
 * markup hides it with `hidden`, a style, a class or `aria-hidden` (closed accordions say that too).
 */
function isFoldedPanel(el: Element, role: string | undefined): boolean {
  return role === 'tabpanel' || classIdParts(el).some((p) => FOLDED_WORDS.has(p));
}

export function isHidden(el: Element): boolean {
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  const style = el.getAttribute('style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  return names(el).hidden;
}

const inputType = (type: string) => (c: Element) => c.localName === 'input' && c.getAttribute('type')?.toLowerCase() === type;

function isUtilityForm(el: Element): boolean {
  if (el.getAttribute('role') === 'search' || UTILITY_FORM_ACTION.test(el.getAttribute('action') ?? '')) return true;
  if (findDescendant(el, inputType('search'))) return true;
  return isSignupForm(el);
}

const SIGNUP_ACTION = /subscribe|newsletter|signup|sign-up/i;

/** A newsletter or alert signup: its action says so, or a lone email field (contact forms have a message box). */
export function isSignupForm(el: Element): boolean {
  if (el.localName !== 'form') return false;
  if (SIGNUP_ACTION.test(el.getAttribute('action') ?? '')) return true;
  return findDescendant(el, inputType('email')) !== undefined && findDescendant(el, (c) => c.localName === 'textarea') === undefined;
}

/**
 * Captions and credits of pictures (`figcaption`, `.wp-caption-text`, `.credit`) repeat what the
 * image shows, and slideshows repeat them again: chrome, the image itself kept. A caption beside
 * code or a table ("Listing 3: ...") is documentation and stays. A `<figure>` whose only text is
 * its caption holds a picture even when no image is left in it: a lazy image is a `div` with a
 * `data-src` until a script runs, its `<img>` in a `<noscript>` the pipeline removed.
 */
const CAPTION_WORDS = new Set(['caption', 'credit', 'credits']);

function isPictureCaption(el: Element, parts: readonly string[]): boolean {
  if (el.localName !== 'figcaption' && !parts.some((p) => CAPTION_WORDS.has(p))) return false;
  const holder = el.parentElement;
  if (holder === null) return false;
  if (hasMedia(holder)) return true;
  return el.localName === 'figcaption' && holder.localName === 'figure' && visibleTextLength(holder, new Set([el]), 1) === 0;
}

/**
 * A forum post's or a message's signature (`post-signature`, `signaturecontainer`), named in its
 * class. Not in an id (headings' anchors spell out API names: `crypto_verify_signature`), nor with
 * code or in a table: API references name a function's signature so (`func_signature`).
 */
function isSignature(el: Element): boolean {
  if (!names(el).signature) return false;
  for (let up = el.parentElement; up; up = up.parentElement) if (up.localName === 'table') return false;
  return findDescendant(el, (d) => d.localName === 'code' || d.localName === 'pre') === undefined;
}

/** Words at most of a button that is a control ("Add to cart", "Reply", "Show more"), not a question or a panel's title. */
const CONTROL_WORDS = 4;

/** Attributes of a button that opens a panel or a tab: its label is the panel's title ("Shipping & Returns", "01. Getting Started"). */
const TOGGLE_ATTRIBUTES = ['aria-expanded', 'aria-controls', 'data-toggle', 'data-bs-toggle', 'aria-selected'];

/** Whether `el` sits in running text: its parent holds text of its own beside it ("Highly rated for: <button>texture</button>, …"). */
function inText(el: Element): boolean {
  for (let n = el.parentNode?.firstChild; n; n = n.nextSibling) if (n.nodeType === 3 && /[\p{L}\p{N}]/u.test(n.nodeValue ?? '')) return true;
  return false;
}

function isControlLabel(button: Element): boolean {
  if (button.getAttribute('role') === 'tab' || TOGGLE_ATTRIBUTES.some((a) => button.hasAttribute(a)) || inText(button)) return false;
  const text = shownText(button).trim();
  return !text.includes('?') && text.split(/\s+/).length <= CONTROL_WORDS;
}

/** The text of `el` a sighted reader sees: without hidden parts (a screen reader's "Add Paragon 68 Pack to" before "Compare"). */
function shownText(el: Element): string {
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) out += n.nodeValue ?? '';
    else if (n.nodeType === 1 && !isHidden(n as Element)) out += shownText(n as Element);
  }
  return out;
}

export type ChromeEvidence = 'tag' | 'role' | 'hidden' | 'form' | 'words' | 'edge';

/** The wording of a link that skips to a part of the page: "Skip to main content", "Jump to navigation", "Jump to Recipe". */
const SKIP_LINK = /^(?:skip|jump) to\b[^.!?]{0,40}$/iu;

/** A keyboard user's or a recipe's shortcut: a link within the page worded as a jump. */
function isSkipLink(el: Element): boolean {
  return (el.getAttribute('href') ?? '').startsWith('#') && SKIP_LINK.test((el.textContent ?? '').trim());
}

/**
 * Why `el` looks like chrome, or undefined. `tag`, `role`, `hidden` and `form` are authored facts;
 * `words` and `edge` come from class/id names and need the caller's guard.
 */
export function chromeEvidence(el: Element): ChromeEvidence | undefined {
  const tag = el.localName;
  if (CHROME_TAGS.has(tag)) return 'tag';
  if (SECTION_EDGE_TAGS.has(tag)) return insideContentSection(el) ? undefined : 'edge';
  if (tag === 'form' && isUtilityForm(el)) return 'form';
  if (tag === 'figcaption') return isPictureCaption(el, []) ? 'tag' : undefined;
  // A native drop-down is the combobox or listbox of CHROME_ROLES: its options are choices, not text.
  if (tag === 'select') return 'role';
  // A control ("Add to cart", "Reply", "Copy"): its label is not content. Not a button that opens a
  // panel, asks a question or sits in a sentence.
  if (tag === 'button' && isControlLabel(el)) return 'tag';
  // Most elements have no attributes at all; the rest of the evidence is in attributes.
  if (!el.hasAttributes()) return undefined;
  if (tag === 'a' && isSkipLink(el)) return 'tag';
  const role = el.getAttribute('role')?.trim().toLowerCase();
  if (role && CHROME_ROLES.has(role)) return 'role';
  if (isHidden(el) && !isFoldedPanel(el, role)) return 'hidden';
  // Marked to stay out of search snippets: bylines, bios, disclaimers, boxes of other posts.
  if (el.hasAttribute('data-nosnippet')) return 'words';
  const { parts, chrome } = names(el);
  if (chrome || isPictureCaption(el, parts) || isSignature(el)) return 'words';
  if (parts.some((p) => SECTION_EDGE_WORDS.has(p)) && !insideContentSection(el)) return 'edge';
  return undefined;
}
