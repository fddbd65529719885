/**
 * Scraped markdown to HTML that is safe to insert: the only input to dangerouslySetInnerHTML.
 * Scraped pages are hostile, so this shows raw HTML in the markdown as escaped text, lets
 * DOMPurify allow just the tags and attributes markdown itself produces (no style: the CSP forbids
 * it; no id/class: they could clash with the dashboard's own), keeps only http(s)/mailto links, and
 * turns images into links so nothing is fetched from the scraped site just by looking.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/*
 * Raw HTML inside the markdown is shown as the text it is, escaped, never parsed: parsing hostile
 * HTML at all, even in an inert document, makes the browser check its inline handlers and styles
 * against the CSP and file a violation report for each. So DOMPurify below only ever sees marked's
 * own tags, and a reader still sees exactly what the page's markdown says.
 */
const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

// What marked emits for markdown; nothing else can reach DOMPurify, and nothing else passes it.
const ALLOWED_TAGS = [
  'a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'img', 'li',
  'ol', 'p', 'pre', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
];
const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'align', 'start'];

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const WEB_SCHEMES = new Set(['http:', 'https:']);
const REL = 'noopener noreferrer nofollow';

function resolve(value: string, base: string | undefined, schemes: Set<string>): string | undefined {
  try {
    const url = new URL(value.trim(), base);
    return schemes.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An absolute http(s) URL as a usable href, or undefined for anything else (javascript:, data:, relative, junk). */
export function safeHref(url: unknown): string | undefined {
  return typeof url === 'string' ? resolve(url, undefined, WEB_SCHEMES) : undefined;
}

export interface MarkdownOptions {
  /** The page's own URL: relative links in its markdown resolve against it (if it is http(s)). */
  base?: string;
  /** Added to every heading level, so the page keeps a single h1 and a sensible outline. */
  headingOffset?: number;
}

export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): string {
  const html = marked.parse(markdown, { async: false });
  const clean = DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
  // Post-process in an inert document: no browsing context, so nothing loads while we work.
  const doc = document.implementation.createHTMLDocument('');
  doc.body.innerHTML = clean;
  const base = safeHref(options.base);
  fixLinks(doc, base);
  replaceImages(doc, base);
  shiftHeadings(doc, options.headingOffset ?? 0);
  return doc.body.innerHTML;
}

function fixLinks(doc: Document, base: string | undefined): void {
  for (const anchor of Array.from(doc.querySelectorAll('a'))) {
    // An empty href would resolve to the base itself; DOMPurify leaves none where it removed a bad one.
    const raw = anchor.getAttribute('href')?.trim();
    const href = raw ? resolve(raw, base, LINK_SCHEMES) : undefined;
    if (href) {
      anchor.setAttribute('href', href);
      anchor.setAttribute('target', '_blank');
      anchor.setAttribute('rel', REL);
    } else {
      // A link that may not be followed is just its text.
      anchor.replaceWith(...Array.from(anchor.childNodes));
    }
  }
}

function replaceImages(doc: Document, base: string | undefined): void {
  for (const image of Array.from(doc.querySelectorAll('img'))) {
    const alt = image.getAttribute('alt')?.trim();
    const label = alt ? `Image: ${alt}` : 'Image';
    const raw = image.getAttribute('src')?.trim();
    const src = raw ? resolve(raw, base, WEB_SCHEMES) : undefined;
    // Images inside a link would nest anchors; the surrounding link already leads somewhere.
    const linked = src !== undefined && !image.closest('a');
    const replacement = doc.createElement(linked ? 'a' : 'span');
    if (linked) {
      replacement.setAttribute('href', src);
      replacement.setAttribute('target', '_blank');
      replacement.setAttribute('rel', REL);
    }
    replacement.textContent = `[${label}]`;
    image.replaceWith(replacement);
  }
}

function shiftHeadings(doc: Document, offset: number): void {
  if (offset <= 0) return;
  for (const heading of Array.from(doc.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const level = Math.min(Number(heading.tagName.slice(1)) + offset, 6);
    const shifted = doc.createElement(`h${level}`);
    shifted.append(...Array.from(heading.childNodes));
    heading.replaceWith(shifted);
  }
}
