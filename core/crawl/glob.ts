/**
 * Glob patterns (includePaths / excludePaths) translated to anchored regular-expression sources.
 * The rules are documented in `patterns.ts`; this file only implements them. The sources are run
 * by RE2 (linear time), so no glob, however many wildcards it has, can make matching slow.
 */

/** Matches the scheme part of a full-URL glob: `https://`, `http*://`, `*://`. */
const SCHEME_RE = /^[a-z*?][a-z0-9+.*?-]*:\/\//i;

const escapeLiteral = (ch: string): string => (/[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch);

/**
 * The glob's wildcards as regex: `*` and `?` stay inside one segment, `**` crosses segments, and
 * `/**\/` (like a leading `**\/`) also matches no folder at all, so `/docs/**\/intro` matches
 * `/docs/intro`. Everything else is literal.
 */
function translate(glob: string): string {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    if (glob.startsWith('/**/', i)) {
      out += '(?:/.*)?/';
      i += 4;
    } else if (i === 0 && glob.startsWith('**/')) {
      out += '(?:.*/)?';
      i += 3;
    } else if (glob.startsWith('**', i)) {
      out += '.*';
      while (glob[i] === '*') i++;
    } else {
      const ch = glob[i++];
      out += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : escapeLiteral(ch);
    }
  }
  return out;
}

/**
 * Trailing `/` and `/**` add nothing: a glob already matches everything below the path it names.
 * `keep` is how many leading characters must survive (the `scheme://` of a full-URL glob).
 */
function stripTail(glob: string, keep = 0): string {
  let g = glob;
  for (;;) {
    const next = g.replace(/\/(?:\*\*+)?$/, '');
    if (next === g || next.length < keep) return g;
    g = next;
  }
}

/**
 * Regex source of a glob matched against a URL path (which always starts with `/`): a leading
 * `/` or any inner `/` anchors it at the path start; a glob without any `/` matches at any
 * folder level; it matches the whole path or a prefix ending at a `/`.
 */
export function pathGlobSource(glob: string): string {
  const g = stripTail(glob);
  // Decided before `/**` is stripped: `blog/**` names a folder at the root, like `/blog`.
  const inner = glob.replace(/\/+$/, '').includes('/');
  const anchor = g === '' || g.startsWith('/') ? '^' : inner ? '^/' : '^.*/';
  return `${anchor}${translate(g)}(?:/.*)?$`;
}

/**
 * Regex source of a glob matched against a full URL: anchored at the URL's start, `*://`
 * assumed when the glob names no scheme, matching the whole URL or a prefix ending at a `/` or
 * at the query's `?`.
 */
export function urlGlobSource(glob: string): string {
  const withScheme = SCHEME_RE.test(glob) ? glob : `*://${glob}`;
  const keep = withScheme.indexOf('://') + 4;
  return `^${translate(stripTail(withScheme, keep))}(?:[/?].*)?$`;
}
