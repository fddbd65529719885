/**
 * One scrape on a worker: the page pipeline, then the stored document (and its public form, so the
 * API answers without reading it back). A fetch that failed is tried once more after 300 ms if the
 * caller's budget allows; refused URLs, impossible requests and unconvertible bodies never are.
 */
import type { ScrapeInput, ScrapeRefusal, ScrapeResult } from '../core/contracts.js';
import { toPublicDocument } from '../core/document.js';
import { normalizeTargetUrl } from '../core/url-safety.js';
import { storeScrapeDocument } from '../activities/documents.js';
import type { ActivityDeps } from '../activities/deps.js';
import { FetchFailedError, PageError, UnsafeTargetError } from '../core/failures.js';

const RETRY_AFTER_MS = 300;

/** A failed scrape as the endpoint reports it: the failure's status, and its type, which decides the API's answer (core/failures.ts). */
export class ScrapeRefused extends Error {
  readonly refusal: ScrapeRefusal;
  readonly status: number;
  constructor(failure: PageError) {
    super(failure.message);
    this.name = 'ScrapeRefused';
    this.refusal = { type: failure.type, message: failure.message };
    this.status = failure.status;
  }
}

export async function scrapeOnce(deps: ActivityDeps, input: ScrapeInput, signal: AbortSignal): Promise<ScrapeResult> {
  const { config, prisma, runPage } = deps;
  let target: URL;
  try {
    target = normalizeTargetUrl(input.url);
  } catch (err) {
    throw new ScrapeRefused(new UnsafeTargetError((err as Error).message));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const { document } = await runPage({
        url: target.href,
        sourceURL: input.url,
        options: input.options,
        deadline: input.deadline,
        timeoutMs: input.timeoutMs,
        signal,
        metadata: { scrapeId: input.scrapeId },
        owner: input.owner,
        documentId: input.scrapeId,
      });
      // `owner` is `key:<id>` for API-key callers (core/change-tracking.ts historyOwner): their account's usage counts the page.
      const apiKeyId = input.owner.startsWith('key:') ? input.owner.slice(4) : undefined;
      const documentId = await deps.tracing.span('page.store', () => storeScrapeDocument(prisma, input.scrapeId, document, { ttlSeconds: config.CRAWL_TTL_SECONDS, apiKeyId, cacheKey: input.cacheKey, cacheSeconds: config.CACHE_RETENTION_SECONDS }), { attributes: { 'pagewright.pages': 1, 'pagewright.documents': 1 } });
      const row = { ...document, markdown: document.markdown ?? null, html: document.html ?? null, rawHtml: document.rawHtml ?? null, links: document.links ?? null, images: document.images ?? null, attributes: document.attributes ?? null, summary: document.summary ?? null, screenshot: document.screenshot ?? null, actions: document.actions ?? null, extract: document.extract ?? null, changeTracking: document.changeTracking ?? null };
      return { documentId, ...(document.warning ? { warning: document.warning } : {}), data: toPublicDocument(row, input.options.formats) };
    } catch (err) {
      const again = err instanceof FetchFailedError && attempt === 1 && Date.now() + RETRY_AFTER_MS < input.deadline && !signal.aborted;
      if (!again) throw err instanceof PageError ? new ScrapeRefused(err) : err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    }
  }
}
