/**
 * What the markdown converter (markdown.ts) writes for each node: page text with markdown syntax
 * escaped, and each element's markdown given its converted content. The rules that differ from
 * turndown's own are exported for its reference configuration (test/helpers/turndown-markdown.ts).
 */
import { ELEMENT_NODE, findDescendant, TEXT_NODE } from './dom.js';
import { dataCell, dataTable, inDataTable, isDataTable } from './markdown-tables.js';

const ESCAPES: Array<[RegExp, string]> = [
  [/\\/g, '\\\\'], [/\*/g, '\\*'], [/^-/g, '\\-'], [/^\+ /g, '\\+ '], [/^(=+)/g, '\\$1'], [/^(#{1,6}) /g, '\\$1 '], [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'], [/\[/g, '\\['], [/\]/g, '\\]'], [/^>/g, '\\>'], [/_/g, '\\_'], [/^(\d+)\. /g, '$1\\. '],
];
/** Whether any of ESCAPES can apply: a character escaped anywhere, or one that starts a block. */
const NEEDS_ESCAPE = /[\\*`[\]_]|^[-+=#~>\d]/;

/** Markdown syntax in page text made literal, exactly as turndown escapes it. */
export function escapeText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  for (const [pattern, replacement] of ESCAPES) text = text.replace(pattern, replacement);
  return text;
}

/** Language from `language-x` / `lang-x` classes, as highlighters and CommonMark renderers emit. */
function codeLanguage(pre: Element): string {
  for (const el of [findDescendant(pre, (e) => e.localName === 'code'), pre]) {
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(el?.getAttribute('class') ?? '');
    if (m) return m[1];
  }
  return pre.getAttribute('data-lang')?.replace(/[^\w+#.-]/g, '') ?? '';
}

/** A highlighter's line of code: `<span class="token-line">`, `gatsby-highlight-code-line`, `line`. */
const LINE_CLASS = /(?:^|[\s_-])line(?:$|\s)/i;

/**
 * Text of a code block; `<br>`, per-line block elements and spans named as lines (some
 * highlighters, whose CSS makes them blocks) become newlines. A line span already followed by a
 * newline (Shiki writes one between them) gets no second one.
 */
function codeText(node: Node): string {
  let out = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) out += child.nodeValue ?? '';
    else if (child.nodeName === 'BR') out += '\n';
    else if (child.nodeType === ELEMENT_NODE) {
      out += codeText(child);
      if (out.endsWith('\n')) continue;
      if (child.nodeName === 'DIV' || child.nodeName === 'P') out += '\n';
      else if (LINE_CLASS.test((child as Element).getAttribute('class') ?? '') && child.nextSibling && !(child.nextSibling.nodeType === TEXT_NODE && child.nextSibling.nodeValue?.startsWith('\n'))) out += '\n';
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

export function codeBlock(pre: Element): string {
  const code = codeText(pre).replace(/\n$/, '');
  const fence = fenceFor(code);
  return `\n\n${fence}${codeLanguage(pre)}\n${code}\n${fence}\n\n`;
}

/** Inline code: backticks around, more of them than any run inside. */
function inlineCode(content: string): string {
  if (!content) return '';
  const code = content.replace(/\r?\n|\r/g, ' ');
  const extraSpace = /^`|^ .*?[^ ].* $|`$/.test(code) ? ' ' : '';
  const runs: string[] = code.match(/`+/gm) ?? [];
  let delimiter = '`';
  while (runs.includes(delimiter)) delimiter += '`';
  return delimiter + extraSpace + code + extraSpace + delimiter;
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

export function heading(el: Element, content: string): string {
  const text = inline(content);
  return text ? `\n\n${'#'.repeat(Number(el.nodeName[1]))} ${text}\n\n` : '';
}

export function image(img: Element): string {
  const src = img.getAttribute('src')?.trim();
  // data: URIs are placeholders or inline blobs: kilobytes of base64 an LLM cannot use.
  if (!src || src.startsWith('data:')) return '';
  const alt = (img.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
  return `![${alt}](${destination(src)})`;
}

export function link(href: string, content: string): string {
  const text = inline(content);
  // A link with nothing to click (an icon whose svg was removed) is noise in markdown.
  return text ? `[${text}](${destination(href)})` : '';
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

export function listItem(li: Element, content: string): string {
  const parent = li.parentElement;
  let marker = '- ';
  if (parent?.nodeName === 'OL') {
    const start = Number(parent.getAttribute('start') ?? 1);
    marker = `${(Number.isFinite(start) ? start : 1) + itemIndex(parent, li)}. `;
  }
  const body = content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/\n/g, `\n${' '.repeat(marker.length)}`);
  return marker + body + (li.nextSibling ? '\n' : '');
}

function list(el: Element, content: string): string {
  const parent = el.parentNode as Element | null;
  // A list ending an item continues it.
  if (parent?.nodeName === 'LI' && parent.lastElementChild === el) return `\n${content}`;
  return `\n\n${content}\n\n`;
}

function blockquote(content: string): string {
  return `\n\n${content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/^/gm, '> ')}\n\n`;
}

/**
 * What `el` becomes. `upper` is its name in upper case; `html` says the name was upper case
 * already (an HTML element): turndown matches some rules by exact name (these need `html`) and
 * others whatever the case.
 */
export function replacement(el: Element, upper: string, html: boolean, block: boolean, content: string): string {
  switch (upper) {
    case 'TABLE':
      if (html && isDataTable(el)) return dataTable(el, content);
      break;
    case 'CAPTION':
      if (html) return `\n\n${content.trim()}\n\n`;
      break;
    case 'TR': case 'THEAD': case 'TBODY': case 'TFOOT':
      if (html && inDataTable(el)) return '';
      break;
    case 'TD': case 'TH':
      if (html && inDataTable(el)) return dataCell(el, content);
      break;
    case 'DEL': case 'S':
      return content.trim() ? `~~${content}~~` : '';
    case 'IMG':
      return image(el);
    case 'A': {
      const href = html ? el.getAttribute('href') : null;
      if (href) return link(href, content);
      break;
    }
    case 'LI':
      return listItem(el, content);
    case 'PRE':
      return codeBlock(el);
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6':
      return heading(el, content);
    case 'P':
      return `\n\n${content}\n\n`;
    case 'BR':
      return '  \n';
    case 'BLOCKQUOTE':
      return blockquote(content);
    case 'UL': case 'OL':
      return list(el, content);
    case 'HR':
      return '\n\n---\n\n';
    case 'EM': case 'I':
      return content.trim() ? `*${content}*` : '';
    case 'STRONG': case 'B':
      return content.trim() ? `**${content}**` : '';
    case 'CODE': {
      // A <pre>'s only child is the block's code, not inline code.
      const codeOfBlock = el.parentNode?.nodeName === 'PRE' && !el.previousSibling && !el.nextSibling;
      if (html && !codeOfBlock) return inlineCode(content);
      break;
    }
  }
  return block ? `\n\n${content}\n\n` : content;
}
