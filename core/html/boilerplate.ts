/**
 * What counts as page chrome rather than content, for onlyMainContent. Three kinds of evidence:
 * the element's tag, its ARIA role, and words in its class/id. Tag and role are authored meaning
 * and removed outright; class/id words are guesses and are guarded against removing the content
 * itself (see `isGuarded`). What class/id words say is class-names.ts.
 */
import { classIdParts, names, namesOnly } from './class-names.js';
import { ELEMENT_NODE, findDescendant, hasMedia, linkTextUnder, TEXT_NODE, visibleTextLength } from './dom.js';

/** Tags that are chrome wherever they appear. */
const CHROME_TAGS = new Set(['nav', 'aside', 'dialog', 'menu']);

/** Tags that are chrome at page level but belong to the content inside an article or main. */
const SECTION_EDGE_TAGS = new Set(['header', 'footer']);

const CHROME_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'dialog', 'alertdialog', 'search', 'menu', 'menubar',
  // Controls: a drop-down's options (sizes, sort orders, review filters), a toolbar, a tooltip.
  'listbox', 'combobox', 'toolbar', 'tooltip', 'slider', 'spinbutton',
]);

/**
 * Class/id words that are chrome at page level but name the content's own parts inside an article
 * (`article-header` holds the headline and byline), so they follow the header/footer tag rule.
 */
const SECTION_EDGE_WORDS = new Set(['header', 'footer', 'masthead', 'topbar']);

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
  // A preference centre's explanations (OneTrust's "we store cookies on your browser", "it may store or retrieve information on your browser, mostly in the form of cookies").
  /\b(?:we|it|this (?:web)?site|our (?:web)?site)(?: may)? store (?:or retrieve )?(?:cookies|information)\b[^.]{0,80}\b(?:browser|device|cookies)\b/,
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

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/** Forms that are signups, searches or logins rather than content. */
const UTILITY_FORM_ACTION = /search|login|log-in/i;

/** Inside an article or main, where headers and footers belong to the content. */
function insideContentSection(el: Element): boolean {
  for (let up = el.parentElement; up; up = up.parentElement) {
    if (up.localName === 'article' || up.localName === 'main' || up.getAttribute('role') === 'main') return true;
  }
  return false;
}

/** Class/id words of the parts of accordions and collapsible sections a reader opens. */
const FOLDED_WORDS = new Set(['accordion', 'collapse', 'collapsible']);

/** Attributes of a button that opens a panel or a tab: its label is the panel's title ("Shipping & Returns", "01. Getting Started"). */
const TOGGLE_ATTRIBUTES = ['aria-expanded', 'aria-controls', 'data-toggle', 'data-bs-toggle', 'aria-selected'];

/** Characters at most of a folded panel's title: a question or a heading, not a menu bar. */
const PANEL_TITLE_CHARS = 150;

/**
 * A closed accordion section or a tab panel not shown yet: its text is the page's, one click away
 * (a product's details, a service's steps, an FAQ's answers), not hidden for good, whether the
 * markup hides it with `hidden`, a style, a class or `aria-hidden` (closed accordions say that too).
 * Named so, or told by what opens it: right before it, a short title that is a question or holds
 * a toggle ("What does pet insurance cover?", a "Cushioning" button with `aria-expanded`), and
 * itself text rather than a menu of links.
 */
function isFoldedPanel(el: Element, role: string | undefined): boolean {
  return role === 'tabpanel' || classIdParts(el).some((p) => FOLDED_WORDS.has(p)) || opensFromTitle(el);
}

const hasToggle = (el: Element) => TOGGLE_ATTRIBUTES.some((a) => el.hasAttribute(a));

function opensFromTitle(el: Element): boolean {
  const title = el.previousElementSibling;
  if (title === null) return false;
  const text = (title.textContent ?? '').trim();
  if (text === '' || text.length > PANEL_TITLE_CHARS) return false;
  if (!text.endsWith('?') && !hasToggle(title) && findDescendant(title, hasToggle) === undefined) return false;
  const shown = visibleTextLength(el);
  return shown > 0 && linkTextUnder(el) <= shown / 2;
}

/**
 * Hidden for good: `hidden`, `aria-hidden`, a style or a class that hides it, and the `popover`
 * attribute (HTML shows such an element only when a script or a button opens it: a hover card, an
 * "install this app" box).
 */
export function isHidden(el: Element): boolean {
  if (el.hasAttribute('hidden') || el.hasAttribute('popover') || el.getAttribute('aria-hidden') === 'true') return true;
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
  if (el.localName !== 'figcaption') return false;
  // A figcaption may sit after the picture's own block rather than with it: AMP's figure and then
  // its caption, BBC's caption block after the image's block. Not a diagram's caption that names
  // code (a manual's "Initially, each `MyButton`'s `count` is 0").
  const before = el.previousElementSibling ?? holder.previousElementSibling;
  if (before && (before.localName === 'figure' || hasMedia(before))) return findDescendant(el, (d) => d.localName === 'code') === undefined;
  return holder.localName === 'figure' && visibleTextLength(holder, new Set([el]), 1) === 0;
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

/** Whether `el` sits in running text: its parent holds text of its own beside it ("Highly rated for: <button>texture</button>, …"). */
function inText(el: Element): boolean {
  for (let n = el.parentNode?.firstChild; n; n = n.nextSibling) if (n.nodeType === TEXT_NODE && /[\p{L}\p{N}]/u.test(n.nodeValue ?? '')) return true;
  return false;
}

/** Elements a sentence is written with: links, emphasis, a dateline's span, a date. */
const PHRASING = new Set(['a', 'span', 'em', 'strong', 'b', 'i', 'u', 'time', 'abbr', 'cite', 'mark', 'small', 'font', 'q', 'dfn']);
/** Characters at most of a part of a sentence: a link's words, a dateline ("KOBE – "); not a footnote's note. */
const SENTENCE_PART = 100;

/**
 * Whether a phrasing element is part of the sentence around it: its class words name a link's style
 * or a dateline ("recommendation-inline-link", `a.popup`, `span.dateline`), not a block of the page,
 * and taking it out would leave a hole in the sentence ("I am a man. The nature of my ___ …").
 */
function isPartOfSentence(el: Element): boolean {
  return PHRASING.has(el.localName) && inText(el) && visibleTextLength(el, undefined, SENTENCE_PART + 1) <= SENTENCE_PART;
}

function isControlLabel(button: Element): boolean {
  if (button.getAttribute('role') === 'tab' || hasToggle(button) || inText(button)) return false;
  const text = shownText(button).trim();
  return !text.includes('?') && text.split(/\s+/).length <= CONTROL_WORDS;
}

/** The text of `el` a sighted reader sees: without hidden parts (a screen reader's "Add Paragon 68 Pack to" before "Compare"). */
function shownText(el: Element): string {
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === TEXT_NODE) out += n.nodeValue ?? '';
    else if (n.nodeType === ELEMENT_NODE && !isHidden(n as Element)) out += shownText(n as Element);
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
  // The story behind a paywall is in the page, hidden until a script lets the reader in: its name says so, and the guards weigh it (chrome.ts isBehindPaywall).
  if (isHidden(el) && !isFoldedPanel(el, role) && !namesOnly(el, 'paywall')) return 'hidden';
  // Marked to stay out of search snippets: bylines, bios, disclaimers, boxes of other posts.
  if (el.hasAttribute('data-nosnippet')) return 'words';
  const { parts, chrome } = names(el);
  if (chrome && isPartOfSentence(el)) return undefined;
  if (chrome || isPictureCaption(el, parts) || isSignature(el)) return 'words';
  if (parts.some((p) => SECTION_EDGE_WORDS.has(p)) && !insideContentSection(el)) return 'edge';
  return undefined;
}
