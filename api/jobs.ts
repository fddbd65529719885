/**
 * What crawls and batch scrapes share at the API: the row, then (paid callers: after settling) the
 * workflow; status, cancel and errors read PostgreSQL only, so the hot polling path never touches
 * Temporal. A batch scrape's id also answers on /v1/crawl/{id}: the JS SDK polls it there.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { crawlSearchAttributes, type CrawlWebhookContext } from '../core/crawl-contracts.js';
import { workflowIds } from '../core/contracts.js';
import { toPublicDocument, type PublicDocument } from '../core/document.js';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../core/errors.js';
import { CRAWL_PAGE_MAX_BYTES, MAX_IDEMPOTENCY_KEY_LENGTH, type CrawlStatusBody } from '../core/schemas/crawl.js';
import { decodeBatchScrapeOptions, decodeCrawlOptions } from '../core/schemas/decode.js';
import { isUniqueViolation, type Crawl, type CrawlKind, type CrawlStatus } from '../prisma/client.js';
import { createJobRow, type NewJob } from '../prisma/jobs.js';
import type { ApiDeps } from './deps.js';
import { START_DEADLINE_MS } from './run-workflow.js';

export interface Caller {
  apiKeyId?: string;
  /** Paying wallet (x402), for callers without a key. */
  payer?: string;
  /** Charge a paid request now (x402 settlement), before an effect that cannot be undone. */
  charge?: () => Promise<void>;
  /** The request's `x-idempotency-key` header, if sent (startJob). */
  idempotencyKey?: string;
}


const kinds = {
  crawl: { workflowType: 'crawl', workflowId: workflowIds.crawl, path: 'crawl', noun: 'crawl', Noun: 'Crawl' },
  batch_scrape: { workflowType: 'batchScrape', workflowId: workflowIds.batchScrape, path: 'batch/scrape', noun: 'batch scrape', Noun: 'Batch scrape' },
} as const;

/** How `next` links are written (README "Paging"): a path, or an absolute URL on AUTH_URL for the official SDKs. */
export type LinkStyle = 'relative' | 'absolute';

/** The official SDKs, by the HTTP clients they send with (axios, requests, aiohttp). */
export function isOfficialSdk(userAgent: string): boolean {
  return /^(axios\/|python-requests\/)|\baiohttp\//.test(userAgent);
}

/** The official SDKs fetch `next` as a URL: they get an absolute one. */
export function linkStyleFor(userAgent: string, setting: 'auto' | LinkStyle): LinkStyle {
  if (setting !== 'auto') return setting;
  return isOfficialSdk(userAgent) ? 'absolute' : 'relative';
}

/** Which API a request came through: its links stay on it. */
export type ApiVersion = 'v1' | 'v2';

/** The job's public URL path (or URL), e.g. `/v1/batch/scrape/<id>`. */
export function jobUrl(deps: ApiDeps, kind: CrawlKind, id: string, style: LinkStyle, query = '', version: ApiVersion = 'v1'): string {
  const path = `/${version}/${kinds[kind].path}/${id}${query}`;
  return style === 'absolute' ? `${deps.config.AUTH_URL.replace(/\/+$/, '')}${path}` : path;
}

/**
 * Create the job's row (and, for a batch, its frontier) in one transaction, charge a paid caller,
 * then start its workflow. If Temporal cannot be reached the row is marked failed and the answer is 503.
 */
/**
 * Creates the job's row and starts its workflow; returns the job's id. With an `x-idempotency-key`
 * that this caller (API key or paying wallet) already used for a job of the same kind, nothing is
 * started and that job's id is returned: a request retried after a lost answer (the Python SDK
 * retries POSTs on network errors) does not start a second crawl. Used for the other kind: 409.
 */
export async function startJob(
  deps: ApiDeps,
  job: { id: string; kind: CrawlKind; seed: URL; options: object; hooks?: CrawlWebhookContext; summary: string; limit: number; frontier?: NewJob['frontier'] },
  caller: Caller,
): Promise<string> {
  const { prisma, temporal, config } = deps;
  const { id, kind } = job;
  const { idempotencyKey } = caller;
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    const field = 'x-idempotency-key';
    throw new ValidationError(`The ${field} header must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a UUID, say).`, [{ field, message: `must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters` }]);
  }
  try {
    await prisma.$transaction((tx) => createJobRow(tx, { ...job, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, idempotencyKey, ttlSeconds: config.CRAWL_TTL_SECONDS }));
  } catch (err) {
    if (idempotencyKey === undefined || !isUniqueViolation(err)) throw err;
    return earlierJob(deps, kind, caller, idempotencyKey);
  }
  try {
    // A paid job never runs unpaid: settlement comes before the workflow exists.
    await caller.charge?.();
  } catch (err) {
    await prisma.crawl.delete({ where: { id } });
    throw err;
  }
  try {
    await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      temporal.workflow.start(kinds[kind].workflowType, {
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowId: kinds[kind].workflowId(id),
        args: [{ crawlId: id, ...(job.hooks ? { hooks: job.hooks } : {}) }],
        typedSearchAttributes: [
          { key: crawlSearchAttributes.status, value: 'scraping' },
          { key: crawlSearchAttributes.seedHost, value: job.seed.hostname },
          { key: crawlSearchAttributes.apiKeyId, value: caller.apiKeyId ?? 'x402' },
          { key: crawlSearchAttributes.pagesDone, value: 0 },
        ],
        memo: { seedHost: job.seed.hostname, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, status: 'scraping', pagesDone: 0, limit: job.limit },
        staticSummary: job.summary,
      }),
    );
  } catch (err) {
    // The key is freed: trying again with it starts the job afresh.
    await prisma.crawl.update({ where: { id }, data: { status: 'failed', error: `The ${kinds[kind].noun} could not be started on the workers.`, idempotencyKey: null } });
    const paid = caller.charge ? ` Your payment was settled (PAYMENT-RESPONSE header) and is not refunded automatically: give the operator id ${id}.` : '';
    throw new ServiceUnavailableError(`Could not start the ${kinds[kind].noun} on the workers (Temporal): ${(err as Error).message}. Try again shortly.${paid}`);
  }
  return id;
}

/** The rows this caller owns, as a query filter: its API key's, or its paying wallet's (none without either). */
function ownedBy(caller: Caller): { apiKeyId: string } | { payer: string } {
  return caller.apiKeyId ? { apiKeyId: caller.apiKeyId } : { payer: caller.payer ?? '' };
}

/** The job this caller started with `idempotencyKey`, if it is of `kind`. */
async function earlierJob(deps: ApiDeps, kind: CrawlKind, caller: Caller, idempotencyKey: string): Promise<string> {
  const earlier = await deps.prisma.crawl.findFirst({ where: { ...ownedBy(caller), idempotencyKey }, select: { id: true, kind: true } });
  // Gone in between (its start failed, or it expired): nothing to answer with; the caller may retry.
  if (!earlier) throw new ConflictError('A request with this x-idempotency-key is being handled or has just failed; try again in a moment.');
  if (earlier.kind !== kind) throw new ConflictError(`This x-idempotency-key was used to start a ${kinds[earlier.kind as CrawlKind].noun} (id ${earlier.id}); send a new key for a ${kinds[kind].noun}.`);
  return earlier.id;
}

/**
 * Unknown, expired or another caller's job (another key, another paying wallet): 404, never a hint
 * that it exists. `kind`: only that kind (the batch endpoints); absent: either (the crawl endpoints).
 */
async function findJob(deps: ApiDeps, id: string, caller: Caller, kind?: CrawlKind): Promise<Crawl> {
  const row = await deps.prisma.crawl.findUnique({ where: { id } });
  const mine = row && (caller.apiKeyId ? row.apiKeyId === caller.apiKeyId : Boolean(caller.payer) && row.payer === caller.payer);
  if (!row || !mine || row.expiresAt < new Date() || (kind && row.kind !== kind)) {
    const noun = kinds[kind ?? 'crawl'].noun;
    throw new NotFoundError(`No ${noun} with id ${id} (it may have expired: ${noun}s are kept ${deps.config.CRAWL_TTL_SECONDS} seconds).`);
  }
  return row;
}

/** Most crawls GET /v2/crawl/active lists. */
export const ACTIVE_CRAWLS_MAX = 1000;

/** GET /v2/crawl/active: this caller's crawls still running, newest first. */
export async function activeCrawls(deps: ApiDeps, caller: Caller): Promise<Array<{ id: string; url: string; options: unknown }>> {
  return deps.prisma.crawl.findMany({
    where: { ...ownedBy(caller), kind: 'crawl', status: 'scraping', expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
    take: ACTIVE_CRAWLS_MAX,
    select: { id: true, url: true, options: true },
  });
}

/** GET /v1|v2/crawl/{id} and GET /v1|v2/batch/scrape/{id}; `path` is the kind whose endpoint was asked (its `next` stays on it, as does `version`). */
export async function jobStatus(deps: ApiDeps, id: string, caller: Caller, page: { offset: number; limit: number; path: CrawlKind; style: LinkStyle; version?: ApiVersion }): Promise<CrawlStatusBody> {
  const row = await findJob(deps, id, caller, page.path === 'batch_scrape' ? 'batch_scrape' : undefined);
  const { formats } = row.kind === 'batch_scrape' ? decodeBatchScrapeOptions(row.options) : decodeCrawlOptions(row.options).scrapeOptions;
  const { offset, limit } = page;
  const rows = await deps.prisma.document.findMany({ where: { crawlId: id, sequence: { gte: offset } }, orderBy: { sequence: 'asc' }, take: limit + 1 });
  const data: PublicDocument[] = [];
  let bytes = 0;
  for (const doc of rows.slice(0, limit)) {
    const item = toPublicDocument(doc, formats);
    bytes += Buffer.byteLength(JSON.stringify(item));
    if (data.length > 0 && bytes > CRAWL_PAGE_MAX_BYTES) break;
    data.push(item);
  }
  const more = rows.length > data.length;
  return {
    success: true,
    status: row.status as CrawlStatus,
    completed: row.completed,
    total: row.total,
    creditsUsed: row.creditsUsed,
    expiresAt: row.expiresAt.toISOString(),
    // Absent, never null, on the last page: the JS SDK follows `next` while the key exists.
    // v2 clients page with `skip` (the hosted v2 API's name); both names are read on either version.
    ...(more ? { next: jobUrl(deps, page.path, id, page.style, `?${page.version === 'v2' ? 'skip' : 'offset'}=${offset + data.length}&limit=${limit}`, page.version) } : {}),
    failed: row.failed,
    skipped: row.skipped as Record<string, number>,
    ...(row.error ? { error: row.error } : {}),
    data,
  };
}

/** `endedAs`: the job had already ended so (nothing changed); absent when this call cancelled it. */
export async function cancelJob(deps: ApiDeps, id: string, caller: Caller, kind?: CrawlKind): Promise<{ success: true; message: string; endedAs?: CrawlStatus }> {
  const row = await findJob(deps, id, caller, kind);
  const { Noun, workflowId } = kinds[row.kind as CrawlKind];
  await caller.charge?.();
  if (row.status !== 'scraping') return { success: true, message: `${Noun} ${id} had already ended (${row.status}).`, endedAs: row.status as CrawlStatus };
  // The status flips first: claims and page stores check it under the row lock, so nothing new starts or lands.
  await deps.prisma.crawl.updateMany({ where: { id, status: 'scraping' }, data: { status: 'cancelled', cancelledAt: new Date() } });
  await deps.prisma.crawlUrl.updateMany({ where: { crawlId: id, status: 'queued' }, data: { status: 'dropped' } });
  try {
    await deps.temporal.workflow.getHandle(workflowId(id)).cancel();
  } catch (err) {
    // Already finished, or Temporal briefly unreachable: the row is cancelled, so nothing new starts either way.
    if (!(err instanceof WorkflowNotFoundError)) deps.log.warn('cancel did not reach the workflow', { id, error: (err as Error).message });
  }
  return { success: true, message: `${Noun} ${id} cancelled.` };
}

export interface JobErrors {
  errors: { id: string; timestamp?: string; url: string; code?: string; error: string }[];
  robotsBlocked: string[];
}

/** The pages that failed, with why, and the URLs robots.txt kept the crawl from. */
export async function jobErrors(deps: ApiDeps, id: string, caller: Caller, kind?: CrawlKind): Promise<JobErrors> {
  const row = await findJob(deps, id, caller, kind);
  const failed = await deps.prisma.crawlUrl.findMany({ where: { crawlId: id, status: 'failed' }, orderBy: { id: 'asc' }, select: { id: true, url: true, error: true, errorCode: true, failedAt: true } });
  return {
    errors: failed.map((f) => ({
      id: String(f.id),
      ...(f.failedAt ? { timestamp: f.failedAt.toISOString() } : {}),
      url: f.url,
      ...(f.errorCode ? { code: f.errorCode } : {}),
      error: f.error ?? 'unknown error',
    })),
    robotsBlocked: row.robotsBlocked as string[],
  };
}
