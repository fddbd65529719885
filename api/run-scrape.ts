/**
 * The scrape operation (README "Scrape path"): a worker runs the page pipeline at once, called
 * directly (api/scrape-workers.ts), within the caller's timeout. Temporal keeps what earns its
 * cost: durable webhook deliveries (started before answering) and, for operators, a failed
 * `scrape-<id>` record of each scrape that failed (written after answering).
 */
import { randomUUID } from 'node:crypto';
import { workflowIds, type FailedScrapeRecord, type ScrapeInput, type Workflows } from '../core/contracts.js';
import type { PublicDocument } from '../core/document.js';
import { ApiError, invalidBody, NoCachedDataError, ServiceUnavailableError } from '../core/errors.js';
import { pageOptionProblems, type PageOptions } from '../core/schemas/scrape.js';
import { normalizeTargetUrl, safetyOptionsFrom, type SafetyOptions } from '../core/url-safety.js';
import { allowedTargetUrl } from './target-url.js';
import { historyOwner } from '../core/change-tracking.js';
import { toPublicDocument } from '../core/document.js';
import { cacheKey, uncacheable } from '../core/page-cache.js';
import { proxyOptionProblem, type ProxySettings } from '../core/proxy-pools.js';
import { readCachedPage, type CachedPage } from './page-cache.js';
import { creditsMetered, pageCacheReads } from '../telemetry/metrics.js';
import type { AuthState } from './route.js';
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

export function checkScrapeRequest(req: ScrapeRequest, timeoutMs: number, safety: SafetyOptions, proxies: ProxySettings): void {
  const proxy = proxyOptionProblem(req.proxy, proxies);
  const problems = [...pageOptionProblems(req, timeoutMs), ...(proxy ? [proxy] : []), ...webhookUrlProblems({ webhookUrls: req.webhookUrls }, safety)];
  if (problems.length) throw invalidBody(problems);
  allowedTargetUrl(req.url, safety);
}

/**
 * `auth`: who is calling (their change-tracking history and page cache). `budgetMs`: a paid
 * request's limit (its payment must still be valid to settle afterwards); it caps `timeout`.
 */
export async function runScrape(deps: ApiDeps, req: ScrapeRequest, auth: AuthState, budgetMs = Infinity): Promise<ScrapeResponse> {
  const { config } = deps;
  const timeoutMs = Math.floor(Math.min(req.timeout ?? config.SCRAPE_TIMEOUT_MS, budgetMs));
  checkScrapeRequest(req, timeoutMs, safetyOptionsFrom(config), config);
  const owner = historyOwner(auth);
  const { url, timeout: _t, ...options } = req;
  const cache = cachePlan(url, options, auth);
  if (cache.read) {
    const hit = await readCachedPage(deps.prisma, cache.key, { maxAge: options.maxAge || undefined, minAge: options.minAge }, auth.apiKeyId);
    pageCacheReads.inc({ result: hit ? 'hit' : 'miss' });
    if (hit) {
      if (auth.apiKeyId) creditsMetered.inc({ source: 'cache' });
      return answerFromCache(deps, hit, req, owner);
    }
    if (options.minAge !== undefined) throw new NoCachedDataError(options.minAge);
  }
  const scrapeId = randomUUID();
  const input: ScrapeInput = { scrapeId, url, options, timeoutMs, deadline: Date.now() + timeoutMs, owner, ...(cache.write ? { cacheKey: cache.key } : {}) };
  let result;
  try {
    result = await deps.scrapeWorkers.scrape(input, timeoutMs);
  } catch (err) {
    if (err instanceof ApiError) recordFailure(deps, { scrapeId, url, status: err.status, code: err.code, message: err.message });
    throw err;
  }
  if (options.webhookUrls?.length) await startWebhooks(deps, scrapeId, result.documentId, options, owner);
  const data = cache.read ? { ...result.data, metadata: { ...result.data.metadata, cacheState: 'miss' as const, ...(cache.write ? { cachedAt: new Date().toISOString() } : {}) } } : result.data;
  return { success: true, ...(result.warning ? { warning: result.warning } : {}), data, scrape_id: scrapeId };
}

/** Whether this scrape reads the page cache (maxAge or minAge asked for it) and whether its result goes in (storeInCache), under which key. */
function cachePlan(url: string, options: PageOptions, auth: AuthState): { read: boolean; write: boolean; key: string } {
  if (uncacheable(options)) return { read: false, write: false, key: '' };
  const scope = auth.payer ? `payer:${auth.payer}` : auth.accountId ? `account:${auth.accountId}` : `key:${auth.apiKeyId}`;
  return { read: (options.maxAge ?? 0) > 0 || options.minAge !== undefined, write: options.storeInCache !== false, key: cacheKey(scope, normalizeTargetUrl(url).href, options) };
}

/** A cache hit answers as a scrape would, from the stored document, under a scrape id of its own (README "Page cache"). */
async function answerFromCache(deps: ApiDeps, hit: CachedPage, req: ScrapeRequest, owner: string): Promise<ScrapeResponse> {
  const scrapeId = randomUUID();
  const doc = toPublicDocument(hit, req.formats);
  doc.metadata = { ...doc.metadata, sourceURL: req.url, scrapeId, cacheState: 'hit', cachedAt: hit.createdAt.toISOString() };
  if (req.webhookUrls?.length) await startWebhooks(deps, scrapeId, hit.id, req, owner);
  return { success: true, ...(hit.warning ? { warning: hit.warning } : {}), data: doc, scrape_id: scrapeId };
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
