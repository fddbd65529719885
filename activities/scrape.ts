/**
 * The scrape activity: engine chain → HTML pipeline → optional LLM extraction → stored document.
 * Returns the document id only. Failures carry a type from core/contracts.ts so the workflow knows
 * what not to retry and the API knows what to answer.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { failureTypes, type ScrapeInput, type ScrapeResult } from '../core/contracts.js';
import { InvalidSelectorError } from '../core/html/errors.js';
import type { PageFormat } from '../core/html/types.js';
import { urlKey } from '../core/url-key.js';
import { normalizeTargetUrl, UnsafeUrlError } from '../core/url-safety.js';
import { storeScrapeDocument } from './documents.js';
import { AllEnginesFailedError, runEngines } from './engines/chain.js';
import { EngineError } from './engines/types.js';
import type { ActivityDeps } from './index.js';
import { ExtractionError, extractWithLlm } from './llm/extract.js';
import { timeoutSignal } from '../core/timeout-signal.js';


const statusText = (code: number) => (code >= 200 && code < 300 ? undefined : `The target answered HTTP ${code}.`);

export function scrapeActivities(deps: ActivityDeps) {
  const { config, prisma } = deps;
  const llm = config.LLM_BASE_URL && config.LLM_MODEL ? { baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL } : undefined;

  return {
    async scrapePage(input: ScrapeInput): Promise<ScrapeResult> {
      const remaining = input.deadline - Date.now();
      if (remaining < 250) throw ApplicationFailure.nonRetryable(`No time left of the ${input.timeoutMs} ms timeout`, failureTypes.timeout);
      const cancelled = Context.current().cancellationSignal;
      const signal = AbortSignal.any([cancelled, timeoutSignal(remaining)]);
      const { options } = input;
      let target: URL;
      try {
        target = normalizeTargetUrl(input.url);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, failureTypes.unsafeUrl);
      }
      const screenshot = options.formats.includes('screenshot@fullPage') ? 'fullPage' : options.formats.includes('screenshot') ? 'viewport' : undefined;

      let fetched;
      try {
        fetched = await runEngines(deps.engines, { url: target.href, headers: options.headers ?? {}, waitFor: options.waitFor, screenshot, signal, deadline: input.deadline });
      } catch (err) {
        if (err instanceof EngineError && err.kind === 'blocked') throw ApplicationFailure.nonRetryable(err.message, failureTypes.unsafeUrl);
        if (err instanceof EngineError) throw ApplicationFailure.nonRetryable(err.message, failureTypes.invalidRequest);
        if (err instanceof UnsafeUrlError) throw ApplicationFailure.nonRetryable(err.message, failureTypes.unsafeUrl);
        // Aborted, and not by a cancellation: the caller's budget ran out.
        if (signal.aborted && !cancelled.aborted) throw ApplicationFailure.nonRetryable(`Timed out after ${input.timeoutMs} ms`, failureTypes.timeout);
        if (err instanceof AllEnginesFailedError) throw ApplicationFailure.retryable(err.message, failureTypes.allEnginesFailed);
        throw err;
      }

      const pageFormats = new Set(options.formats.filter((f): f is PageFormat => f === 'markdown' || f === 'html' || f === 'rawHtml' || f === 'links'));
      // Extraction reads the markdown even when the caller did not ask to see it.
      if (options.extract) pageFormats.add('markdown');
      let page;
      try {
        page = await deps.convert({
          body: fetched.body,
          contentType: fetched.contentType,
          url: fetched.finalUrl,
          formats: pageFormats,
          includeTags: options.includeTags,
          excludeTags: options.excludeTags,
          onlyMainContent: options.onlyMainContent,
        });
      } catch (err) {
        if (err instanceof InvalidSelectorError || (err as Error).name === 'InvalidSelectorError') throw ApplicationFailure.nonRetryable((err as Error).message, failureTypes.invalidRequest);
        throw err;
      }

      const warnings = [statusText(fetched.statusCode), page.includeTagsMatchedNothing ? 'includeTags matched nothing on the page.' : undefined];
      const metadata: Record<string, unknown> = {
        ...page.metadata,
        sourceURL: input.url,
        url: fetched.finalUrl,
        statusCode: fetched.statusCode,
        contentType: fetched.contentType ?? page.metadata.contentType,
        engine: fetched.engine,
        scrapeId: input.scrapeId,
      };
      let extract: unknown;
      if (options.extract) {
        if (!llm) metadata.extractSkipped = true;
        else {
          try {
            extract = await extractWithLlm(llm, { markdown: page.markdown ?? '', url: fetched.finalUrl, schema: options.extract.schema, systemPrompt: options.extract.systemPrompt, prompt: options.extract.prompt, signal });
          } catch (err) {
            if (!(err instanceof ExtractionError)) throw err;
            metadata.extractError = err.message;
            warnings.push(`Extraction failed: ${err.message}`);
          }
        }
      }
      const documentId = await storeScrapeDocument(
        prisma,
        input.scrapeId,
        {
          url: fetched.finalUrl,
          urlKey: urlKey(fetched.finalUrl),
          markdown: options.formats.includes('markdown') ? page.markdown : undefined,
          html: page.html,
          rawHtml: page.rawHtml,
          links: page.links,
          screenshot: fetched.screenshot,
          metadata,
          extract,
          warning: warnings.filter(Boolean).join(' ') || undefined,
          statusCode: fetched.statusCode,
        },
        config.CRAWL_TTL_SECONDS,
      );
      return { documentId };
    },
  };
}
