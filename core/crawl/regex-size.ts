/**
 * What a regular expression will cost to compile, read from its text before RE2 sees it.
 *
 * RE2 runs in linear time, but it compiles counted repeats by copying: `[a-z]{1000}` becomes a
 * thousand instructions, and `(?:[a-z]{1000}){45}` forty-five thousand, which takes re2js seconds
 * on the event loop before it gives up with "expression too large". `expandedSize` counts the
 * atoms a pattern expands to, multiplying a counted repeat's atom or group by its upper bound, so
 * the caller can refuse a costly pattern in microseconds.
 */

const COUNTED = /^\{(\d+)(?:,(\d*))?\}/;

/** Length of the character class opening at `start` (`[`), escapes and `[:alpha:]` included. */
function classLength(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++; // a leading `]` is a literal
  while (i < source.length && source[i] !== ']') {
    if (source[i] === '\\') i += 2;
    else if (source.startsWith('[:', i)) {
      const end = source.indexOf(':]', i + 2);
      i = end < 0 ? i + 1 : end + 2;
    } else i++;
  }
  return i + 1 - start;
}

/** Length of the escape at `start` (`\`): `\d`, `\x{41}`, `\p{Greek}`, `\pL`, `\Q…\E`. */
function escapeLength(source: string, start: number): number {
  const kind = source[start + 1];
  if ((kind === 'x' || kind === 'p' || kind === 'P') && source[start + 2] === '{') {
    const end = source.indexOf('}', start + 3);
    return end < 0 ? 2 : end + 1 - start;
  }
  if (kind === 'Q') {
    const end = source.indexOf('\\E', start + 2);
    return end < 0 ? source.length - start : end + 2 - start;
  }
  return kind === 'p' || kind === 'P' ? 3 : 2;
}

/** The number of atoms `source` expands to once counted repeats are unrolled (an upper bound). */
export function expandedSize(source: string): number {
  const outer: number[] = [];
  let size = 0;
  let last = 0; // size of the atom or group a quantifier would apply to
  for (let i = 0; i < source.length; ) {
    const c = source[i];
    if (c === '(') {
      outer.push(size);
      size = 0;
      last = 0;
      i++;
      // `(?:`, `(?i:`, `(?P<name>`: the group's prefix is no atom; `(?i)` closes at once.
      if (source[i] === '?') while (i < source.length && !':>)'.includes(source[i])) i++;
      if (source[i] === ':' || source[i] === '>') i++;
      continue;
    }
    if (c === ')') {
      last = size;
      size = (outer.pop() ?? 0) + size;
      i++;
      continue;
    }
    if (c === '{') {
      const m = COUNTED.exec(source.slice(i, i + 24));
      if (m) {
        const times = Math.max(Number(m[1]), m[2] ? Number(m[2]) : 0);
        size += last * Math.max(times - 1, 0);
        last *= Math.max(times, 1);
        i += m[0].length;
        continue;
      }
    }
    if (c === '*' || c === '+' || c === '?' || c === '|') {
      i++;
      continue;
    }
    const length = c === '[' ? classLength(source, i) : c === '\\' ? escapeLength(source, i) : 1;
    // `\Q…\E` quotes its characters one by one.
    last = c === '\\' && source[i + 1] === 'Q' ? Math.max(length - 4, 0) : 1;
    size += last;
    i += length;
  }
  while (outer.length > 0) size += outer.pop()!;
  return size;
}
