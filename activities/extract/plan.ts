/**
 * Which pages an extract job reads (README "Extract jobs"): the URLs given, each pattern's matches
 * from a map of its site, and with enableWebSearch the first web results for the prompt; deduplicated,
 * at most EXTRACT_MAX_PAGES. Every URL is untrusted here: the page pipeline checks it (and each
 * redirect) against the egress policy when it is fetched.
 */
import { patternBase, urlPattern } from '../../core/extract.js';
import { EXTRACT_MAX_PAGES, EXTRACT_WEB_RESULTS, type ExtractRequest } from '../../core/schemas/extract.js';
import { urlKey } from '../../core/url-key.js';
import { searchProviderFrom } from '../../search/index.js';
import type { ActivityDeps } from '../deps.js';
import { mapSiteUrls } from '../map-site.js';

export interface ExtractPlan {
  urls: string[];
  warnings: string[];
}

export async function planExtract(deps: ActivityDeps, options: ExtractRequest, signal: AbortSignal): Promise<ExtractPlan> {
  const warnings: string[] = [];
  const found: string[] = [];
  for (const url of options.urls ?? []) {
    const pattern = urlPattern(url);
    if (!pattern) {
      found.push(url);
      continue;
    }
    const links = await mapSiteUrls(deps, patternBase(url), { limit: 5000, includeSubdomains: options.includeSubdomains });
    const matches = links.filter((link) => pattern.test(link));
    if (matches.length === 0) warnings.push(`${url} matched no page of the site.`);
    found.push(...matches);
  }
  if (options.enableWebSearch) {
    const provider = searchProviderFrom(deps.config);
    if (!provider) warnings.push('Web search was asked for, but this server has no search provider (SEARXNG_ENDPOINT or SERPER_API_KEY).');
    else {
      const query = options.prompt ?? Object.keys((options.schema?.properties as object | undefined) ?? {}).join(' ');
      const results = await provider.search({ q: query, limit: EXTRACT_WEB_RESULTS, sources: ['web'], signal });
      found.push(...(results.web ?? []).map((r) => r.url));
    }
  }
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const url of found) {
    let key: string;
    try {
      key = urlKey(new URL(url));
    } catch {
      key = url;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    urls.push(url);
  }
  if (urls.length > EXTRACT_MAX_PAGES) warnings.push(`${urls.length} pages matched; the first ${EXTRACT_MAX_PAGES} were read.`);
  return { urls: urls.slice(0, EXTRACT_MAX_PAGES), warnings };
}
