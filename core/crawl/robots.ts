/**
 * robots.txt (RFC 9309), the pure half: parsing and matching. Fetching is the activity's job;
 * `robotsFromFetch` says what each fetch outcome means.
 *
 * - **Our group.** The product token is taken from SERVICE_USER_AGENT (`PagewrightBot/0.1` →
 *   `PagewrightBot`; in a browser-style string, the name after `compatible;`). Every group naming
 *   it, case-insensitively, applies (merged); if none does, every `*` group applies; if there is
 *   no `*` group either, everything is allowed. A `User-agent` value is read up to its first
 *   character outside letters, `-` and `_`, so `PagewrightBot/1.0` names us too.
 * - **Rules.** `Allow` / `Disallow` paths match from the start of the URL's path plus query;
 *   `*` is any run of characters, a final `$` anchors the end. The longest matching rule wins,
 *   `Allow` wins a tie, no match allows. An empty `Disallow` allows everything. A rule path that
 *   starts with neither `/` nor `*` gets a leading `/`. Percent-escapes of unreserved characters
 *   are decoded and non-ASCII characters encoded on both sides before comparing, as the RFC says.
 *   `/robots.txt` itself is always allowed. Matching is linear in path × rule length (no regex).
 * - **Crawl-delay** of our group, in seconds (fractions allowed), becomes `crawlDelayMs`, capped
 *   at MAX_CRAWL_DELAY_MS (10 s) so one site cannot stall a crawl for hours; the largest value
 *   wins when several groups apply.
 * - **Sitemap** lines count wherever they stand (they belong to no group); relative ones are
 *   resolved against the robots.txt URL when it is given, else dropped.
 * - **Size.** Only the first 500 KiB are read (the RFC's minimum a crawler must parse).
 * - **Fetch outcomes** (`robotsFromFetch`): 2xx → the file's rules. 4xx other than 429 (404,
 *   401, 403 …) and redirects that never end → "unavailable": allow all. 5xx, 429, and no answer
 *   (network error, timeout) → "unreachable": disallow all, as RFC 9309 §2.3.1.4 requires; the
 *   activity should retry first, and callers can say why a crawl stopped from `source`.
 *   ignoreRobotsTxt skips all of this.
 */

/** Longest crawl delay honoured, in milliseconds. */
export const MAX_CRAWL_DELAY_MS = 10_000;
/** robots.txt content read, in characters (fetchers may stop reading after this many bytes). */
export const MAX_ROBOTS_SIZE = 500 * 1024;

export interface RobotsRules {
  isAllowed(url: URL): boolean;
  /** Our group's Crawl-delay in ms, capped at MAX_CRAWL_DELAY_MS; absent when none or zero. */
  crawlDelayMs?: number;
  /** Absolute sitemap URLs, in file order, without duplicates. */
  sitemaps: string[];
  /** Where the rules came from: a parsed file, none (allow all) or an unreachable host (disallow all). */
  source: 'file' | 'unavailable' | 'unreachable';
}

interface Rule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
  delays: number[];
}

/** The robots.txt product token of a User-Agent string. */
export function productToken(userAgent: string): string {
  const m = /compatible;\s*([A-Za-z_-]+)/i.exec(userAgent) ?? /^\s*([A-Za-z_-]+)/.exec(userAgent);
  return m?.[1] ?? '';
}

export function parseRobots(text: string, userAgent: string, robotsUrl?: string): RobotsRules {
  const groups: Group[] = [];
  const sitemaps = new Set<string>();
  let current: Group | undefined;
  let inAgentLines = false;
  for (const raw of text.slice(0, MAX_ROBOTS_SIZE).replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const m = /^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*$/.exec(raw.replace(/#.*/, ''));
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = m[2];
    if (key === 'user-agent') {
      // Consecutive User-agent lines share one group; one after a rule starts the next group.
      if (!current || !inAgentLines) groups.push((current = { agents: [], rules: [], delays: [] }));
      current.agents.push((/^(\*|[A-Za-z_-]+)/.exec(value)?.[1] ?? '').toLowerCase());
      inAgentLines = true;
    } else if (key === 'sitemap') {
      const url = absoluteHttp(value, robotsUrl);
      if (url) sitemaps.add(url);
    } else if (current && (key === 'allow' || key === 'disallow' || key === 'crawl-delay')) {
      inAgentLines = false;
      if (key === 'crawl-delay') {
        const seconds = /^\d*\.?\d+/.exec(value)?.[0];
        if (seconds !== undefined) current.delays.push(Number(seconds));
      } else if (value !== '') {
        current.rules.push({ allow: key === 'allow', pattern: normalize(/^[/*]/.test(value) ? value : `/${value}`) });
      }
    }
  }
  const token = productToken(userAgent).toLowerCase();
  const ours = groups.filter((g) => token !== '' && g.agents.includes(token));
  const applied = ours.length ? ours : groups.filter((g) => g.agents.includes('*'));
  const rules = applied.flatMap((g) => g.rules);
  const delay = Math.max(0, ...applied.flatMap((g) => g.delays));
  return {
    isAllowed: (url) => isAllowed(rules, url),
    ...(delay > 0 ? { crawlDelayMs: Math.min(Math.round(delay * 1000), MAX_CRAWL_DELAY_MS) } : {}),
    sitemaps: [...sitemaps],
    source: 'file',
  };
}

/** What a robots.txt fetch means; see "Fetch outcomes" above. `status` is undefined when there was no answer. */
export function robotsFromFetch(status: number | undefined, text: string, userAgent: string, robotsUrl?: string): RobotsRules {
  if (status !== undefined && status >= 200 && status < 300) return parseRobots(text, userAgent, robotsUrl);
  const reachable = status !== undefined && status < 500 && status !== 429;
  return { isAllowed: () => reachable, sitemaps: [], source: reachable ? 'unavailable' : 'unreachable' };
}

function isAllowed(rules: Rule[], url: URL): boolean {
  const path = normalize(`${url.pathname || '/'}${url.search}`);
  if (path === '/robots.txt') return true;
  let best: Rule | undefined;
  for (const rule of rules) {
    if (!matches(rule.pattern, path)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    if (longer || (rule.pattern.length === best!.pattern.length && rule.allow)) best = rule;
  }
  return best?.allow ?? true;
}

/** Prefix match with `*` and a final `$`, tracking every reachable position (no backtracking). */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let positions = [0];
  for (const ch of body) {
    if (ch === '*') {
      const from = positions[0];
      positions = Array.from({ length: path.length - from + 1 }, (_, i) => from + i);
    } else {
      positions = positions.filter((p) => path[p] === ch).map((p) => p + 1);
      if (positions.length === 0) return false;
    }
  }
  return anchored ? positions.includes(path.length) : true;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** RFC 9309 §2.2.2: compare with unreserved escapes decoded and everything else encoded. */
function normalize(text: string): string {
  const encoded = text.replace(/[^\x21-\x7e]/gu, encodeChar);
  return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** A lone surrogate cannot be UTF-8 encoded; it becomes U+FFFD, as the URL parser does. */
function encodeChar(ch: string): string {
  try {
    return encodeURIComponent(ch);
  } catch {
    return '%EF%BF%BD';
  }
}

function absoluteHttp(value: string, base?: string): string | undefined {
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
