/**
 * The scrape activity: the page pipeline, then the stored document. Returns the document id only.
 * Pipeline failures become ApplicationFailures typed from core/contracts.ts, so the workflow knows
 * what not to retry and the API knows what to answer.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { failureTypes, type ScrapeInput, type ScrapeResult } from '../core/contracts.js';
import { normalizeTargetUrl } from '../core/url-safety.js';
import { storeScrapeDocument } from './documents.js';
import type { ActivityDeps } from './index.js';
import { FetchFailedError, InvalidPageRequestError, PageTimeoutError, UnconvertibleContentError, UnsafeTargetError } from './page/errors.js';

/** The failure type the API maps to its answer (api/temporal-errors.ts). */
function toFailure(err: unknown): unknown {
  if (err instanceof UnsafeTargetError) return ApplicationFailure.nonRetryable(err.message, failureTypes.unsafeUrl);
  if (err instanceof InvalidPageRequestError) return ApplicationFailure.nonRetryable(err.message, failureTypes.invalidRequest);
  if (err instanceof PageTimeoutError) return ApplicationFailure.nonRetryable(err.message, failureTypes.timeout);
  if (err instanceof UnconvertibleContentError) return ApplicationFailure.nonRetryable(err.message, failureTypes.unconvertible);
  if (err instanceof FetchFailedError) return ApplicationFailure.retryable(err.message, failureTypes.allEnginesFailed);
  return err;
}

export function scrapeActivities(deps: ActivityDeps) {
  const { config, prisma, runPage } = deps;
  return {
    async scrapePage(input: ScrapeInput): Promise<ScrapeResult> {
      let target: URL;
      try {
        target = normalizeTargetUrl(input.url);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, failureTypes.unsafeUrl);
      }
      try {
        const { document } = await runPage({
          url: target.href,
          sourceURL: input.url,
          options: input.options,
          deadline: input.deadline,
          timeoutMs: input.timeoutMs,
          signal: Context.current().cancellationSignal,
          metadata: { scrapeId: input.scrapeId },
          owner: input.owner,
          documentId: input.scrapeId,
        });
        // `owner` is `key:<id>` for API-key callers (core/change-tracking.ts historyOwner): their account's usage counts the page.
        const apiKeyId = input.owner?.startsWith('key:') ? input.owner.slice(4) : undefined;
        return { documentId: await storeScrapeDocument(prisma, input.scrapeId, document, config.CRAWL_TTL_SECONDS, apiKeyId) };
      } catch (err) {
        throw toFailure(err);
      }
    },
  };
}
