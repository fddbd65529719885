/**
 * Relative URLs made absolute, so the html and markdown formats stand on their own outside the page.
 * The base is `<base href>` (itself resolved against the page URL), else the page URL, as browsers do.
 */

/** Absolute form of `value` against `base`, or undefined when it does not parse. */
export function resolveUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** The document's base URL: the first `<base href>` that resolves, else the page URL. */
export function documentBase(doc: Document, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  return (href && resolveUrl(href, pageUrl)) || pageUrl;
}

/** Attributes holding a single URL, by the elements that carry them. */
const URL_ATTRIBUTES: ReadonlyArray<[selector: string, attribute: string]> = [
  ['a[href], area[href]', 'href'],
  ['img[src], source[src], video[src], audio[src], track[src], input[src]', 'src'],
  ['video[poster]', 'poster'],
  ['blockquote[cite], q[cite], del[cite], ins[cite]', 'cite'],
  ['form[action]', 'action'],
];

/**
 * Lazy-loading attributes pages use for the real image while `src` holds a placeholder or nothing.
 * Checked in order; the first present one becomes `src`.
 */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/** Splits a srcset into candidates (HTML's parsing rules, simplified), resolves each URL, rejoins. */
export function resolveSrcset(srcset: string, base: string): string {
  const out: string[] = [];
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
    const absolute = resolveUrl(url, base) ?? url;
    out.push(descriptor ? `${absolute} ${descriptor}` : absolute);
  }
  return out.join(', ');
}

function isPlaceholder(src: string | null): boolean {
  return !src || src.startsWith('data:') || src.trim() === '';
}

/**
 * Rewrites URL attributes under `root` to absolute URLs. `javascript:` hrefs are dropped (they mean
 * nothing outside the page and would become clickable markdown), and lazy-loaded images get their
 * real source.
 */
export function absolutizeUrls(root: Element, base: string): void {
  for (const img of Array.from(root.querySelectorAll('img'))) {
    if (!isPlaceholder(img.getAttribute('src'))) continue;
    const real = LAZY_SRC.map((a) => img.getAttribute(a)).find((v) => v && !v.startsWith('data:'));
    if (real) img.setAttribute('src', real);
  }
  for (const [selector, attribute] of URL_ATTRIBUTES) {
    for (const el of Array.from(root.querySelectorAll(selector))) {
      const value = el.getAttribute(attribute)!;
      if (attribute === 'href' && /^\s*javascript:/i.test(value)) {
        el.removeAttribute(attribute);
        continue;
      }
      const absolute = resolveUrl(value, base);
      if (absolute) el.setAttribute(attribute, absolute);
    }
  }
  for (const el of Array.from(root.querySelectorAll('img[srcset], source[srcset]'))) {
    el.setAttribute('srcset', resolveSrcset(el.getAttribute('srcset')!, base));
  }
}
