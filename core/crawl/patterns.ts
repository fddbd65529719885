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
 *   (or whitespace-only) pattern, one longer than 500 characters, one that unrolls to more than
 *   MAX_PATTERN_SIZE atoms (`[a-z]{1000}` is a thousand; see regex-size.ts), patterns that
 *   together pass MAX_REQUEST_SIZE, or a regex RE2 cannot compile. These checks read the text
 *   before RE2 compiles anything, so a costly pattern is refused in microseconds and the bounded
 *   ones compile in tens of milliseconds at most. Leading and trailing whitespace is ignored.
 * - **Compiled sets are cached** (the last CACHE_SIZE lists), so a crawl's lanes and the checks of
 *   a monitor's targets compile a list once.
 */
import { RE2JS, RE2JSException } from 're2js';
import { pathGlobSource, urlGlobSource } from './glob.js';
import { expandedSize } from './regex-size.js';

/** Longest accepted pattern, in characters. */
export const MAX_PATTERN_LENGTH = 500;
/** Atoms one pattern may unroll to (counted repeats multiply). */
export const MAX_PATTERN_SIZE = 5_000;
/** Atoms all the patterns of one request may unroll to (both lists, every monitor target). */
export const MAX_REQUEST_SIZE = 50_000;
const CACHE_SIZE = 200;

export type PatternErrorReason = 'empty' | 'too_long' | 'too_complex' | 'too_complex_together' | 'invalid_regex';

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
      too_complex: `repeats too much: it unrolls to more than ${MAX_PATTERN_SIZE} characters or classes (lower the counts in {n,m})`,
      too_complex_together: `brings the patterns of this request past ${MAX_REQUEST_SIZE} characters or classes once repeats are unrolled (use fewer or simpler patterns)`,
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
  /** What the request may still compile, shared by its lists (MAX_REQUEST_SIZE when not given). */
  budget?: PatternBudget;
}

/** The unrolled size a request may still spend on patterns. */
export interface PatternBudget {
  left: number;
}

export function patternBudget(): PatternBudget {
  return { left: MAX_REQUEST_SIZE };
}

/** True when any of the patterns matches the URL; always false for an empty list. */
export type UrlMatcher = (url: URL) => boolean;

interface Compiled {
  raw: string;
  source: string;
  target: 'path' | 'url';
}

const cache = new Map<string, UrlMatcher>();

/** Compile once per list (cached); throws PatternError for the first refused pattern. */
export function compilePatterns(patterns: readonly string[], options: PatternOptions): UrlMatcher {
  if (patterns.length === 0) return () => false;
  const key = `${options.fullUrl ? 'url' : 'path'}\n${patterns.join('\u0000')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const budget = options.budget ?? patternBudget();
  const compiled = patterns.map((raw, index) => translate(raw, index, options, budget));
  const path = combine(compiled, 'path', options);
  const full = combine(compiled, 'url', options);
  const matcher: UrlMatcher = (url) => {
    const paths = pathForms(url);
    if (path && withDecoded(paths).some((s) => path.test(s))) return true;
    return !!full && withDecoded(paths.map((p) => `${url.protocol}//${url.host}${p}${url.search}`)).some((s) => full.test(s));
  };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, matcher);
  return matcher;
}

/**
 * One alternation per target, so a URL is scanned once however many patterns there are (RE2
 * runs an alternation in a single pass); group-scoped flags such as `(?i)` stay in their group.
 * Only when the alternation does not compile is each pattern compiled alone, to name the culprit.
 */
function combine(all: Compiled[], target: Compiled['target'], options: PatternOptions): RE2JS | undefined {
  const list = all.map((c, index) => ({ ...c, index })).filter((c) => c.target === target);
  if (list.length === 0) return undefined;
  try {
    return RE2JS.compile(list.map((c) => `(?:${c.source})`).join('|'));
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    for (const c of list) {
      try {
        RE2JS.compile(c.source);
      } catch (one) {
        if (!(one instanceof RE2JSException)) throw one;
        throw new PatternError(c.index, c.raw, 'invalid_regex', options.field, one.message.replace(/^error parsing regexp: /, ''));
      }
    }
    throw err;
  }
}

/** A pattern's regex source and target, refused before compiling when empty, long or costly. */
function translate(raw: string, index: number, options: PatternOptions, budget: PatternBudget): Compiled {
  const pattern = raw.trim();
  const fail = (reason: PatternErrorReason) => new PatternError(index, raw, reason, options.field);
  if (pattern === '') throw fail('empty');
  if (pattern.length > MAX_PATTERN_LENGTH) throw fail('too_long');
  const regex = isRegexPattern(pattern);
  // A glob starting with a single `/` cannot be a URL, so it keeps matching the path.
  const pathGlob = !regex && /^\/(?!\/)/.test(pattern);
  const target = options.fullUrl && !pathGlob ? 'url' : 'path';
  const source = regex ? pattern : target === 'url' ? urlGlobSource(pattern) : pathGlobSource(pattern);
  const size = expandedSize(source);
  if (size > MAX_PATTERN_SIZE) throw fail('too_complex');
  budget.left -= size;
  if (budget.left < 0) throw fail('too_complex_together');
  return { raw, source, target };
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
