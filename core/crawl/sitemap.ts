/**
 * Sitemaps (sitemaps.org protocol), the pure half: text in, URLs out. Fetching, following an
 * index's child sitemaps and gunzipping `.xml.gz` files (by Content-Encoding, Content-Type or the
 * gzip magic bytes) are the activity's job; this only sees the decompressed text.
 *
 * - XML `<urlset>`: the `<loc>` of each `<url>`; `<sitemapindex>`: the `<loc>` of each
 *   `<sitemap>` (kind 'index', so the caller fetches those in turn). Namespace prefixes are
 *   tolerated (`<sm:urlset>` … `<sm:loc>`), and only `loc` elements with the root's prefix count,
 *   so extension elements such as `<image:loc>` are not taken for pages. CDATA, entities
 *   (`&amp;`, `&#38;`), comments and whitespace around the URL are handled.
 * - Plain text: one URL per line (the protocol's text format); other lines are ignored.
 * - Only absolute http(s) URLs are kept, deduplicated in file order. At most 50,000 entries per
 *   file are read (the protocol's limit); the rest is ignored. Feeds (RSS, Atom) are not read.
 * - The scan is linear: no regex over the whole file, so a malformed 50 MB file cannot stall it.
 */

/** Entries read per sitemap file. */
export const MAX_SITEMAP_ENTRIES = 50_000;
/** Largest uncompressed sitemap the protocol allows, in bytes; fetchers stop reading beyond it. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export interface ParsedSitemap {
  kind: 'urlset' | 'index';
  urls: string[];
}

export function parseSitemap(text: string): ParsedSitemap {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!body.startsWith('<')) return { kind: 'urlset', urls: collect(body.split(/\r\n|\r|\n/)) };
  return parseXml(body);
}

function parseXml(xml: string): ParsedSitemap {
  let root: { prefix: string; kind: ParsedSitemap['kind'] } | undefined;
  const locs: string[] = [];
  let at = 0;
  while (locs.length < MAX_SITEMAP_ENTRIES) {
    const open = xml.indexOf('<', at);
    if (open < 0) break;
    // Comments, CDATA, processing instructions and declarations are skipped whole.
    const skipTo = xml.startsWith('<!--', open) ? '-->' : xml.startsWith('<![CDATA[', open) ? ']]>' : xml.startsWith('<?', open) ? '?>' : undefined;
    const end = skipTo ? xml.indexOf(skipTo, open) : xml.indexOf('>', open);
    if (end < 0) break;
    at = end + (skipTo?.length ?? 1);
    const name = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)/.exec(xml.slice(open, Math.min(end + 1, open + 200)))?.[1];
    if (!name || xml[open + 1] === '!') continue;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon + 1);
    const local = name.slice(colon + 1);
    if (!root) {
      root = { prefix, kind: local === 'sitemapindex' ? 'index' : 'urlset' };
    } else if (local === 'loc' && prefix === root.prefix && xml[end - 1] !== '/') {
      const close = xml.indexOf(`</${name}`, at);
      if (close < 0) break;
      locs.push(textContent(xml.slice(at, close)));
      at = close;
    }
  }
  return { kind: root?.kind ?? 'urlset', urls: collect(locs) };
}

/** Element text: CDATA sections taken verbatim, entities decoded in the rest, trimmed. */
function textContent(inner: string): string {
  return inner
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) => (part.startsWith('<![CDATA[') ? part.slice(9, -3) : decodeEntities(part)))
    .join('')
    .trim();
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Absolute http(s) URLs among the first MAX_SITEMAP_ENTRIES non-empty entries, deduplicated. */
function collect(entries: string[]): string[] {
  const urls = new Set<string>();
  let read = 0;
  for (const entry of entries) {
    const text = entry.trim();
    if (text === '') continue;
    if (++read > MAX_SITEMAP_ENTRIES) break;
    try {
      const url = new URL(text);
      if (url.protocol === 'http:' || url.protocol === 'https:') urls.add(url.href);
    } catch {
      // Not a URL (a stray line of a text sitemap, a relative loc): ignored, as the protocol expects.
    }
  }
  return [...urls];
}
