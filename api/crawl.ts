/**
 * Crawl operations behind the routes: start (row first, then the workflow), status (PostgreSQL
 * only: the hot polling path never touches Temporal), cancel (row at once, then the workflow).
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { crawlSearchAttributes } from '../core/crawl-contracts.js';
import { workflowIds } from '../core/contracts.js';
import { toPublicDocument, type PublicDocument } from '../core/document.js';
import { NotFoundError, ServiceUnavailableError, UrlNotAllowedError, ValidationError } from '../core/errors.js';
import { CRAWL_PAGE_MAX_BYTES, type CrawlOptions, type CrawlStatusBody } from '../core/schemas/crawl.js';
import { decodeCrawlOptions } from '../core/schemas/decode.js';
import { pageOptionProblems } from '../core/schemas/scrape.js';
import { checkUrlSyntax, safetyOptionsFrom, UnsafeUrlError } from '../core/url-safety.js';
import type { CrawlStatus } from '../prisma/client.js';
import type { crawl } from '../workflows/index.js';
import type { ApiDeps } from './deps.js';
import { patternProblems } from './patterns.js';
import { START_DEADLINE_MS } from './run-workflow.js';

export interface Caller {
  apiKeyId?: string;
  /** Paying wallet (x402), for callers without a key. */
  payer?: string;
  /** Charge a paid request now (x402 settlement), before an effect that cannot be undone. */
  charge?: () => Promise<void>;
}

function checkPatterns(options: CrawlOptions): void {
  const details = patternProblems(options, options.regexOnFullURL);
  details.push(...pageOptionProblems(options.scrapeOptions).map((p) => ({ ...p, field: `scrapeOptions.${p.field}` })));
  if (details.length) throw new ValidationError(`Invalid request body: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

export async function startCrawl(deps: ApiDeps, options: CrawlOptions, caller: Caller): Promise<{ success: true; id: string; url: string }> {
  const { prisma, temporal, config } = deps;
  checkPatterns(options);
  let seed: URL;
  try {
    seed = checkUrlSyntax(options.url, safetyOptionsFrom(config));
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new UrlNotAllowedError(err.message);
    throw err;
  }
  const id = randomUUID();
  await prisma.crawl.create({
    data: { id, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, url: seed.href, options: options as object, expiresAt: new Date(Date.now() + config.CRAWL_TTL_SECONDS * 1000) },
  });
  try {
    // A paid crawl never runs unpaid: settlement comes before the workflow exists.
    await caller.charge?.();
  } catch (err) {
    await prisma.crawl.delete({ where: { id } });
    throw err;
  }
  try {
    await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => temporal.workflow.start<typeof crawl>('crawl', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: workflowIds.crawl(id),
      args: [{ crawlId: id, ...(options.webhookUrls?.length ? { hooks: { crawlId: id, urls: options.webhookUrls, metadata: options.webhookMetadata } } : {}) }],
      typedSearchAttributes: [
        { key: crawlSearchAttributes.status, value: 'scraping' },
        { key: crawlSearchAttributes.seedHost, value: seed.hostname },
        { key: crawlSearchAttributes.apiKeyId, value: caller.apiKeyId ?? 'x402' },
        { key: crawlSearchAttributes.pagesDone, value: 0 },
      ],
      memo: { seedHost: seed.hostname, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, status: 'scraping', pagesDone: 0, limit: options.limit },
      staticSummary: `Crawl of ${seed.href} (limit ${options.limit})`,
    }));
  } catch (err) {
    await prisma.crawl.update({ where: { id }, data: { status: 'failed', error: 'The crawl could not be started on the workers.' } });
    const paid = caller.charge ? ` Your payment was settled (PAYMENT-RESPONSE header) and is not refunded automatically: give the operator crawl id ${id}.` : '';
    throw new ServiceUnavailableError(`Could not start the crawl on the workers (Temporal): ${(err as Error).message}. Try again shortly.${paid}`);
  }
  return { success: true, id, url: seed.href };
}

/** Unknown, expired or another caller's crawl (another key, another paying wallet): 404, never a hint that it exists. */
async function findCrawl(deps: ApiDeps, id: string, caller: Caller) {
  const row = await deps.prisma.crawl.findUnique({ where: { id } });
  const mine = row && (caller.apiKeyId ? row.apiKeyId === caller.apiKeyId : Boolean(caller.payer) && row.payer === caller.payer);
  if (!row || !mine || row.expiresAt < new Date()) {
    throw new NotFoundError(`No crawl with id ${id} (it may have expired: crawls are kept ${deps.config.CRAWL_TTL_SECONDS} seconds).`);
  }
  return row;
}

export async function crawlStatus(deps: ApiDeps, id: string, caller: Caller, offset: number, limit: number): Promise<CrawlStatusBody> {
  const row = await findCrawl(deps, id, caller);
  const { formats } = decodeCrawlOptions(row.options).scrapeOptions;
  const rows = await deps.prisma.document.findMany({ where: { crawlId: id, sequence: { gte: offset } }, orderBy: { sequence: 'asc' }, take: limit + 1 });
  const data: PublicDocument[] = [];
  let bytes = 0;
  for (const doc of rows.slice(0, limit)) {
    const item = toPublicDocument(doc, formats);
    bytes += Buffer.byteLength(JSON.stringify(item));
    if (data.length > 0 && bytes > CRAWL_PAGE_MAX_BYTES) break;
    data.push(item);
  }
  const nextOffset = offset + data.length;
  const more = rows.length > data.length;
  return {
    success: true,
    status: row.status as CrawlStatus,
    completed: row.completed,
    total: row.total,
    creditsUsed: row.creditsUsed,
    expiresAt: row.expiresAt.toISOString(),
    ...(more ? { next: `/v1/crawl/${id}?offset=${nextOffset}&limit=${limit}` } : {}),
    failed: row.failed,
    skipped: row.skipped as Record<string, number>,
    ...(row.error ? { error: row.error } : {}),
    data,
  };
}

export async function cancelCrawl(deps: ApiDeps, id: string, caller: Caller): Promise<{ success: true; message: string }> {
  const row = await findCrawl(deps, id, caller);
  await caller.charge?.();
  if (row.status !== 'scraping') return { success: true, message: `Crawl ${id} had already ended (${row.status}).` };
  // The status flips first: claims and page stores check it under the crawl row lock, so nothing new starts or lands.
  await deps.prisma.crawl.updateMany({ where: { id, status: 'scraping' }, data: { status: 'cancelled', cancelledAt: new Date() } });
  await deps.prisma.crawlUrl.updateMany({ where: { crawlId: id, status: 'queued' }, data: { status: 'dropped' } });
  try {
    await deps.temporal.workflow.getHandle(workflowIds.crawl(id)).cancel();
  } catch (err) {
    // Already finished, or Temporal briefly unreachable: the row is cancelled, so nothing new starts either way.
    if (!(err instanceof WorkflowNotFoundError)) deps.log.warn('crawl cancel did not reach the workflow', { crawlId: id, error: (err as Error).message });
  }
  return { success: true, message: `Crawl ${id} cancelled.` };
}
