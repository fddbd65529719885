/**
 * The images format: every image the page refers to. Taken from the whole, untouched document (as
 * the links format is), so the og:image in the head and a gallery in a sidebar count even when the
 * markdown leaves them out; a caller who wants only the content's images reads them from markdown.
 *
 * Sources, in document order: `<meta>` og:image (og:image:url, og:image:secure_url), twitter:image
 * (twitter:image:src) and itemprop=image; `<link rel=image_src>`; `<img>` src, its lazy-loading
 * attributes (data-src, ...) and every srcset / data-srcset candidate; `<picture><source>` srcset
 * and src; `<video poster>`; `<input type=image>` src; url(...) in an inline style's background.
 * Favicons are not images of the page (metadata.favicon has the first one).
 */
import { walkElements } from './dom.js';
import { LAZY_SRC, resolveUrl, srcsetCandidates } from './resolve.js';

/** Most URLs the format returns; a page with more (an endless gallery) is cut here. */
export const MAX_IMAGES = 1000;
/** Longer URLs are left out: no image URL is this long, but a generated one can be megabytes. */
const MAX_URL_CHARS = 8192;

const META_KEYS = new Set(['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src']);

/** The url(...) values of an inline style's background declarations. */
function backgroundUrls(style: string): string[] {
  if (!/background/i.test(style)) return [];
  return [...style.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)].map((m) => m[2]);
}

/** The URLs (as written) an element contributes. */
function sourcesOf(el: Element): string[] {
  const attr = (name: string) => el.getAttribute(name);
  const candidates = (name: string) => srcsetCandidates(attr(name) ?? '').map((c) => c.url);
  const found: (string | null)[] = [];
  switch (el.localName) {
    case 'meta': {
      const keys = [attr('property'), attr('name')].map((k) => k?.trim().toLowerCase());
      if (keys.some((k) => k && META_KEYS.has(k)) || attr('itemprop')?.trim().toLowerCase() === 'image') found.push(attr('content'));
      break;
    }
    case 'link':
      if ((attr('rel') ?? '').toLowerCase().split(/\s+/).includes('image_src')) found.push(attr('href'));
      break;
    case 'img':
      found.push(attr('src'), ...LAZY_SRC.map(attr), ...candidates('srcset'), ...candidates('data-srcset'));
      break;
    case 'source':
      if (el.parentElement?.localName === 'picture') found.push(...candidates('srcset'), attr('src'));
      break;
    case 'video':
      found.push(attr('poster'));
      break;
    case 'input':
      if (attr('type')?.trim().toLowerCase() === 'image') found.push(attr('src'));
      break;
  }
  const style = attr('style');
  if (style) found.push(...backgroundUrls(style));
  return found.filter((v): v is string => v !== null && v.trim() !== '');
}

/**
 * Absolute http(s) image URLs under `root`, resolved against `base` (the document base), deduplicated,
 * in document order, at most MAX_IMAGES. data: and blob: URLs (inline bytes, not addresses) and
 * anything else that is not http(s) are left out.
 */
export function extractImages(root: Node, base: string): string[] {
  const seen = new Set<string>();
  walkElements(root, (el) => {
    if (seen.size >= MAX_IMAGES) return false;
    for (const value of sourcesOf(el)) {
      const absolute = resolveUrl(value, base);
      if (!absolute || !/^https?:/i.test(absolute) || absolute.length > MAX_URL_CHARS) continue;
      seen.add(absolute);
      if (seen.size >= MAX_IMAGES) return false;
    }
    return true;
  });
  return [...seen];
}
