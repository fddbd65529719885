/**
 * Relative URLs made absolute, so the html and markdown formats stand on their own outside the page.
 * The base is `<base href>` (itself resolved against the page URL), else the page URL, as browsers do.
 */
import { walkElements } from './dom.js';

/** Absolute form of `value` against `base`, or undefined when it does not parse. */
export function resolveUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** The document's base URL: its first `<base href>` if that resolves, else the page URL. */
export function documentBase(baseHref: string | undefined, pageUrl: string): string {
  return (baseHref && resolveUrl(baseHref, pageUrl)) || pageUrl;
}

/** Attributes holding a single URL, by the tags that carry them. */
const URL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  area: ['href'],
  img: ['src'],
  source: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  input: ['src'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite'],
  ins: ['cite'],
  form: ['action'],
};

/**
 * Lazy-loading attributes pages use for the real image while `src` holds a placeholder or nothing.
 * Checked in order; the first present one becomes `src`.
 */
export const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/** A srcset's candidates (HTML's parsing rules, simplified): each URL, as written, with its descriptor. */
export function srcsetCandidates(srcset: string): { url: string; descriptor: string }[] {
  const out: { url: string; descriptor: string }[] = [];
  const s = srcset;
  let i = 0;
  while (i < s.length) {
    while (i < s.length && (s[i] === ',' || /\s/.test(s[i]))) i++;
    if (i >= s.length) break;
    const urlStart = i;
    while (i < s.length && !/\s/.test(s[i])) i++;
    let url = s.slice(urlStart, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      // A URL glued to its comma has no descriptor.
      url = url.replace(/,+$/, '');
    } else {
      const descStart = i;
      let depth = 0;
      while (i < s.length && (s[i] !== ',' || depth > 0)) {
        if (s[i] === '(') depth++;
        else if (s[i] === ')') depth--;
        i++;
      }
      descriptor = s.slice(descStart, i).trim();
    }
    out.push({ url, descriptor });
  }
  return out;
}

/** A srcset with each candidate's URL resolved against `base`, rejoined. */
export function resolveSrcset(srcset: string, base: string): string {
  return srcsetCandidates(srcset)
    .map(({ url, descriptor }) => {
      const absolute = resolveUrl(url, base) ?? url;
      return descriptor ? `${absolute} ${descriptor}` : absolute;
    })
    .join(', ');
}

function isPlaceholder(src: string | null): boolean {
  return !src || src.startsWith('data:') || src.trim() === '';
}

function useLazySource(img: Element): void {
  if (!isPlaceholder(img.getAttribute('src'))) return;
  const real = LAZY_SRC.map((a) => img.getAttribute(a)).find((v) => v && !v.startsWith('data:'));
  if (real) img.setAttribute('src', real);
}

/**
 * Rewrites URL attributes under `root` to absolute URLs. `javascript:` hrefs are dropped (they mean
 * nothing outside the page and would become clickable markdown), and lazy-loaded images get their
 * real source.
 */
export function absolutizeUrls(root: Element, base: string): void {
  walkElements(root, (el) => {
    const tag = el.localName;
    const attributes = URL_ATTRIBUTES[tag];
    if (!attributes) return;
    if (tag === 'img') useLazySource(el);
    for (const attribute of attributes) {
      const value = el.getAttribute(attribute);
      if (value === null) continue;
      if (attribute === 'href' && /^\s*javascript:/i.test(value)) {
        el.removeAttribute(attribute);
        continue;
      }
      const absolute = resolveUrl(value, base);
      if (absolute) el.setAttribute(attribute, absolute);
    }
    const srcset = tag === 'img' || tag === 'source' ? el.getAttribute('srcset') : null;
    if (srcset !== null) el.setAttribute('srcset', resolveSrcset(srcset, base));
  });
}
