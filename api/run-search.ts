/**
 * The search operation (README "Search"): the configured provider (search/) answers the query; with
 * scrape formats, each web and news result is then scraped as POST /v1/scrape would scrape it (the
 * one page pipeline on a worker, the page cache, metering), a few at a time, within the request's
 * timeout. Result URLs are untrusted: each passes the egress policy (syntax here, addresses in the
 * worker) before it is fetched, and one that may not be fetched is listed unscraped, or left out
 * with ignoreInvalidURLs. The search itself costs one credit, like a map; each scraped result one.
 */
import { ApiError, invalidBody, NotSupportedError, SearchFailedError, type ErrorDetail } from '../core/errors.js';
import type { PublicDocument } from '../core/document.js';
import { pageOptionProblems, type PageOptions } from '../core/schemas/scrape.js';
import type { SearchRequest } from '../core/schemas/search.js';
import { checkUrlSyntax, safetyOptionsFrom, UnsafeUrlError } from '../core/url-safety.js';
import { proxyOptionProblem } from '../core/proxy-pools.js';
import { meterKeyPages } from '../prisma/usage.js';
import { creditsMetered } from '../telemetry/metrics.js';
import { NO_PROVIDER, searchProviderFrom, SearchProviderError, TIME_RANGES, type NewsResult, type SearchResults, type WebResult } from '../search/index.js';
import type { ApiDeps } from './deps.js';
import type { AuthState } from './route.js';
import { runScrape } from './run-scrape.js';

/** Results scraped at the same time, per search. */
const SCRAPE_CONCURRENCY = 5;
/** A page needs at least this long to be worth starting. */
const MIN_PAGE_MS = 1000;

type Scraped<T> = T & Partial<PublicDocument>;

export interface SearchAnswer {
  web?: Scraped<WebResult>[];
  news?: Scraped<NewsResult>[];
  images?: SearchResults['images'];
  warning?: string;
  /** Credits this search used: 1, plus one per scraped result. */
  creditsUsed: number;
}

/** `q` with the request's site and file-type narrowing, as every provider here reads it. */
function queryText(req: SearchRequest): string {
  const parts = [req.query.trim()];
  if (req.categories?.includes('github')) parts.push('site:github.com');
  if (req.categories?.includes('pdf')) parts.push('filetype:pdf');
  const include = req.includeDomains ?? [];
  if (include.length === 1) parts.push(`site:${include[0]}`);
  if (include.length > 1) parts.push(`(${include.map((d) => `site:${d}`).join(' OR ')})`);
  for (const d of req.excludeDomains ?? []) parts.push(`-site:${d}`);
  return parts.join(' ');
}

/** Options of each scrape, when the results are to be scraped. */
function scrapeOptionsOf(req: SearchRequest): (PageOptions & { timeout?: number }) | undefined {
  const options = req.scrapeOptions as (PageOptions & { timeout?: number }) | undefined;
  return options && options.formats.length > 0 ? options : undefined;
}

function requestProblems(deps: ApiDeps, req: SearchRequest, provider: string, scrape: ReturnType<typeof scrapeOptionsOf>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (req.includeDomains?.length && req.excludeDomains?.length) details.push({ field: 'excludeDomains', message: 'give includeDomains or excludeDomains, not both' });
  if (req.tbs && provider === 'searxng' && !(req.tbs in TIME_RANGES)) details.push({ field: 'tbs', message: `the search provider (SearXNG) takes ${Object.keys(TIME_RANGES).join(', ')}` });
  if (scrape) {
    const proxy = proxyOptionProblem(scrape.proxy, deps.config);
    details.push(...[...pageOptionProblems(scrape, scrape.timeout), ...(proxy ? [proxy] : [])].map((d) => ({ field: `scrapeOptions.${d.field}`, message: d.message })));
  }
  return details;
}

/** Why this server may not fetch `url`, or undefined when it may (the address is checked again where it is fetched). */
function refusal(deps: ApiDeps, url: string): string | undefined {
  try {
    checkUrlSyntax(url, safetyOptionsFrom(deps.config));
    return undefined;
  } catch (err) {
    if (err instanceof UnsafeUrlError) return err.message;
    throw err;
  }
}

/** Runs `work` over `items`, `limit` at a time, keeping their order. */
async function eachLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  }));
  return out;
}

export async function runSearch(deps: ApiDeps, req: SearchRequest, auth: AuthState, options: { budgetMs?: number; defaultMaxAge?: number } = {}): Promise<SearchAnswer> {
  const provider = searchProviderFrom(deps.config);
  if (!provider) throw new NotSupportedError(NO_PROVIDER);
  const scrape = scrapeOptionsOf(req);
  const details = requestProblems(deps, req, provider.name, scrape);
  if (details.length) throw invalidBody(details);
  // Only sources found nothing here (alexandria): nothing to ask, nothing to pay.
  if (req.sources.length === 0) return { creditsUsed: 0 };
  const deadline = Date.now() + Math.min(req.timeout, options.budgetMs ?? Infinity);

  let found: SearchResults;
  try {
    found = await provider.search({ q: queryText(req), limit: req.limit, sources: req.sources, lang: req.lang, country: req.country, location: req.location, tbs: req.tbs, signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
  } catch (err) {
    if (err instanceof SearchProviderError) throw new SearchFailedError(err.message);
    throw err;
  }
  if (auth.apiKeyId) {
    await meterKeyPages(deps.prisma, auth.apiKeyId, 1);
    creditsMetered.inc({ source: 'search' });
  }

  // Untrusted URLs (the providers keep only http(s) ones): one this server may not fetch is left out, or listed unscraped.
  const admitted = <T extends { url: string }>(items: T[] | undefined) => (items ?? []).filter((r) => !(req.ignoreInvalidURLs && refusal(deps, r.url))).map((r, i) => ({ ...r, position: i + 1 }));
  const web = found.web && admitted(found.web);
  const news = found.news && admitted(found.news);
  const images = found.images && admitted(found.images);

  let scraped = 0;
  let failed = 0;
  const scrapeOne = async <T extends { url: string }>(result: T): Promise<Scraped<T>> => {
    if (!scrape) return result;
    const refused = refusal(deps, result.url);
    const remaining = deadline - Date.now();
    const error = refused ?? (remaining < MIN_PAGE_MS ? 'Not scraped: the search’s timeout ran out first.' : undefined);
    if (!error) {
      try {
        const timeout = Math.floor(Math.min(scrape.timeout ?? deps.config.SCRAPE_TIMEOUT_MS, remaining));
        const { data } = await runScrape(deps, { ...scrape, maxAge: scrape.maxAge ?? options.defaultMaxAge, url: result.url, timeout }, auth, options.budgetMs);
        scraped++;
        return { ...data, ...result };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        failed++;
        return { ...result, metadata: { sourceURL: result.url, error: err.message, errorCode: err.code, statusCode: err.status } } as Scraped<T>;
      }
    }
    failed++;
    return { ...result, metadata: { sourceURL: result.url, error, errorCode: refused ? 'url_not_allowed' : 'timeout' } } as Scraped<T>;
  };
  const [webOut, newsOut] = await Promise.all([web && eachLimited(web, SCRAPE_CONCURRENCY, scrapeOne), news && eachLimited(news, SCRAPE_CONCURRENCY, scrapeOne)]);
  return {
    ...(webOut ? { web: webOut } : {}),
    ...(newsOut ? { news: newsOut } : {}),
    ...(images ? { images } : {}),
    ...(failed ? { warning: `${failed} of ${failed + scraped} results could not be scraped; each says why in metadata.error.` } : {}),
    creditsUsed: 1 + scraped,
  };
}
