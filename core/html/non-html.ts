/**
 * Text-like bodies that are not HTML: plain text becomes markdown as it is; JSON becomes a fenced
 * json block (pretty-printed when it parses); XML (feeds, sitemaps) a fenced xml block. The html
 * format wraps the text in `<pre>`; rawHtml is the decoded text. Selectors and onlyMainContent do
 * not apply: there is no element tree.
 */
import { escapeHtml } from './html-escape.js';
import type { PageFormat, ProcessedPage } from './types.js';

/** A code fence longer than any backtick run in `text`, so the block cannot end early. */
function fence(text: string, language: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${language}\n${text.replace(/\n$/, '')}\n${marks}`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // Invalid JSON is still worth showing as it came.
  }
}

export function processNonHtml(kind: 'text' | 'json' | 'xml', text: string, contentType: string, formats: ReadonlySet<PageFormat>): ProcessedPage {
  const result: ProcessedPage = { metadata: { contentType } };
  if (formats.has('markdown')) {
    if (kind === 'text') result.markdown = text;
    else result.markdown = fence(kind === 'json' ? prettyJson(text) : text.trim(), kind);
  }
  if (formats.has('html')) {
    const code = kind === 'text' ? escapeHtml(text) : `<code class="language-${kind}">${escapeHtml(text)}</code>`;
    result.html = `<pre>${code}</pre>`;
  }
  if (formats.has('rawHtml')) result.rawHtml = text;
  if (formats.has('links')) result.links = [];
  return result;
}
