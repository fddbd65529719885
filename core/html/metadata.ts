/**
 * Page metadata from the document head: a few named keys every consumer wants, plus every other
 * `<meta name|property>` under its lower-cased name so nothing the page declares is lost.
 */
import { collapse } from './dom.js';
import { resolveUrl } from './resolve.js';
import type { DocumentScan } from './scan.js';
import type { PageMetadata } from './types.js';

/**
 * Keys the pipeline or its caller owns (compared lower-cased); a page's meta of the same name must
 * not overwrite them. `__proto__` and friends would corrupt the object.
 */
const RESERVED = new Set([
  'title', 'description', 'language', 'ogimage', 'keywords', 'robots', 'canonical', 'favicon', 'contenttype',
  'numpages', 'sourceurl', 'statuscode', 'engine', 'extractskipped', 'error', '__proto__', 'constructor', 'prototype',
]);

/** Every `<meta name|property content>` value, by lower-cased key, in document order. */
function collectMeta(metas: readonly Element[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const meta of metas) {
    const content = meta.getAttribute('content')?.trim();
    if (!content) continue;
    const keys = new Set([meta.getAttribute('name'), meta.getAttribute('property')].map((k) => k?.trim().toLowerCase()));
    for (const key of keys) {
      if (!key) continue;
      const values = found.get(key) ?? [];
      if (!values.includes(content)) values.push(content);
      found.set(key, values);
    }
  }
  return found;
}

/** The first `<link>` whose rel list holds `relToken`, resolved; `links` is the document's links. */
function linkHref(links: readonly Element[], relToken: string, base: string): string | undefined {
  for (const link of links) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const href = link.getAttribute('href');
    const url = href !== null && rel.includes(relToken) ? resolveUrl(href, base) : undefined;
    if (url) return url;
  }
  return undefined;
}

/** Metadata of an HTML document from its scan; `base` resolves og:image, canonical and favicon to absolute URLs. */
export function extractMetadata(doc: Document, scan: DocumentScan, base: string, contentType: string): PageMetadata {
  const meta = collectMeta(scan.metas);
  const first = (key: string) => meta.get(key)?.[0];
  const titleEl = scan.titles[0];
  const contentLanguage = scan.metas
    .find((m) => m.getAttribute('http-equiv')?.toLowerCase() === 'content-language')
    ?.getAttribute('content');
  const links = scan.links;
  const ogImage = first('og:image') ?? first('og:image:url');

  const named: PageMetadata = {
    contentType,
    title: (titleEl && collapse(titleEl.textContent ?? '')) || first('og:title'),
    description: first('description') ?? first('og:description'),
    language: doc.documentElement.getAttribute('lang')?.trim() || contentLanguage?.split(',')[0].trim() || undefined,
    ogImage: ogImage ? (resolveUrl(ogImage, base) ?? ogImage) : undefined,
    keywords: first('keywords'),
    robots: first('robots'),
    canonical: linkHref(links, 'canonical', base),
    favicon: linkHref(links, 'icon', base),
  };
  const result: PageMetadata = { contentType };
  for (const [key, value] of Object.entries(named)) if (value !== undefined) result[key] = value;
  for (const [key, values] of meta) {
    if (!RESERVED.has(key)) result[key] = values.length === 1 ? values[0] : values;
  }
  return result;
}
