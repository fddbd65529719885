/**
 * The reference for core/html/markdown.ts: turndown 7.2.5 configured with the options and rules
 * the pipeline used before it had a converter of its own. core/html/markdown-turndown.test.ts
 * checks on thousands of generated pages that the two write the same markdown.
 */
import TurndownService from 'turndown';
import { findDescendant, ancestorWithTag } from '../../core/html/dom.js';
import { tidyMarkdown } from '../../core/html/markdown.js';

function codeLanguage(pre: Element): string {
  for (const el of [findDescendant(pre, (e) => e.localName === 'code'), pre]) {
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(el?.getAttribute('class') ?? '');
    if (m) return m[1];
  }
  return pre.getAttribute('data-lang')?.replace(/[^\w+#.-]/g, '') ?? '';
}

function codeText(node: Node): string {
  let out = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) out += child.nodeValue ?? '';
    else if (child.nodeName === 'BR') out += '\n';
    else if (child.nodeType === 1) {
      out += codeText(child);
      if ((child.nodeName === 'DIV' || child.nodeName === 'P') && !out.endsWith('\n')) out += '\n';
    }
  }
  return out;
}

function fenceFor(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/^`{3,}/gm)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function destination(url: string): string {
  if (/\s/.test(url)) return `<${url.replace(/[<>]/g, encodeURIComponent)}>`;
  return url.replace(/[()]/g, '\\$&');
}

function inline(content: string): string {
  return content.replace(/^#{1,6}\s+/gm, '').replace(/\s*\n\s*/g, ' ').trim();
}

function itemIndex(list: Element, item: Element): number {
  return Array.from(list.children).filter((c) => c.nodeName === 'LI').indexOf(item);
}

const cellText = new WeakMap<Element, string>();
const isDataTable = (table: Element) => findDescendant(table, (el) => el.localName === 'table') === undefined;
function inDataTable(node: Element): boolean {
  const table = ancestorWithTag(node, new Set(['table']));
  return table != null && isDataTable(table);
}
const flattenCell = (content: string) => content.trim().replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of Array.from(table.children)) {
    if (child.localName === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.localName)) rows.push(...Array.from(child.children).filter((c) => c.localName === 'tr'));
  }
  return rows;
}
const rowCells = (tr: Element) => Array.from(tr.children).filter((c) => c.localName === 'td' || c.localName === 'th');
function isHeaderRow(tr: Element): boolean {
  if (tr.parentElement?.localName === 'thead') return true;
  const cells = rowCells(tr);
  return cells.length > 0 && cells.every((c) => c.localName === 'th');
}
function renderTable(table: Element): string {
  const rows = ownRows(table);
  const grid = rows.map((tr) =>
    rowCells(tr).flatMap((cell) => {
      const span = Math.min(Math.max(Number(cell.getAttribute('colspan')) || 1, 1), 100);
      return [cellText.get(cell) ?? '', ...Array<string>(span - 1).fill('')];
    }),
  );
  const columns = Math.max(0, ...grid.map((r) => r.length));
  if (columns === 0 || grid.every((r) => r.every((c) => c === ''))) return '';
  const pad = (r: string[]) => [...r, ...Array<string>(columns - r.length).fill('')];
  const line = (r: string[]) => `| ${pad(r).join(' | ')} |`;
  const hasHeader = isHeaderRow(rows[0]);
  const header = hasHeader ? grid[0] : [];
  const body = hasHeader ? grid.slice(1) : grid;
  return [line(header), line(Array<string>(columns).fill('---')), ...body.map(line)].join('\n');
}

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', strongDelimiter: '**', hr: '---' });
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = inline(content);
      return text ? `\n\n${'#'.repeat(Number(node.nodeName[1]))} ${text}\n\n` : '';
    },
  });
  service.addRule('codeBlock', {
    filter: 'pre',
    replacement: (_content, node) => {
      const code = codeText(node).replace(/\n$/, '');
      const fence = fenceFor(code);
      return `\n\n${fence}${codeLanguage(node)}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentElement;
      let marker = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1);
        marker = `${(Number.isFinite(start) ? start : 1) + itemIndex(parent, node)}. `;
      }
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/\n/g, `\n${' '.repeat(marker.length)}`);
      return marker + body + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'),
    replacement: (content, node) => {
      const text = inline(content);
      return text ? `[${text}](${destination(node.getAttribute('href')!)})` : '';
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = node.getAttribute('src')?.trim();
      if (!src || src.startsWith('data:')) return '';
      const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
      return `![${alt}](${destination(src)})`;
    },
  });
  service.addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => (content.trim() ? `~~${content}~~` : '') });
  service.addRule('tableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && inDataTable(node),
    replacement: (content, node) => {
      cellText.set(node, flattenCell(content));
      return '';
    },
  });
  service.addRule('tableStructure', { filter: (node) => ['TR', 'THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName) && inDataTable(node), replacement: () => '' });
  service.addRule('tableCaption', { filter: (node) => node.nodeName === 'CAPTION', replacement: (content) => `\n\n${content.trim()}\n\n` });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE' && isDataTable(node),
    replacement: (content, node) => `\n\n${content.trim() ? `${content.trim()}\n\n` : ''}${renderTable(node)}\n\n`,
  });
  return service;
}

const service = createService();

/** Markdown of `root`'s content, as turndown writes it; converts a copy, so `root` is left as it was. */
export function turndownMarkdown(root: Element): string {
  return tidyMarkdown(service.turndown(root as HTMLElement));
}
