/** Reading what GET /metrics answers (Prometheus text) in tests. */

export type Labels = Record<string, string>;

/** The samples of `name` in a Prometheus text exposition, with their labels. */
export function samples(text: string, name: string): { labels: Labels; value: number }[] {
  const out: { labels: Labels; value: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Labels = {};
    for (const pair of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

/** The one sample of `name` whose labels include `where`; undefined when there is none. */
export function sample(text: string, name: string, where: Labels = {}): number | undefined {
  const found = samples(text, name).filter((s) => Object.entries(where).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(where)} matches ${found.length} samples`);
  return found[0]?.value;
}

/** GET /metrics, with a bearer token unless `token` is null. */
export async function scrapeMetrics(url: string, token: string | null): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}
