/**
 * GFM tables for the markdown converter. Data tables become pipe tables; layout tables (those
 * holding another table or a heading of the top three ranks, as on old table-layout sites, where
 * a cell holds the article with its title) are unwrapped into plain blocks, since a grid of whole
 * page regions is unreadable as a pipe table, and a heading flattened into a cell is lost.
 *
 * Children convert before parents, so each data cell stores its converted content (`dataCell`)
 * and writes nothing in place; the table (`dataTable`), which sees the whole table, lays out the
 * grid from the stored cells. Header-less tables get an empty header row (GFM requires one;
 * promoting the first data row would change its meaning).
 */
import { ancestorWithTag, findDescendant } from './dom.js';

const cellText = new WeakMap<Element, string>();
const dataTableCache = new WeakMap<Element, boolean>();

/** What a data table's cell never holds: another table, or a title (`h1`–`h3`). */
const LAYOUT_INSIDE = new Set(['table', 'h1', 'h2', 'h3']);

/** A table with no table and no h1–h3 inside it. */
export function isDataTable(table: Element): boolean {
  let data = dataTableCache.get(table);
  if (data === undefined) {
    data = findDescendant(table, (el) => LAYOUT_INSIDE.has(el.localName)) === undefined;
    dataTableCache.set(table, data);
  }
  return data;
}

const TABLE = new Set(['table']);

/**
 * The element being converted. A table around it is not written (only its content is), so cells
 * whose table lies outside it are plain blocks: a main content root can be one cell or row of a
 * table, and as a data cell it would write nothing.
 */
let scope: Element | undefined;

/** Runs `convert` with tables looked for only up to `root` (see `scope`). */
export function withTableScope<T>(root: Element, convert: () => T): T {
  const outer = scope;
  scope = root;
  try {
    return convert();
  } finally {
    scope = outer;
  }
}

/** True when the nearest table around `node`, inside the element being converted, is a data table. */
export function inDataTable(node: Element): boolean {
  const table = ancestorWithTag(node, TABLE, scope?.parentElement ?? undefined);
  return table != null && isDataTable(table);
}

/** Keeps a data cell's converted content for its table; the cell itself writes nothing. */
export function dataCell(cell: Element, content: string): string {
  cellText.set(cell, flattenCell(content));
  return '';
}

/** One line per cell: breaks flattened, pipes escaped so they do not split the cell. */
function flattenCell(content: string): string {
  return content.trim().replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** The rows that belong to `table` itself, in order (thead, tbody, tfoot or bare). */
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of Array.from(table.children)) {
    if (child.localName === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.localName)) rows.push(...Array.from(child.children).filter((c) => c.localName === 'tr'));
  }
  return rows;
}

function rowCells(tr: Element): Element[] {
  return Array.from(tr.children).filter((c) => c.localName === 'td' || c.localName === 'th');
}

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

/** A data table's markdown; `content` holds only the caption, since rows and cells wrote nothing. */
export function dataTable(table: Element, content: string): string {
  const caption = content.trim();
  return `\n\n${caption ? `${caption}\n\n` : ''}${renderTable(table)}\n\n`;
}
