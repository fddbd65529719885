/**
 * Bytes to text, choosing the character encoding the way browsers do (WHATWG "encoding sniffing"):
 * a byte order mark first (it is unambiguous evidence about the bytes themselves), then the
 * Content-Type charset, then for HTML a `<meta charset>` / `<meta http-equiv=content-type>` in the
 * first bytes, else UTF-8. Node's TextDecoder (full ICU) knows every WHATWG encoding (Shift_JIS,
 * EUC-JP, GBK, Big5, windows-125x...), so no extra library is needed; `iso-8859-1` and `latin1` map to
 * windows-1252 exactly as in browsers (with a repair for Node 20, see windows-1252.ts).
 *
 * One departure from browsers: bytes that are valid UTF-8 with at least one non-ASCII character are
 * read as UTF-8 whatever legacy encoding the header or a meta declares. Servers that label UTF-8 as
 * ISO-8859-1 (an old Apache default) and pages re-saved as UTF-8 under their old meta are common;
 * a browser shows them as mojibake ("â€™" for "’"), which is worse than useless to a reader or a
 * language model. Text really written in a single-byte encoding is almost never valid UTF-8: every
 * accented letter would have to be followed by one to three bytes of 0x80-0xBF.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { repairWindows1252 } from './windows-1252.js';

export interface Decoded {
  text: string;
  /** Canonical WHATWG name of the encoding used, e.g. `shift_jis`, `utf-8`. */
  encoding: string;
}

/** How far the meta prescan looks. The spec says 1024 bytes; real pages often put the meta later. */
const PRESCAN_BYTES = 4096;

const decoders = new Map<string, TextDecoder | null>();

/** A decoder for a WHATWG encoding label, or null when the label is unknown or unsupported. */
function decoderFor(label: string): TextDecoder | null {
  const key = label.trim().toLowerCase();
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(key);
    } catch {
      decoder = null;
    }
    decoders.set(key, decoder);
  }
  return decoder;
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

const META_TAG = /<!--[\s\S]*?-->|<meta(?=[\s/])([^>]*)>/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The charset a `<meta>` in the document's first bytes declares, per the HTML prescan rules. */
export function prescanMetaCharset(bytes: Uint8Array): string | undefined {
  // windows-1252 maps every byte to one char, so ASCII markup survives whatever the real encoding.
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, PRESCAN_BYTES));
  for (const tag of head.matchAll(META_TAG)) {
    if (tag[1] === undefined) continue; // a comment
    const attrs = new Map<string, string>();
    for (const a of tag[1].matchAll(ATTRIBUTE)) {
      const name = a[1].toLowerCase();
      if (!attrs.has(name)) attrs.set(name, a[2] ?? a[3] ?? a[4] ?? '');
    }
    let label = attrs.get('charset');
    if (!label && attrs.get('http-equiv')?.toLowerCase() === 'content-type') {
      label = /charset\s*=\s*["']?([^"';\s]+)/i.exec(attrs.get('content') ?? '')?.[1];
    }
    if (!label) continue;
    // The spec maps x-user-defined (which TextDecoder lacks) to windows-1252 here.
    if (label.trim().toLowerCase() === 'x-user-defined') return 'windows-1252';
    const encoding = decoderFor(label)?.encoding;
    if (!encoding) continue;
    // An ASCII-compatible meta cannot truthfully declare UTF-16.
    return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  }
  return undefined;
}

/** An encoding other than UTF-8 and UTF-16: the ones a page declares wrongly for UTF-8 bytes. */
function isLegacy(encoding: string): boolean {
  return encoding !== 'utf-8' && !encoding.startsWith('utf-16');
}

/**
 * Bytes a legacy declaration does not get to decode: valid UTF-8 with a non-ASCII character and no
 * byte order mark (see the top of this file). The browser engines undo Chromium's reading of such
 * a page as windows-1252 on the same test (browser/render.ts).
 */
export function readsAsUtf8Anyway(bytes: Uint8Array): boolean {
  return !bomEncoding(bytes) && !isAscii(bytes) && isUtf8(bytes);
}

/**
 * Decodes a body. `headerCharset` is the Content-Type charset parameter; `sniffMeta` enables the
 * HTML meta prescan (not for JSON or plain text, which have no such declaration).
 */
export function decodeBody(body: Uint8Array | string, headerCharset: string | undefined, sniffMeta: boolean): Decoded {
  if (typeof body === 'string') return { text: body, encoding: 'utf-8' };
  const bom = bomEncoding(body);
  const candidates = [bom, headerCharset, sniffMeta ? prescanMetaCharset(body) : undefined, 'utf-8'];
  for (const label of candidates) {
    let decoder = label ? decoderFor(label) : null;
    // TextDecoder drops a BOM that matches its encoding, so rawHtml starts at the first real char.
    if (!decoder) continue;
    if (isLegacy(decoder.encoding) && readsAsUtf8Anyway(body)) decoder = decoderFor('utf-8')!;
    const text = decoder.decode(body);
    return { text: decoder.encoding === 'windows-1252' ? repairWindows1252(text) : text, encoding: decoder.encoding };
  }
  throw new Error('unreachable: utf-8 is always supported');
}
