/**
 * What an element's class and id say, for onlyMainContent: the words of chrome, of content, of
 * comments and other posts, of hidden and header-like blocks, and a candidate's class weight.
 * Worked out once per class and id string (`names`); boilerplate.ts weighs them with the other
 * evidence.
 */

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
  'modal', 'popup', 'popover', 'share', 'sharing', 'social', 'newsletter', 'subscribe', 'signup',
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

/**
 * Whether `word`, or a word it starts, is the only chrome word of the class and id: `meta` (a
 * post's date-and-author line, or a listing's entry: `div.meta`), `paywall` (`paywalled`: the story
 * behind it).
 */
export function namesOnly(el: Element, word: string): boolean {
  let found = false;
  for (const part of classIdParts(el)) {
    if (!isChromeWord(part)) continue;
    if (!part.startsWith(word)) return false;
    found = true;
  }
  return found;
}

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
 * A table of contents named so: `toc` (DocBook's `div.toc`), Sphinx's `toctree-wrapper`,
 * `table-of-contents`.
 */
export function namesTableOfContents(el: Element): boolean {
  const parts = classIdParts(el);
  return parts.includes('toc') || parts.includes('toctree') || (parts.includes('table') && parts.includes('contents'));
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

/**
 * Class tokens that are hooks for scripts (`js-readmore`, `js_sticky`): they name what a script does
 * to the element (fold its text away, pin it), not what it is, so their words are no evidence.
 */
const SCRIPT_HOOK = /(^|\s)js[-_]\S*/gi;

/**
 * Class tokens that say what the element hides or goes without (`hide-read-more-ad`,
 * `without-sidebar`, `disable-share`): a property of the element, not its role, so their words are
 * no evidence either. Not `no-`: `no-comments` names the notice that commenting is closed.
 */
const NEGATED_TOKEN = /(^|\s)(?:hide|without|disable)[-_]\S*/gi;

/**
 * Tailwind's variant classes (`print:article-dropcap-print`, `md:hidden`, `dark:border-white`):
 * styles under a condition (printing, a width, dark mode), not what the element is, so their
 * words are no evidence (`print` is a print button's word). Not React's generated ids
 * (`carousel-0-:R9ld5l6fnifumkq:`), whose colon follows a hyphen.
 */
const VARIANT_TOKEN = /(^|\s)(?:[a-z][a-z0-9-]*[a-z0-9]|\[[^\]\s]*\]):\S*/g;

/**
 * The hash CSS modules append to a class (`ProductList_seoContainer__HiiRZ`, `AccordionTextItem_item__adF2E`):
 * five characters of base64 after `__`, with a capital or a digit (a BEM element, `card__title`, is
 * lower case). It is no word: read as words, `adF2E` says `ad`.
 */
const MODULE_HASH = /__[\w-]{5}(?=\s|$)/g;
const stripHash = (hash: string): string => (/[A-Z0-9]/.test(hash) ? '' : hash);

/** What an element's class and id say, worked out once per pair of strings (`names`). */
export interface Names {
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

export function names(el: Element): Names {
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

/**
 * Words after `sidebar` that make it a layout of content and side column (`sidebar-grid__content`
 * holds Politico's story). Read as one word the other way round (`gridsidebar`), which no chrome
 * word starts.
 */
const LAYOUT_WORDS = new Set(['grid', 'layout']);

/**
 * Page builders whose every block is a "widget" (`elementor-widget elementor-widget-text-editor`
 * around a paragraph, `elementor-widget-container`): there the word names a block of the page, not a
 * sidebar's widget. Read as one word (`elementorwidget`), which is not chrome; the rest of the class
 * still is (`elementor-widget-nav-menu`, `elementor-widget-social-icons`, `elementor-location-footer`).
 */
const BUILDERS = new Set(['elementor']);

function splitWords(raw: string): string[] {
  const parts = raw
    .replace(SCRIPT_HOOK, '$1')
    .replace(NEGATED_TOKEN, '$1')
    .replace(VARIANT_TOKEN, '$1')
    .replace(MODULE_HASH, stripHash)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const joined = (PROPERTY_WORDS.has(parts[i]) && parts[i + 1] === 'sidebar') || (BUILDERS.has(parts[i]) && parts[i + 1] === 'widget');
    if (parts[i] === 'sidebar' && LAYOUT_WORDS.has(parts[i + 1])) out.push(parts[i + 1] + parts[i++]);
    else out.push(joined ? parts[i] + parts[++i] : parts[i]);
  }
  return out;
}
