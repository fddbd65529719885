/**
 * The scrape operation (README "Scrape path"): a worker runs the page pipeline at once, called
 * directly (api/scrape-workers.ts), within the caller's timeout. Temporal keeps what earns its
 * cost: durable webhook deliveries (started before answering) and, for operators, a failed
 * `scrape-<id>` record of each scrape that failed (written after answering).
 */
import { randomUUID } from 'node:crypto';
import { workflowIds, type FailedScrapeRecord, type ScrapeInput, type Workflows } from '../core/contracts.js';
import type { PublicDocument } from '../core/document.js';
import { ApiError, invalidBody, ServiceUnavailableError, UrlNotAllowedError } from '../core/errors.js';
import { pageOptionProblems, type PageOptions } from '../core/schemas/scrape.js';
import { checkUrlSyntax, safetyOptionsFrom, UnsafeUrlError, type SafetyOptions } from '../core/url-safety.js';
import type { ApiDeps } from './deps.js';
import { webhookUrlProblems } from './webhook-urls.js';
import { START_DEADLINE_MS } from '../core/temporal-options.js';

export interface ScrapeRequest extends PageOptions {
  url: string;
  timeout?: number;
}

export interface ScrapeResponse {
  success: true;
  warning?: string;
  data: PublicDocument;
  scrape_id: string;
}

export function checkScrapeRequest(req: ScrapeRequest, timeoutMs: number, safety: SafetyOptions): void {
  const problems = [...pageOptionProblems(req, timeoutMs), ...webhookUrlProblems({ webhookUrls: req.webhookUrls }, safety)];
  if (problems.length) throw invalidBody(problems);
  try {
    checkUrlSyntax(req.url, safety);
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new UrlNotAllowedError(err.message);
    throw err;
  }
}

/** `owner`: whose change-tracking history (historyOwner). `budgetMs`: a paid request's limit (its payment must still be valid to settle afterwards); it caps `timeout`. */
export async function runScrape(deps: ApiDeps, req: ScrapeRequest, owner: string, budgetMs = Infinity): Promise<ScrapeResponse> {
  const { config } = deps;
  const timeoutMs = Math.floor(Math.min(req.timeout ?? config.SCRAPE_TIMEOUT_MS, budgetMs));
  checkScrapeRequest(req, timeoutMs, safetyOptionsFrom(config));
  const scrapeId = randomUUID();
  const { url, timeout: _t, ...options } = req;
  const input: ScrapeInput = { scrapeId, url, options, timeoutMs, deadline: Date.now() + timeoutMs, owner };
  let result;
  try {
    result = await deps.scrapeWorkers.scrape(input, timeoutMs);
  } catch (err) {
    if (err instanceof ApiError) recordFailure(deps, { scrapeId, url, status: err.status, code: err.code, message: err.message });
    throw err;
  }
  if (options.webhookUrls?.length) await startWebhooks(deps, scrapeId, result.documentId, options, owner);
  return { success: true, ...(result.warning ? { warning: result.warning } : {}), data: result.data, scrape_id: scrapeId };
}

/** Deliveries are durable work of their own (retried, visible), started before the caller has the answer. */
async function startWebhooks(deps: ApiDeps, scrapeId: string, documentId: string, options: PageOptions, owner: string): Promise<void> {
  try {
    await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      deps.temporal.workflow.start<Workflows['deliverWebhooks']>('deliverWebhooks', {
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        workflowId: workflowIds.webhooks('scrape', scrapeId),
        args: [{ event: 'scrape.completed', deliveryId: scrapeId, urls: options.webhookUrls!, subjectId: scrapeId, documentId, metadata: options.metadata, owner }],
      }),
    );
  } catch (err) {
    throw new ServiceUnavailableError(`The page was scraped (scrape_id ${scrapeId}), but its webhook deliveries could not be scheduled (Temporal): ${(err as Error).message}. Try again shortly.`);
  }
}

/** Off the caller's path: a failed scrape becomes a failed workflow in the Temporal UI (workflows/failed-scrape.ts). */
function recordFailure(deps: ApiDeps, record: FailedScrapeRecord): void {
  // Refusals of the request itself (bad input) are the caller's business, not an operator's.
  if (record.status === 400) return;
  deps.temporal.connection
    .withDeadline(Date.now() + START_DEADLINE_MS, () => deps.temporal.workflow.start<Workflows['failedScrape']>('failedScrape', { taskQueue: deps.config.TEMPORAL_TASK_QUEUE, workflowId: workflowIds.scrape(record.scrapeId), args: [record] }))
    .catch((err: Error) => deps.log.warn('could not record the failed scrape in Temporal', { scrapeId: record.scrapeId, error: err.message }));
}
