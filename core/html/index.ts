/**
 * The HTML pipeline shared by scrape and crawl: a fetched body in, the document formats and
 * metadata out. Pure: no network, no database. CPU-bound (milliseconds to tens of milliseconds per
 * page, see bench/html-pipeline.ts), so a worker may want to run it off the main thread.
 */
import { classifyBody, parseContentType } from './content-type.js';
import { decodeBody } from './decode.js';
import { processHtml } from './html-page.js';
import { processNonHtml } from './non-html.js';
import { processPdf } from './pdf.js';
import { InvalidSelectorError } from './errors.js';
import { selectorProblem, validateSelectors } from './select.js';
import type { ProcessPageInput, ProcessedPage } from './types.js';

export { InvalidSelectorError, UnreadablePdfError, UnsupportedContentTypeError } from './errors.js';
export { validateSelectors } from './select.js';
export type { PageFormat, PageMetadata, ProcessPageInput, ProcessedPage } from './types.js';

/**
 * Converts one fetched page. Async only because PDF extraction is; HTML, text and JSON finish
 * synchronously inside. Throws InvalidSelectorError (caller's fault, 400),
 * UnsupportedContentTypeError (images, archives) and UnreadablePdfError.
 */
export async function processPage(input: ProcessPageInput): Promise<ProcessedPage> {
  const media = parseContentType(input.contentType);
  const { kind, essence } = classifyBody(input.body, media);
  if (kind === 'pdf') {
    validateSelectors(input);
    const bytes = typeof input.body === 'string' ? new TextEncoder().encode(input.body) : input.body;
    return withoutMarkup(await processPdf(bytes, input.url, input.formats), input);
  }
  const { text } = decodeBody(input.body, media?.charset, kind === 'html');
  if (kind === 'html') return processHtml(text, essence, input);
  validateSelectors(input);
  return withoutMarkup(processNonHtml(kind, text, essence, input.formats), input);
}

/** A PDF, text or JSON page has no image elements and no attributes: the formats asked for are empty, not missing. */
function withoutMarkup(page: ProcessedPage, input: ProcessPageInput): ProcessedPage {
  for (const { selector } of input.attributes ?? []) {
    const problem = selectorProblem(selector);
    if (problem) throw new InvalidSelectorError(selector, 'attributesOptions', problem);
  }
  return {
    ...page,
    ...(input.formats.has('images') ? { images: [] } : {}),
    ...(input.attributes?.length ? { attributes: input.attributes.map(({ selector, attribute }) => ({ selector, attribute, values: [] })) } : {}),
  };
}
