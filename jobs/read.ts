/**
 * Reading jobs: the status body (GET /v1|v2/crawl/{id}, /v1|v2/batch/scrape/{id}), the failed
 * pages, the running crawls, and the dashboard's summary of a job. All from PostgreSQL: the hot
 * polling path never touches Temporal. A batch scrape's id also answers on /v1/crawl/{id}: the JS
 * SDK polls it there.
 */
import type { JobKind, JobStatus } from '../core/job-contracts.js';
import { toPublicDocument, type PublicDocument } from '../core/document.js';
import { CRAWL_PAGE_MAX_BYTES, type CrawlStatusBody } from '../core/schemas/crawl.js';
import type { Job } from '../prisma/client.js';
import type { Caller, JobDeps } from './deps.js';
import { kinds } from './kinds.js';
import { jobOptions, pageOptionsOf } from './options.js';
import { findJob, ownedBy } from './rows.js';

/** How `next` links are written (README "Paging"): a path, or an absolute URL on AUTH_URL for the official SDKs. */
export type LinkStyle = 'relative' | 'absolute';

/** Which API a request came through: its links stay on it. */
export type ApiVersion = 'v1' | 'v2';

/** The job's public URL path (or URL), e.g. `/v1/batch/scrape/<id>`. */
export function jobUrl(deps: JobDeps, kind: JobKind, id: string, style: LinkStyle, query = '', version: ApiVersion = 'v1'): string {
  const path = `/${version}/${kinds[kind].path}/${id}${query}`;
  return style === 'absolute' ? `${deps.config.AUTH_URL.replace(/\/+$/, '')}${path}` : path;
}

/** Status, counters and one page of documents; `page.path` is the kind whose endpoint was asked (its `next` stays on it, as does `version`). */
export async function jobStatus(deps: JobDeps, id: string, caller: Caller, page: { offset: number; limit: number; path: JobKind; style: LinkStyle; version?: ApiVersion }): Promise<CrawlStatusBody> {
  const row = await findJob(deps, id, caller, page.path === 'batch_scrape' ? 'batch_scrape' : undefined);
  const { formats } = pageOptionsOf(jobOptions(row));
  const { offset, limit } = page;
  const rows = await deps.prisma.document.findMany({ where: { jobId: id, sequence: { gte: offset } }, orderBy: { sequence: 'asc' }, take: limit + 1 });
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
    status: row.status as JobStatus,
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

export interface JobErrors {
  errors: { id: string; timestamp?: string; url: string; code?: string; error: string }[];
  robotsBlocked: string[];
}

/** The pages that failed, with why, and the URLs robots.txt kept the crawl from. */
export async function jobErrors(deps: JobDeps, id: string, caller: Caller, kind?: JobKind): Promise<JobErrors> {
  const row = await findJob(deps, id, caller, kind);
  const failed = await deps.prisma.jobUrl.findMany({ where: { jobId: id, status: 'failed' }, orderBy: { id: 'asc' }, select: { id: true, url: true, error: true, errorCode: true, failedAt: true } });
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

/** Most crawls GET /v2/crawl/active lists. */
export const ACTIVE_CRAWLS_MAX = 1000;

/** GET /v2/crawl/active: this caller's crawls still running, newest first. */
export async function activeCrawls(deps: JobDeps, caller: Caller): Promise<Array<{ id: string; url: string; options: unknown }>> {
  return deps.prisma.job.findMany({
    where: { ...ownedBy(caller), kind: 'crawl', status: 'scraping', expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
    take: ACTIVE_CRAWLS_MAX,
    select: { id: true, url: true, options: true },
  });
}

/** A job as the dashboard lists it. */
export function jobSummary(row: Job & { apiKey: { prefix: string } | null }) {
  return {
    id: row.id,
    kind: row.kind as JobKind,
    url: row.url,
    status: row.status as JobStatus,
    total: row.total,
    completed: row.completed,
    failed: row.failed,
    creditsUsed: row.creditsUsed,
    createdAt: row.createdAt.toISOString(),
    apiKeyPrefix: row.apiKey?.prefix ?? null,
  };
}

/** The job's workflow in the Temporal UI, when TEMPORAL_UI_URL is set. */
export function temporalUrl(uiUrl: string | undefined, namespace: string, row: { id: string; kind: string }): string | null {
  if (!uiUrl) return null;
  const workflowId = kinds[row.kind as JobKind].workflowId(row.id);
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
