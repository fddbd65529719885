/**
 * includePaths / excludePaths (spec: Crawl options, Map options).
 *
 * The spec calls these globs, while `regexOnFullURL` and clients written for the hosted API send
 * regular expressions (`^/blog/.*`). One rule serves both:
 *
 * - **Regex or glob.** A pattern is a regular expression when it starts with `^`, ends with `$`,
 *   or contains syntax that only a regex uses: a backslash (`\d`, `\.`, `\/`), `.*` or `.+`,
 *   `|`, a group opened with `(?`, a quantified group (`)*`, `)+`, `)?`, `){`), a character class
 *   `[…]`, or a counted repeat `{n}` / `{n,m}`. Unbalanced `(` `)` or `[` `]` also make a regex
 *   (a broken one, refused below): a typo in a regex is far likelier than such a path. Anything
 *   else is a glob, whose other characters stand for themselves (`/wiki/Foo_(bar)`, `/c++`).
 * - **Globs.** `*` matches within one path segment, `**` across segments, `?` one character
 *   other than `/`; `/**\/` also matches no folder (`/docs/**\/intro` matches `/docs/intro`).
 *   A glob starting with `/`, or with a `/` inside it, is anchored at the start of the path
 *   (`blog/**` ≡ `/blog`: it matches `/blog/x`, not `/en/blog/x`). A glob without any `/` matches
 *   at any folder level, as in .gitignore (`*.pdf` matches `/docs/a.pdf`, `blog` matches
 *   `/en/blog/x`). A glob matches the whole path or a prefix ending at a `/`, so `/blog` matches
 *   `/blog` and `/blog/post` but not `/blogroll`, and `/blog/*` also matches `/blog/a/b`. For
 *   "exactly one level", use a regex: `^/blog/[^/]+$`.
 * - **Regexes** are searched, not anchored (`RegExp.prototype.test`), as hosted-API clients
 *   expect: `blog` as a regex would match `/myblog`. Add `^` and `$` to anchor. They run on RE2
 *   (linear time), so nested quantifiers such as `(a+)+` are harmless and accepted, while
 *   lookaround and backreferences, which need backtracking, are rejected. RE2's `(?i)` switches
 *   on case-insensitive matching; matching is case-sensitive otherwise.
 * - **What is matched.** The URL path without the query (`/blog/post`); with regexOnFullURL,
 *   the full URL without the fragment (`https://example.com/blog/post?page=2`). A full-URL glob
 *   is anchored at the start of the URL and assumes `*://` when it names no scheme
 *   (`example.com/blog/*` ≡ `*://example.com/blog/*`); it may end at a `/` or the query's `?`.
 *   A glob starting with `/` still matches the path, since it cannot be a URL.
 * - **Spellings.** A path is tried with and without its trailing slash, percent-encoded as sent
 *   and decoded (`/caf%C3%A9` and `/café`), and a pattern matches if any spelling does: the crawl
 *   stores `/blog` and `/blog/` as one page, so the verdict must not depend on which was seen
 *   (hence `/blog/*` and `^/blog/.*` also match `/blog` itself).
 * - **Invalid patterns** are refused with 400 naming the field (`includePaths[2]`): an empty
 *   (or whitespace-only) pattern, one longer than 500 characters, or a regex RE2 cannot compile.
 *   Leading and trailing whitespace is ignored.
 */
import { RE2JS, RE2JSException } from 're2js';
import { pathGlobSource, urlGlobSource } from './glob.js';

/** Longest accepted pattern, in characters. */
export const MAX_PATTERN_LENGTH = 500;

export type PatternErrorReason = 'empty' | 'too_long' | 'invalid_regex';

/**
 * A pattern the API must refuse. `index` is its position in the list, so the API can name it
 * (`includePaths[2]`, also `path` when `field` was given); the message describes the pattern
 * without naming the field, so it reads well after one: `includePaths[2] pattern "(" is …`.
 */
export class PatternError extends Error {
  override readonly name = 'PatternError';

  constructor(
    readonly index: number,
    readonly pattern: string,
    readonly reason: PatternErrorReason,
    readonly field = 'patterns',
    detail?: string,
  ) {
    const shown = JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern);
    const what = {
      empty: 'is empty',
      too_long: `is longer than ${MAX_PATTERN_LENGTH} characters`,
      invalid_regex: `is not a valid regular expression${detail ? ` (${detail})` : ''}`,
    }[reason];
    super(`pattern ${shown} ${what}`);
  }

  get path(): string {
    return `${this.field}[${this.index}]`;
  }
}

const REGEX_SIGNS = [/^\^/, /\$$/, /\\/, /\.[*+]/, /\|/, /\(\?/, /\)[*+?{]/, /\[[^\]]+\]/, /\{\d+(?:,\d*)?\}/];

/** Whether a pattern is read as a regular expression (else it is a glob); see the rule above. */
export function isRegexPattern(pattern: string): boolean {
  return REGEX_SIGNS.some((sign) => sign.test(pattern)) || !balanced(pattern, '(', ')') || !balanced(pattern, '[', ']');
}

/** Whether every `close` has an earlier `open` and every `open` is closed. */
function balanced(text: string, open: string, close: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === open) depth++;
    else if (ch === close && --depth < 0) return false;
  }
  return depth === 0;
}

export interface PatternOptions {
  /** regexOnFullURL: match the full URL instead of the path. */
  fullUrl: boolean;
  /** Request field the patterns came from, for error messages (`includePaths`). */
  field?: string;
}

/** True when any of the patterns matches the URL; always false for an empty list. */
export type UrlMatcher = (url: URL) => boolean;

interface Compiled {
  source: string;
  target: 'path' | 'url';
}

/** Compile once per crawl; throws PatternError for the first invalid pattern. */
export function compilePatterns(patterns: readonly string[], options: PatternOptions): UrlMatcher {
  const compiled = patterns.map((raw, index) => compileOne(raw, index, options));
  const path = combine(compiled.filter((c) => c.target === 'path'));
  const full = combine(compiled.filter((c) => c.target === 'url'));
  if (!path && !full) return () => false;
  return (url) => {
    const paths = pathForms(url);
    if (path && withDecoded(paths).some((s) => path.test(s))) return true;
    return !!full && withDecoded(paths.map((p) => `${url.protocol}//${url.host}${p}${url.search}`)).some((s) => full.test(s));
  };
}

/**
 * One alternation per target, so a URL is scanned once however many patterns there are (RE2
 * runs an alternation in a single pass); group-scoped flags such as `(?i)` stay in their group.
 */
function combine(list: Compiled[]): RE2JS | undefined {
  if (list.length === 0) return undefined;
  return RE2JS.compile(list.map((c) => `(?:${c.source})`).join('|'));
}

function compileOne(raw: string, index: number, options: PatternOptions): Compiled {
  const pattern = raw.trim();
  const fail = (reason: PatternErrorReason, detail?: string) => new PatternError(index, raw, reason, options.field, detail);
  if (pattern === '') throw fail('empty');
  if (pattern.length > MAX_PATTERN_LENGTH) throw fail('too_long');
  const regex = isRegexPattern(pattern);
  // A glob starting with a single `/` cannot be a URL, so it keeps matching the path.
  const pathGlob = !regex && /^\/(?!\/)/.test(pattern);
  const target = options.fullUrl && !pathGlob ? 'url' : 'path';
  const source = regex ? pattern : target === 'url' ? urlGlobSource(pattern) : pathGlobSource(pattern);
  try {
    RE2JS.compile(source); // compiled alone first, so an error names this pattern
    return { source, target };
  } catch (err) {
    if (err instanceof RE2JSException) throw fail('invalid_regex', err.message.replace(/^error parsing regexp: /, ''));
    throw err;
  }
}

function decoded(text: string): string | undefined {
  try {
    const out = decodeURI(text);
    return out === text ? undefined : out;
  } catch {
    return undefined;
  }
}

/** The path with and without its trailing slash (the crawl stores both as one page). */
function pathForms(url: URL): string[] {
  const path = url.pathname || '/';
  const bare = path.replace(/\/+$/, '') || '/';
  return bare === '/' ? ['/'] : path === bare ? [path, `${path}/`] : [path, bare];
}

/** Each form as sent (percent-encoded) and, where it differs, decoded. */
function withDecoded(forms: string[]): string[] {
  const out = new Set(forms);
  for (const form of forms) {
    const d = decoded(form);
    if (d !== undefined) out.add(d);
  }
  return [...out];
}
