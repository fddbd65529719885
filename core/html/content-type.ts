/**
 * Decides how a response body is converted, from its Content-Type header and, where the header is
 * missing or generic, from the bytes themselves (a PDF served as text/html still converts as PDF).
 */
import { UnsupportedContentTypeError } from './errors.js';

export type BodyKind = 'html' | 'text' | 'json' | 'xml' | 'pdf';

export interface MediaType {
  /** Lower-case `type/subtype`, parameters stripped. */
  essence: string;
  /** The `charset` parameter, unquoted, as given. */
  charset?: string;
}

export function parseContentType(header: string | undefined): MediaType | undefined {
  if (!header) return undefined;
  const [type, ...params] = header.split(';');
  const essence = type.trim().toLowerCase();
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(essence)) return undefined;
  let charset: string | undefined;
  for (const param of params) {
    const m = /^\s*charset\s*=\s*("?)([^";]*)\1\s*$/i.exec(param);
    if (m && m[2]) charset = m[2].trim();
  }
  return { essence, charset };
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** PDF readers accept the header anywhere in the first 1024 bytes; so do we. */
export function looksLikePdf(body: Uint8Array | string): boolean {
  if (typeof body === 'string') return body.trimStart().startsWith('%PDF-');
  const end = Math.min(body.length - PDF_MAGIC.length, 1024);
  // A plain loop: a closure per position cost ~100 KB of garbage per page.
  for (let i = 0; i <= end; i++) {
    let j = 0;
    while (j < PDF_MAGIC.length && body[i + j] === PDF_MAGIC[j]) j++;
    if (j === PDF_MAGIC.length) return true;
  }
  return false;
}

function looksBinary(body: Uint8Array | string): boolean {
  if (typeof body === 'string') return false;
  // UTF-16 text has NULs too, but announces itself with a BOM.
  if ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff)) return false;
  return body.subarray(0, 1024).includes(0);
}

function kindOfEssence(essence: string): BodyKind | undefined {
  if (essence === 'text/html' || essence === 'application/xhtml+xml') return 'html';
  if (essence === 'application/pdf' || essence === 'application/x-pdf') return 'pdf';
  if (essence === 'application/json' || essence === 'text/json' || essence.endsWith('+json')) return 'json';
  if (essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml')) return 'xml';
  if (essence.startsWith('text/')) return 'text';
  return undefined;
}

const GENERIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/**
 * The kind of body and the media type reported in metadata. Without a header the body is taken as
 * HTML (what browsers do for a document navigation); with a generic one, markup is sniffed.
 * Throws UnsupportedContentTypeError for binary bodies that are not PDF.
 */
export function classifyBody(body: Uint8Array | string, media: MediaType | undefined): { kind: BodyKind; essence: string } {
  if (looksLikePdf(body)) return { kind: 'pdf', essence: 'application/pdf' };
  const declared = media && !GENERIC.has(media.essence) ? kindOfEssence(media.essence) : undefined;
  if (declared) return { kind: declared, essence: media!.essence };
  if (media && !GENERIC.has(media.essence)) throw new UnsupportedContentTypeError(media.essence);
  if (looksBinary(body)) throw new UnsupportedContentTypeError(media?.essence ?? 'application/octet-stream');
  if (!media) return { kind: 'html', essence: 'text/html' };
  const head = (typeof body === 'string' ? body.slice(0, 256) : new TextDecoder('latin1').decode(body.subarray(0, 256))).trimStart();
  if (head.startsWith('<?xml') && !/<html[\s>]/i.test(head)) return { kind: 'xml', essence: 'application/xml' };
  if (head.startsWith('<')) return { kind: 'html', essence: 'text/html' };
  return { kind: 'text', essence: 'text/plain' };
}
