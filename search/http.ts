/** One request to a search provider, its JSON answer or a SearchProviderError that says what went wrong (never the key). */
import { request } from 'undici';
import { SearchProviderError } from './types.js';

export async function askProvider(name: string, url: URL, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal: AbortSignal }): Promise<unknown> {
  let res;
  try {
    res = await request(url, { method: init.method, headers: { accept: 'application/json', ...init.headers }, body: init.body, signal: init.signal });
  } catch (err) {
    if (init.signal.aborted) throw new SearchProviderError(`The search provider (${name}) did not answer in time.`);
    throw new SearchProviderError(`The search provider (${name}) could not be reached: ${(err as Error).message}.`);
  }
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new SearchProviderError(`The search provider (${name}) answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    // SearXNG answers 403 or HTML when its `json` format is off; a 200 with HTML is a misconfigured endpoint.
    throw new SearchProviderError(`The search provider (${name}) did not answer JSON${name === 'searxng' ? ': enable the json format in SearXNG (search.formats in settings.yml)' : ''}.`);
  }
}
