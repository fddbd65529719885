/**
 * The HTML path: one parse, then every format derives from that tree, in an order that matters:
 * metadata, links, images and attributes read the untouched document (links serve crawl discovery,
 * so navigation the markdown drops is still followed); then non-content elements go, selectors apply, onlyMainContent
 * prunes, URLs become absolute, emphasis is made writable (emphasis.ts), and the html and markdown
 * formats are taken from the same body.
 */
import { parseHtml } from './dom.js';
import { removeNonContent } from './clean.js';
import { extractAttributes } from './attributes.js';
import { tidyEmphasis } from './emphasis.js';
import { extractImages } from './images.js';
import { extractLinks } from './links.js';
import { jsonLdArticleBody } from './article-body.js';
import { applyMainContent } from './main-content.js';
import { toMarkdown } from './markdown.js';
import { extractMetadata } from './metadata.js';
import { repairMojibake } from './mojibake.js';
import { absolutizeUrls, documentBase } from './resolve.js';
import { scanDocument } from './scan.js';
import { applySelectors, validateSelectors } from './select.js';
import type { ProcessPageInput, ProcessedPage } from './types.js';

export function processHtml(html: string, contentType: string, input: ProcessPageInput): ProcessedPage {
  const { formats } = input;
  // Read with twice-encoded text repaired (mojibake.ts); rawHtml stays the page as it came.
  const doc = parseHtml(repairMojibake(html));
  const scan = scanDocument(doc);
  const base = documentBase(scan.baseHref, input.url);
  const result: ProcessedPage = { metadata: extractMetadata(doc, scan, base, contentType) };
  if (formats.has('rawHtml')) result.rawHtml = html;
  if (formats.has('links')) result.links = extractLinks(scan.anchors, base);
  if (formats.has('images')) result.images = extractImages(doc, base);
  if (input.attributes?.length) result.attributes = extractAttributes(doc, input.attributes);
  if (!formats.has('markdown') && !formats.has('html')) {
    validateSelectors(input); // A bad selector fails the same whatever formats were asked for.
    return result;
  }

  // A frameset document has no body; its frames are removed as non-content anyway.
  const body = doc.body ?? doc.documentElement;
  // Read before the scripts go: the story's text as the page states it for search engines.
  const statedBody = input.onlyMainContent ? jsonLdArticleBody(scan.jsonLd) : undefined;
  removeNonContent(body);
  const selected = applySelectors(body, input.includeTags, input.excludeTags);
  // The element whose children are the content: body, the includeTags container, or a main root.
  let root = selected?.container ?? body;
  if (selected?.kept.length === 0) {
    result.includeTagsMatchedNothing = true;
  } else {
    if (input.onlyMainContent) root = applyMainContent(root, input.url, selected?.kept, statedBody);
    absolutizeUrls(root, base);
  }
  tidyEmphasis(root);
  // A main root is itself part of the content (`<main>...</main>`); body and container are not.
  if (formats.has('html')) result.html = root === body || root === selected?.container ? root.innerHTML : root.outerHTML;
  if (formats.has('markdown')) result.markdown = toMarkdown(root);
  return result;
}
