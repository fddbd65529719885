/**
 * The hosted v2 API's scrape formats onto ours (the one place they are translated): v2 formats are
 * names or objects with a `type`; the options that v1 keeps beside the formats (changeTrackingOptions,
 * jsonOptions, attributesOptions, screenshotOptions, screenshot@fullPage) ride inside the objects.
 */
import type { PageOptions } from '../schemas/scrape.js';
import { selectorProblem } from '../html/select.js';

export type V2Format =
  | string
  | {
      type: string;
      modes?: ('git-diff' | 'json')[];
      schema?: Record<string, unknown>;
      prompt?: string | null;
      tag?: string | null;
      fullPage?: boolean;
      selectors?: { selector: string; attribute: string }[];
      [other: string]: unknown;
    };

/**
 * v2 formats offered here. `json` and `attributes` only as objects (`{ type: "json", schema?, prompt? }`,
 * `{ type: "attributes", selectors }`), as the SDKs send them.
 */
const OFFERED = new Set(['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'summary', 'changeTracking', 'json', 'attributes']);

export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    /** Index of the offending format. */
    readonly index: number,
    message: string,
    /** Where inside the format object, e.g. `.selectors[0].selector`; empty for the format itself. */
    readonly path = '',
  ) {
    super(message);
  }
}

type Translated = Pick<PageOptions, 'formats' | 'changeTrackingOptions' | 'jsonOptions' | 'screenshotOptions' | 'attributesOptions'>;

/** v1 formats and the options v2 carries inside them; throws FormatError for a format not offered here or an invalid one. */
export function formatsFromV2(formats: readonly V2Format[]): Translated {
  const out = new Set<PageOptions['formats'][number]>();
  let changeTrackingOptions: PageOptions['changeTrackingOptions'];
  let jsonOptions: PageOptions['jsonOptions'];
  let screenshotOptions: PageOptions['screenshotOptions'];
  let attributesOptions: PageOptions['attributesOptions'];
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
    if (type === 'attributes') {
      if (typeof format !== 'object' || !format.selectors?.length) throw new FormatError(index, 'the attributes format needs its selectors: { "type": "attributes", "selectors": [{ "selector": "...", "attribute": "..." }] }');
      if (attributesOptions) throw new FormatError(index, 'give one attributes format, with every selector in it');
      format.selectors.forEach(({ selector }, j) => {
        const problem = selectorProblem(selector);
        if (problem) throw new FormatError(index, problem, `.selectors[${j}].selector`);
      });
      attributesOptions = { selectors: format.selectors.map(({ selector, attribute }) => ({ selector, attribute })) };
    }
  });
  return {
    formats: [...out],
    ...(changeTrackingOptions ? { changeTrackingOptions } : {}),
    ...(jsonOptions ? { jsonOptions } : {}),
    ...(screenshotOptions ? { screenshotOptions } : {}),
    ...(attributesOptions ? { attributesOptions } : {}),
  };
}
