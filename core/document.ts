/**
 * The public Document shape (spec: "Document"), built from a stored row: only the requested
 * formats, the screenshot as base64 PNG, metadata as stored. Used by the API and by webhooks.
 */
import type { Format } from './schemas/scrape.js';

export interface StoredDocument {
  markdown: string | null;
  html: string | null;
  rawHtml: string | null;
  links: unknown;
  screenshot: Uint8Array | null;
  metadata: unknown;
  extract: unknown;
}

export interface PublicDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: string;
  extract?: unknown;
  metadata: Record<string, unknown>;
}

export function toPublicDocument(row: StoredDocument, formats: readonly Format[]): PublicDocument {
  const want = new Set(formats);
  const doc: PublicDocument = { metadata: (row.metadata ?? {}) as Record<string, unknown> };
  if (want.has('markdown')) doc.markdown = row.markdown ?? '';
  if (want.has('html')) doc.html = row.html ?? '';
  if (want.has('rawHtml')) doc.rawHtml = row.rawHtml ?? '';
  if (want.has('links')) doc.links = (row.links as string[] | null) ?? [];
  if ((want.has('screenshot') || want.has('screenshot@fullPage')) && row.screenshot) doc.screenshot = Buffer.from(row.screenshot).toString('base64');
  if (row.extract !== null && row.extract !== undefined) doc.extract = row.extract;
  return doc;
}
