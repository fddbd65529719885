/**
 * Whether a fetched page is plainly script-rendered, so a browser should render it (chain.ts):
 * scripts present and either an empty app root (`<div id="root"></div>`) or almost no text outside
 * scripts, styles and tags. Runs on every fetched HTML page, on the worker's main thread, so it
 * reads the page once and stops as soon as it has seen enough text: a page with content costs a
 * few hundred characters of scanning, not the whole body.
 */
import type { EngineResult } from './types.js';

/** Fewer visible characters than this (whitespace runs count as one) and the page is script-rendered. */
export const MIN_VISIBLE_TEXT = 100;

const SCRIPT = /<script\b/i;
/** A cheap first look for an app root's id; the full pattern runs only where one appears. */
const APP_ROOT_ID = /\bid=["']?(?:root|app|__next|__nuxt)\b/i;
const EMPTY_APP_ROOT = /<div[^>]+id=["']?(root|app|__next|__nuxt)["']?[^>]*>\s*<\/div>/i;
const BODY = /<body\b/i;
/** Elements whose content is not text a reader sees. Sticky: tried at one position. */
const HIDDEN_OPEN = /<(script|style|noscript|template)\b/iy;
const HIDDEN_CLOSE: Record<string, RegExp> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  noscript: /<\/noscript\s*>/gi,
  template: /<\/template\s*>/gi,
};
const ENTITY = /&[a-z#0-9]+;/iy;

/** The characters JavaScript's `\s` matches. */
function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
}

/**
 * Reads `html` once, left to right: hidden elements (an opener up to the first closer of its name)
 * are removed first and a tag runs from `<` to the next `>` outside them, as if the page had been
 * cleaned in that order. What it learns about the rest of the page (no closer of a name, no `>`)
 * it remembers, so pages full of unclosed `<` stay linear.
 */
class Scanner {
  private readonly noCloser = new Set<string>();
  private noTagEnd = false;

  constructor(private readonly html: string) {}

  /** Index after the hidden element opening at `i` (closed), or -1. */
  hiddenEnd(i: number): number {
    HIDDEN_OPEN.lastIndex = i;
    const open = HIDDEN_OPEN.exec(this.html);
    if (!open) return -1;
    const name = open[1]!.toLowerCase();
    if (this.noCloser.has(name)) return -1;
    const close = HIDDEN_CLOSE[name]!;
    close.lastIndex = i;
    const end = close.exec(this.html);
    if (!end) {
      this.noCloser.add(name);
      return -1;
    }
    return end.index + end[0].length;
  }

  /** Index after the tag opening at `i`, or -1 when this `<` is text (nothing before the next `>`, or no `>`). */
  tagEnd(i: number): number {
    if (this.noTagEnd) return -1;
    let empty = true;
    for (let j = i + 1; j < this.html.length; ) {
      const c = this.html.charCodeAt(j);
      if (c === 62 /* > */) return empty ? -1 : j + 1;
      const skipped = c === 60 ? this.hiddenEnd(j) : -1;
      j = skipped >= 0 ? skipped : j + 1;
      empty = false;
    }
    this.noTagEnd = true;
    return -1;
  }
}

/**
 * Whether `html` from `from` on holds at least `needed` characters of visible text, counted as the
 * text with hidden elements, tags and entities taken for spaces, whitespace runs collapsed to one
 * space and the ends trimmed.
 */
export function hasVisibleText(html: string, from: number, needed: number): boolean {
  const scan = new Scanner(html);
  let count = 0;
  let space = false;
  let i = from;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 60 /* < */) {
      let end = scan.hiddenEnd(i);
      if (end < 0) end = scan.tagEnd(i);
      if (end >= 0) {
        i = end;
        space = true;
        continue;
      }
    } else if (c === 38 /* & */) {
      ENTITY.lastIndex = i;
      if (ENTITY.test(html)) {
        i = ENTITY.lastIndex;
        space = true;
        continue;
      }
    } else if (isSpace(c)) {
      space = true;
      i++;
      continue;
    }
    if (space && count > 0) count++;
    space = false;
    count++;
    if (count >= needed) return true;
    i++;
  }
  return false;
}

export function looksScriptRendered(result: Pick<EngineResult, 'contentType' | 'body'>): boolean {
  const type = result.contentType?.toLowerCase() ?? '';
  if (type && !type.includes('html')) return false;
  const html = typeof result.body === 'string' ? result.body : Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength).toString('latin1');
  if (!SCRIPT.test(html)) return false;
  if (APP_ROOT_ID.test(html) && EMPTY_APP_ROOT.test(html)) return true;
  const bodyStart = html.search(BODY);
  return !hasVisibleText(html, bodyStart < 0 ? 0 : bodyStart, MIN_VISIBLE_TEXT);
}
