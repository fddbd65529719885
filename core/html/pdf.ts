/**
 * PDF bodies: text extracted with unpdf (a serverless PDF.js build that runs in-process, with no
 * worker script or network access), laid out into paragraphs (pdf-text.ts). Markdown separates
 * pages with a horizontal rule; html has one `<section>` of `<p>` per page. There is no HTML source,
 * so rawHtml is that same generated html. Links are the PDF's URI link annotations.
 *
 * unpdf is imported lazily: it is 2.6 MB of code that HTML-only work never needs.
 */
import { UnreadablePdfError } from './errors.js';
import { escapeHtml } from './html-escape.js';
import { normalizeLink } from './links.js';
import { pageParagraphs } from './pdf-text.js';
import type { PageFormat, ProcessedPage } from './types.js';

/** Bound on pages converted, so a hostile 100,000-page file cannot pin a worker. */
export const MAX_PDF_PAGES = 2000;

export async function processPdf(bytes: Uint8Array, url: string, formats: ReadonlySet<PageFormat>): Promise<ProcessedPage> {
  const { getDocumentProxy, extractTextItems, extractLinks, getMeta } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: PDF.js may take ownership of (detach) the buffer it is given.
    // verbosity 0: PDF.js would otherwise print recovery warnings for damaged files to the console.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    throw new UnreadablePdfError(error instanceof Error ? error.message : String(error));
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) throw new UnreadablePdfError(`${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are converted`);
    const { info } = await getMeta(pdf);
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    const pages = (await extractTextItems(pdf)).items.map(pageParagraphs).filter((p) => p.length > 0);
    const result: ProcessedPage = {
      metadata: { contentType: 'application/pdf', ...(title ? { title } : {}), numPages: pdf.numPages },
    };
    if (formats.has('markdown')) result.markdown = pages.map((p) => p.join('\n\n')).join('\n\n---\n\n');
    if (formats.has('html') || formats.has('rawHtml')) {
      const html = pages.map((p) => `<section>${p.map((t) => `<p>${escapeHtml(t)}</p>`).join('')}</section>`).join('\n');
      if (formats.has('html')) result.html = html;
      if (formats.has('rawHtml')) result.rawHtml = html;
    }
    if (formats.has('links')) {
      const links = (await extractLinks(pdf)).links.map((l) => normalizeLink(l, url));
      result.links = [...new Set(links.filter((l): l is string => l !== undefined))];
    }
    return result;
  } finally {
    // Frees the document and its in-process worker state.
    await pdf.loadingTask.destroy();
  }
}
