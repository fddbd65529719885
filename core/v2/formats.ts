/**
 * The hosted v2 API's scrape formats onto ours (the one place they are translated): v2 formats are
 * names or objects with a `type`; the options that v1 keeps beside the formats (changeTrackingOptions,
 * jsonOptions, screenshot@fullPage) ride inside the objects.
 */
import type { PageOptions } from '../schemas/scrape.js';

export type V2Format =
  | string
  | { type: string; modes?: ('git-diff' | 'json')[]; schema?: Record<string, unknown>; prompt?: string | null; tag?: string | null; fullPage?: boolean; [other: string]: unknown };

/** v2 formats offered here. `json` only as an object (`{ type: "json", schema?, prompt? }`), as the SDKs send it. */
const OFFERED = new Set(['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'changeTracking', 'json']);

export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    /** Index of the offending format. */
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** v1 formats and the options v2 carries inside them; throws FormatError for a format not offered here. */
export function formatsFromV2(formats: readonly V2Format[]): Pick<PageOptions, 'formats' | 'changeTrackingOptions' | 'jsonOptions' | 'screenshotOptions'> {
  const out = new Set<PageOptions['formats'][number]>();
  let changeTrackingOptions: PageOptions['changeTrackingOptions'];
  let jsonOptions: PageOptions['jsonOptions'];
  let screenshotOptions: PageOptions['screenshotOptions'];
  formats.forEach((format, index) => {
    const type = typeof format === 'string' ? format : format.type;
    if (!OFFERED.has(type)) throw new FormatError(index, `the ${JSON.stringify(type)} format is not offered by this server (offered: ${[...OFFERED].join(', ')})`);
    if (type === 'screenshot' && typeof format === 'object' && format.fullPage) out.add('screenshot@fullPage');
    else out.add(type as PageOptions['formats'][number]);
    if (type === 'screenshot' && typeof format === 'object' && (format.quality !== undefined || format.viewport !== undefined)) {
      screenshotOptions = { ...(format.quality !== undefined ? { quality: format.quality as number } : {}), ...(format.viewport !== undefined ? { viewport: format.viewport as { width: number; height: number } } : {}) };
    }
    if (typeof format === 'object' && type === 'changeTracking') {
      changeTrackingOptions = { ...(format.modes ? { modes: format.modes } : {}), ...(format.schema ? { schema: format.schema } : {}), ...(format.prompt ? { prompt: format.prompt } : {}), ...(format.tag !== undefined ? { tag: format.tag } : {}) };
    }
    if (type === 'json') {
      if (typeof format !== 'object' || (!format.schema && !format.prompt)) throw new FormatError(index, 'the json format needs its options: { "type": "json", "schema": {...} } or { "type": "json", "prompt": "..." }');
      jsonOptions = { ...(format.schema ? { schema: format.schema } : {}), ...(format.prompt ? { prompt: format.prompt } : {}) };
    }
  });
  return { formats: [...out], ...(changeTrackingOptions ? { changeTrackingOptions } : {}), ...(jsonOptions ? { jsonOptions } : {}), ...(screenshotOptions ? { screenshotOptions } : {}) };
}
