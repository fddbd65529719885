/**
 * The public Document shape (spec: "Document"), built from a stored row: only the requested
 * formats, the screenshot as base64 PNG, the actions' results when there were actions, metadata
 * as stored. Used by the API and by webhooks.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { documentSchema } from './schemas/document.js';
import type { Format } from './schemas/scrape.js';
import type { ActionResults } from './schemas/actions.js';

export interface StoredDocument {
  markdown: string | null;
  html: string | null;
  rawHtml: string | null;
  links: unknown;
  images: unknown;
  attributes: unknown;
  summary: string | null;
  screenshot: Uint8Array | null;
  actions: unknown;
  metadata: unknown;
  extract: unknown;
  changeTracking: unknown;
}

export type PublicDocument = FromSchema<typeof documentSchema>;

export function toPublicDocument(row: StoredDocument, formats: readonly Format[]): PublicDocument {
  const want = new Set(formats);
  // Metadata is what the page pipeline wrote: its keys are the schema's, plus the page's own meta tags.
  const doc: PublicDocument = { metadata: (row.metadata ?? {}) as PublicDocument['metadata'] };
  if (want.has('markdown')) doc.markdown = row.markdown ?? '';
  if (want.has('html')) doc.html = row.html ?? '';
  if (want.has('rawHtml')) doc.rawHtml = row.rawHtml ?? '';
  if (want.has('links')) doc.links = (row.links as string[] | null) ?? [];
  // Only when stored (a webhook asks for every format; a page stored with the format always has it).
  if (want.has('images') && row.images !== null && row.images !== undefined) doc.images = row.images as string[];
  if (want.has('attributes') && row.attributes !== null && row.attributes !== undefined) doc.attributes = row.attributes as PublicDocument['attributes'];
  if (want.has('summary') && row.summary !== null) doc.summary = row.summary;
  if ((want.has('screenshot') || want.has('screenshot@fullPage')) && row.screenshot) doc.screenshot = Buffer.from(row.screenshot).toString('base64');
  if (row.actions) doc.actions = row.actions as ActionResults;
  if (want.has('changeTracking') && row.changeTracking) doc.changeTracking = row.changeTracking as PublicDocument['changeTracking'];
  // The extraction result: `json` when asked for in the hosted API's `json` format, else `extract`.
  if (row.extract !== null && row.extract !== undefined) {
    if (want.has('json')) doc.json = row.extract;
    else doc.extract = row.extract;
  }
  return doc;
}
