/**
 * The reference for core/html/markdown.ts: turndown 7.2.5 with the options and rules the pipeline
 * used before it had a converter of its own. The rule bodies are the converter's own (a rule's
 * output is not what is compared); what the comparison checks is everything around them, which
 * turndown does its own way: collapsing whitespace, choosing a node's rule, blank elements,
 * escaping text, whitespace at inline elements' edges and joining blocks.
 * core/html/markdown-turndown.test.ts requires the two to write the same markdown.
 */
import TurndownService from 'turndown';
import { codeBlock, heading, image, link, listItem } from '../../core/html/markdown-rules.js';
import { tidyMarkdown } from '../../core/html/markdown.js';
import { dataCell, dataTable, inDataTable, isDataTable } from '../../core/html/markdown-tables.js';

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', strongDelimiter: '**', hr: '---' });
  service.addRule('heading', { filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], replacement: (content, node) => heading(node, content) });
  service.addRule('codeBlock', { filter: 'pre', replacement: (_content, node) => codeBlock(node) });
  service.addRule('listItem', { filter: 'li', replacement: (content, node) => listItem(node, content) });
  service.addRule('link', { filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'), replacement: (content, node) => link(node.getAttribute('href')!, content) });
  service.addRule('image', { filter: 'img', replacement: (_content, node) => image(node) });
  service.addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => (content.trim() ? `~~${content}~~` : '') });
  service.addRule('tableCell', { filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && inDataTable(node), replacement: (content, node) => dataCell(node, content) });
  service.addRule('tableStructure', { filter: (node) => ['TR', 'THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName) && inDataTable(node), replacement: () => '' });
  service.addRule('tableCaption', { filter: (node) => node.nodeName === 'CAPTION', replacement: (content) => `\n\n${content.trim()}\n\n` });
  service.addRule('table', { filter: (node) => node.nodeName === 'TABLE' && isDataTable(node), replacement: (content, node) => dataTable(node, content) });
  return service;
}

const service = createService();

/** Markdown of `root`'s content, as turndown writes it; converts a copy, so `root` is left as it was. */
export function turndownMarkdown(root: Element): string {
  return tidyMarkdown(service.turndown(root as HTMLElement));
}
