/**
 * The one page pipeline: engine chain (through the operator's proxies, ./through-proxies.ts; with
 * the screenshot and actions) → HTML pipeline (or, for a 304 recheck, the last version) → metadata →
 * warnings → LLM extraction and summary → change tracking. Scrapes, crawl lanes and map's seed fetch all run a
 * page through here; callers differ only in how they pick URLs and where the result goes. Failures
 * are PageError classes (core/failures.ts), so each caller applies its retry policy by class. A new
 * scrape option is read in this folder and nowhere else (README, "Architecture").
 */
import { InvalidSelectorError, PageTooLargeError, UnreadablePdfError, UnsupportedContentTypeError } from '../../core/html/errors.js';
import type { PageFormat } from '../../core/html/types.js';
import type { PageOptions } from '../../core/schemas/scrape.js';
import { timeoutSignal } from '../../core/timeout-signal.js';
import { urlKey } from '../../core/url-key.js';
import { UnsafeUrlError } from '../../core/url-safety.js';
import type { ConvertPage } from '../../core/html/types.js';
import type { StoredPage } from '../documents.js';
import { AllEnginesFailedError, isThrottle, type EngineSet } from '../engines/chain.js';
import { EngineError, type EngineRequest, type EngineResult } from '../engines/types.js';
import type { ProxyMember } from '../../core/proxy-pools.js';
import { ExtractionError, extractWithLlm, type LlmSettings, type TokenCount } from '../llm/extract.js';
import { meterTokens } from '../../prisma/usage.js';
import { summarizeWithLlm } from '../llm/summary.js';
import type { ChangeTracking } from '../../core/change-tracking.js';
import type { PrismaClient } from '../../prisma/client.js';
import { readSnapshot, trackChanges, type SnapshotWrite } from './change-tracking.js';
import { fetchThroughProxies } from './through-proxies.js';
import type { Tracing } from '../../telemetry/tracing.js';
import { ActionFailedError, FetchFailedError, InvalidPageRequestError, PageError, parseRetryAfter, PageTimeoutError, ThrottledError, UnconvertibleContentError, UnsafeTargetError } from '../../core/failures.js';
import { convertDuration, fetchDuration, pages, since } from '../../telemetry/metrics.js';

export interface PageJob {
  /** The URL to fetch, normalised. The engines check it (and every redirect hop) against the egress policy. */
  url: string;
  /** As the caller sent it or the crawl found it; reported as metadata.sourceURL. */
  sourceURL: string;
  options: PageOptions;
  /** Epoch ms by which the page must be done; `timeoutMs` is that budget's length, for messages. */
  deadline: number;
  timeoutMs: number;
  /** Cancellation from the caller (the activity). The budget is added here. */
  signal: AbortSignal;
  /** Crawl pages: also collect every link (for discovery), and treat 429 / 503 + Retry-After as ThrottledError. */
  crawl?: boolean;
  /** Added to metadata, e.g. `{ scrapeId }`. */
  metadata?: Record<string, unknown>;
  /** Whose change-tracking history the page belongs to (`key:<id>` or `payer:<address>`); needed with the changeTracking format. */
  owner?: string;
  /** The id the document will be stored under (change tracking records it with the snapshot). */
  documentId?: string;
}

export interface PageOutput {
  document: StoredPage;
  /** Every link on the page when `crawl` is set (discovery); otherwise the `links` format, if asked. */
  links: string[];
}

export interface PipelineDeps {
  engines: EngineSet;
  convert: ConvertPage;
  /** Change tracking's snapshots and change log. */
  prisma: PrismaClient;
  /** Without it, extraction is skipped and metadata.extractSkipped is true. */
  llm?: LlmSettings;
  /** A `page` span per page, with `page.fetch` and `page.convert` inside (README "Traces"). */
  tracing: Tracing;
}

/** The one warning rule: a non-2xx answer, includeTags that matched nothing, a failed extraction. */
function statusWarning(code: number): string | undefined {
  return (code >= 200 && code < 300) || code === 304 ? undefined : `The target answered HTTP ${code}.`;
}

/** Only markdown (and a crawl's links) and change tracking: what a snapshot keeps, so a 304 can be answered from it. */
function answerableFromSnapshot(options: PageOptions, screenshot: string | undefined, extraction: boolean): boolean {
  const browser = screenshot !== undefined || options.waitFor > 0 || options.mobile || Boolean(options.actions?.length);
  const keptFormats = options.formats.every((f) => f === 'markdown' || f === 'links' || f === 'changeTracking');
  const ownValidators = Object.keys(options.headers ?? {}).some((h) => /^if-(none-match|modified-since)$/i.test(h));
  return keptFormats && !extraction && !browser && !ownValidators;
}

function engineFailure(err: unknown, job: PageJob, budget: AbortSignal): Error {
  if (err instanceof EngineError && err.kind === 'blocked') return new UnsafeTargetError(err.message);
  if (err instanceof EngineError && err.kind === 'invalid') return new InvalidPageRequestError(err.message);
  if (err instanceof EngineError && err.kind === 'action') return new ActionFailedError(err.message.replace(/^Browser service: /, ''));
  if (err instanceof UnsafeUrlError) return new UnsafeTargetError(err.message);
  // Aborted, and not by the caller: the budget ran out.
  if (budget.aborted && !job.signal.aborted) return new PageTimeoutError(job.timeoutMs);
  if (err instanceof AllEnginesFailedError) return new FetchFailedError(err.message);
  return err as Error;
}

function conversionFailure(err: unknown): Error {
  if (err instanceof InvalidSelectorError) return new InvalidPageRequestError(err.message);
  // A page too large to convert within a conversion's memory fails the same way every time.
  if (err instanceof UnsupportedContentTypeError || err instanceof UnreadablePdfError || err instanceof PageTooLargeError) return new UnconvertibleContentError(err.message);
  return err as Error;
}

/** The caller's headers, plus Accept-Language from `location.languages` unless the caller set one. */
function requestHeaders(options: PageOptions): Record<string, string> {
  const headers = { ...options.headers };
  const languages = options.location?.languages;
  if (languages?.length && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language')) {
    headers['Accept-Language'] = languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i * 0.1).toFixed(1)}`)).join(', ');
  }
  return headers;
}

export function createPagePipeline(deps: PipelineDeps) {
  const { tracing } = deps;
  return function runPage(job: PageJob): Promise<PageOutput> {
    return tracing.span('page', () => runCountedPage(job), { attributes: { 'url.full': job.url } });
  };

  /** Counted by kind, engine and outcome (telemetry/metrics.ts). */
  async function runCountedPage(job: PageJob): Promise<PageOutput> {
    const kind = job.crawl ? 'crawl' : 'scrape';
    try {
      const output = await runSteps(job);
      pages.inc({ kind, engine: String(output.document.metadata.engine), outcome: 'ok' });
      return output;
    } catch (err) {
      pages.inc({ kind, engine: 'none', outcome: err instanceof PageError ? err.code : 'internal' });
      throw err;
    }
  }

  async function runSteps(job: PageJob): Promise<PageOutput> {
    const remaining = job.deadline - Date.now();
    if (remaining < 250) throw new PageTimeoutError(job.timeoutMs);
    const budget = timeoutSignal(remaining);
    const signal = AbortSignal.any([job.signal, budget]);
    const { options } = job;
    // One extraction per page: `extract` (data.extract) or the hosted API's jsonOptions (data.json).
    const extraction = options.extract ?? options.jsonOptions;
    const screenshot = options.formats.includes('screenshot@fullPage') ? 'fullPage' : options.formats.includes('screenshot') ? 'viewport' : undefined;

    // A recheck of a tracked page asks only for a changed page when the last version alone can answer it (README "Change tracking").
    const last = options.formats.includes('changeTracking') && job.owner ? await readSnapshot(deps.prisma, job.owner, job.sourceURL, options.changeTrackingOptions?.tag) : undefined;
    const conditional = last && (last.etag || last.lastModified) && answerableFromSnapshot(options, screenshot, extraction !== undefined) ? { etag: last.etag ?? undefined, lastModified: last.lastModified ?? undefined } : undefined;

    const engineRequest: Omit<EngineRequest, 'proxy'> = {
      url: job.url,
      headers: requestHeaders(options),
      waitFor: options.waitFor,
      screenshot,
      screenshotQuality: options.screenshotOptions?.quality,
      viewport: options.screenshotOptions?.viewport,
      mobile: options.mobile,
      actions: options.actions,
      // As hosted: on unless turned off.
      blockAds: options.blockAds ?? true,
      insecureTls: options.skipTlsVerification,
      signal,
      deadline: job.deadline,
      stopOnThrottle: job.crawl,
      ...(conditional ? { conditional } : {}),
    };
    let fetched: EngineResult;
    let proxy: ProxyMember | undefined;
    const fetchStart = performance.now();
    try {
      ({ fetched, proxy } = await tracing.span('page.fetch', async (span) => {
        const out = await fetchThroughProxies(deps.engines, engineRequest, options);
        span.setAttributes({ 'pagewright.engine': out.fetched.engine, 'http.response.status_code': out.fetched.statusCode });
        return out;
      }));
    } catch (err) {
      throw engineFailure(err, job, budget);
    }
    fetchDuration.observe({ engine: fetched.engine }, since(fetchStart));
    if (job.crawl && isThrottle(fetched)) throw new ThrottledError(fetched.statusCode, parseRetryAfter(fetched.retryAfter));

    const formats = new Set(options.formats.filter((f): f is PageFormat => f === 'markdown' || f === 'html' || f === 'rawHtml' || f === 'links' || f === 'images'));
    const summary = options.formats.includes('summary');
    const attributes = options.formats.includes('attributes') ? options.attributesOptions?.selectors : undefined;
    // Extraction and the summary read the markdown even when the caller did not ask to see it; discovery reads links.
    if (extraction || summary) formats.add('markdown');
    if (job.crawl) formats.add('links');
    const notModified = conditional !== undefined && fetched.statusCode === 304 && last !== undefined && last !== null;
    let page;
    const convertStart = performance.now();
    try {
      // Not modified: the last version is the page, with no conversion.
      page = notModified ? { markdown: last.markdown, links: (last.links as string[] | null) ?? [], metadata: {} as Record<string, unknown>, includeTagsMatchedNothing: false } : await tracing.span('page.convert', () => deps.convert({ body: fetched.body, contentType: fetched.contentType, url: fetched.finalUrl, formats, includeTags: options.includeTags, excludeTags: options.excludeTags, onlyMainContent: options.onlyMainContent, attributes }));
    } catch (err) {
      throw conversionFailure(err);
    }
    if (!notModified) convertDuration.observe(since(convertStart));

    const warnings = [statusWarning(fetched.statusCode), page.includeTagsMatchedNothing ? 'includeTags matched nothing on the page.' : undefined];
    const metadata: Record<string, unknown> = {
      ...page.metadata,
      sourceURL: job.sourceURL,
      url: fetched.finalUrl,
      statusCode: fetched.statusCode,
      contentType: fetched.contentType ?? page.metadata.contentType,
      engine: fetched.engine,
      // proxyUsed is the tier, as the hosted API and its SDKs type it; proxyServer names the member (never its credentials).
      ...(proxy ? { proxyUsed: proxy.tier, proxyServer: proxy.label } : {}),
      ...(fetched.adsBlocked !== undefined ? { adsBlocked: fetched.adsBlocked } : {}),
      ...job.metadata,
    };
    // LLM tokens of this page (extraction, summary, change tracking), counted for the caller's key at the end.
    const tokens: TokenCount = { total: 0 };
    let extract: unknown;
    if (extraction) {
      if (!deps.llm) metadata.extractSkipped = true;
      else {
        try {
          extract = await extractWithLlm(deps.llm, { markdown: page.markdown ?? '', url: fetched.finalUrl, schema: extraction.schema, systemPrompt: extraction.systemPrompt, prompt: extraction.prompt, signal, tokens });
        } catch (err) {
          if (!(err instanceof ExtractionError)) throw engineFailure(err, job, budget);
          metadata.extractError = err.message;
          warnings.push(`Extraction failed: ${err.message}`);
        }
      }
    }
    let summaryText: string | undefined;
    if (summary) {
      if (!deps.llm) metadata.extractSkipped = true;
      else {
        try {
          summaryText = await summarizeWithLlm(deps.llm, { markdown: page.markdown ?? '', url: fetched.finalUrl, signal, tokens });
        } catch (err) {
          if (!(err instanceof ExtractionError)) throw engineFailure(err, job, budget);
          metadata.summaryError = err.message;
          warnings.push(`Summary failed: ${err.message}`);
        }
      }
    }
    let changeTracking: ChangeTracking | undefined;
    let snapshot: SnapshotWrite | undefined;
    if (options.formats.includes('changeTracking')) {
      if (!job.owner) throw new Error('The changeTracking format needs the owner of the page history (PageJob.owner)');
      const tracked = await trackChanges(
        { prisma: deps.prisma, llm: deps.llm },
        {
          owner: job.owner,
          url: job.sourceURL,
          markdown: page.markdown ?? '',
          statusCode: notModified ? (last.statusCode ?? 200) : fetched.statusCode,
          options: options.changeTrackingOptions ?? {},
          documentId: job.documentId,
          signal,
          tokens,
          previous: last ?? null,
          etag: notModified ? (last.etag ?? undefined) : fetched.etag,
          lastModified: notModified ? (last.lastModified ?? undefined) : fetched.lastModified,
          links: job.crawl ? page.links : undefined,
        },
      );
      changeTracking = tracked.changeTracking;
      snapshot = tracked.snapshot;
      if (tracked.warning) warnings.push(tracked.warning);
    }
    if (tokens.total > 0 && job.owner?.startsWith('key:')) await meterTokens(deps.prisma, { apiKeyId: job.owner.slice(4) }, tokens.total);
    const wants = (f: PageFormat) => options.formats.includes(f);
    return {
      document: {
        url: fetched.finalUrl,
        urlKey: urlKey(fetched.finalUrl),
        markdown: wants('markdown') ? page.markdown : undefined,
        html: wants('html') ? page.html : undefined,
        rawHtml: wants('rawHtml') ? page.rawHtml : undefined,
        links: wants('links') ? page.links : undefined,
        images: wants('images') ? page.images : undefined,
        attributes: page.attributes,
        summary: summaryText,
        screenshot: fetched.screenshot,
        actions: fetched.actions,
        metadata,
        extract,
        changeTracking,
        snapshot,
        warning: warnings.filter(Boolean).join(' ') || undefined,
        statusCode: fetched.statusCode,
      },
      links: page.links ?? [],
    };
  }
}

export type RunPage = ReturnType<typeof createPagePipeline>;

/** LLM settings from the worker's config, or undefined when extraction is not configured. */
export function llmSettingsFrom(config: { LLM_BASE_URL?: string; LLM_API_KEY?: string; LLM_MODEL?: string }): LlmSettings | undefined {
  return config.LLM_BASE_URL && config.LLM_MODEL ? { baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL } : undefined;
}
