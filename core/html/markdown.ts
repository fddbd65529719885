/**
 * Markdown from the cleaned tree with turndown: ATX headings, fenced code with the language kept,
 * `-` bullets, GFM tables (markdown-tables.ts), `*` emphasis (works inside words, unlike `_`),
 * absolute links and images. One TurndownService is built at load and reused: it keeps no state
 * between conversions.
 */
import TurndownService from 'turndown';
import { findDescendant } from './dom.js';
import { addTableRules } from './markdown-tables.js';

/** Language from `language-x` / `lang-x` classes, as highlighters and CommonMark renderers emit. */
function codeLanguage(pre: Element): string {
  for (const el of [findDescendant(pre, (e) => e.localName === 'code'), pre]) {
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(el?.getAttribute('class') ?? '');
    if (m) return m[1];
  }
  return pre.getAttribute('data-lang')?.replace(/[^\w+#.-]/g, '') ?? '';
}

/** Text of a code block; `<br>` and per-line block elements (some highlighters) become newlines. */
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

/** A fence longer than any backtick run that starts a line of the code. */
function fenceFor(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/^`{3,}/gm)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Link destinations: parentheses escaped; anything with spaces in angle brackets. */
function destination(url: string): string {
  if (/\s/.test(url)) return `<${url.replace(/[<>]/g, encodeURIComponent)}>`;
  return url.replace(/[()]/g, '\\$&');
}

/** Inline text from block content (a card link around a heading and a paragraph). */
function inline(content: string): string {
  return content.replace(/^#{1,6}\s+/gm, '').replace(/\s*\n\s*/g, ' ').trim();
}

/** Position of each `<li>` among its list's items, computed once per list (a lookup per item is quadratic). */
const itemIndexes = new WeakMap<Element, Map<Element, number>>();

function itemIndex(list: Element, item: Element): number {
  let indexes = itemIndexes.get(list);
  if (!indexes) {
    indexes = new Map();
    for (const child of Array.from(list.children)) if (child.nodeName === 'LI') indexes.set(child, indexes.size);
    itemIndexes.set(list, indexes);
  }
  return indexes.get(item) ?? 0;
}

function createService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  });
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
      // A link with nothing to click (an icon whose svg was removed) is noise in markdown.
      return text ? `[${text}](${destination(node.getAttribute('href')!)})` : '';
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = node.getAttribute('src')?.trim();
      // data: URIs are placeholders or inline blobs: kilobytes of base64 an LLM cannot use.
      if (!src || src.startsWith('data:')) return '';
      const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
      return `![${alt}](${destination(src)})`;
    },
  });
  service.addRule('strikethrough', {
    filter: ['del', 's'],
    replacement: (content) => (content.trim() ? `~~${content}~~` : ''),
  });
  addTableRules(service);
  return service;
}

const service = createService();

/**
 * Tidies turndown's output outside code blocks: at most one blank line in a row, no whitespace-only
 * lines. Code keeps its blank lines.
 */
export function tidyMarkdown(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  let blank = 0;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (opener && line.trim() === opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) fence = opener;
    if (line.trim() === '') {
      if (++blank > 1 || out.length === 0) continue;
      out.push('');
    } else {
      blank = 0;
      out.push(line);
    }
  }
  return out.join('\n').trim();
}

/** Markdown for the children of `root` (typically the cleaned body). */
/**
 * Markdown of `root`'s content. Consumes the tree: turndown clones a node it is given, because its
 * whitespace pass edits the tree; the caller reads nothing after this, so it converts in place and
 * skips the copy (a deep clone of the whole body, ~5 % of a page's conversion).
 */
export function toMarkdown(root: Element): string {
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true });
  try {
    return tidyMarkdown(service.turndown(root as HTMLElement));
  } finally {
    delete (root as { cloneNode?: unknown }).cloneNode;
  }
}
