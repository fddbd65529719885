/**
 * The pure parts of extract jobs (README "Extract jobs"): URL patterns, chunking a page for the
 * model's context, and merging the pages' answers into one, with the sources of each field.
 */

/** `https://site/docs/*` → a matcher, or undefined for a plain URL. `*` matches one character or more, `/` included. */
export function urlPattern(url: string): RegExp | undefined {
  if (!url.includes('*')) return undefined;
  const body = url.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.+');
  return new RegExp(`^${body}$`, 'i');
}

/** Where a pattern's site is mapped from: the part before the first `*`, up to its last `/`. */
export function patternBase(url: string): string {
  const head = url.slice(0, url.indexOf('*'));
  return head.slice(0, head.lastIndexOf('/') + 1) || head;
}

/** The markdown in pieces of at most `size` characters, cut at a paragraph break where one is near. */
export function chunksOf(markdown: string, size: number): string[] {
  const out: string[] = [];
  let rest = markdown;
  while (rest.length > size) {
    const cut = rest.lastIndexOf('\n\n', size);
    const at = cut > size / 2 ? cut : size;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n+/, '');
  }
  if (rest.length || out.length === 0) out.push(rest);
  return out;
}

export interface PageAnswer {
  url: string;
  data: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * One answer from the pages' answers, in page order: for each top-level field, lists are joined
 * (without repeats), anything else is the first page's value that is not empty. `sources` says which
 * URLs gave each field. Answers that are not objects are listed under `items`.
 */
export function mergeAnswers(answers: PageAnswer[]): { data: Record<string, unknown>; sources: Record<string, string[]> } {
  const data: Record<string, unknown> = {};
  const sources: Record<string, string[]> = {};
  const cite = (field: string, url: string) => {
    const list = (sources[field] ??= []);
    if (!list.includes(url)) list.push(url);
  };
  for (const { url, data: answer } of answers) {
    const fields = isObject(answer) ? answer : { items: [answer] };
    for (const [field, value] of Object.entries(fields)) {
      if (empty(value)) {
        if (!(field in data)) data[field] = value ?? null;
        continue;
      }
      if (Array.isArray(value)) {
        const list = Array.isArray(data[field]) ? (data[field] as unknown[]) : [];
        const seen = new Set(list.map((v) => JSON.stringify(v)));
        for (const item of value) {
          const key = JSON.stringify(item);
          if (seen.has(key)) continue;
          seen.add(key);
          list.push(item);
        }
        data[field] = list;
        cite(field, url);
      } else if (empty(data[field])) {
        data[field] = value;
        cite(field, url);
      }
    }
  }
  return { data, sources };
}
