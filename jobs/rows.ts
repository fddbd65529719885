/**
 * A job's row: created for the API (POST /v1/crawl, /v1/batch/scrape) and for monitor checks on the
 * workers alike (for a batch, with its URLs as the frontier and discovery already done; the
 * workflow is started by the caller), and found for its owner only.
 */
import type { BatchFrontier } from '../core/batch-urls.js';
import type { JobKind } from '../core/job-contracts.js';
import { NotFoundError } from '../core/errors.js';
import type { Job, PrismaClient } from '../prisma/client.js';
import type { Caller, JobDeps } from './deps.js';
import { kinds } from './kinds.js';

export interface NewJob {
  id: string;
  kind: JobKind;
  seed: URL;
  options: object;
  apiKeyId: string | null;
  payer: string | null;
  ttlSeconds: number;
  /** The request's `x-idempotency-key`, unique per API key or paying wallet (jobs/start.ts). */
  idempotencyKey?: string;
  /** A batch's URLs (batchFrontier). */
  frontier?: BatchFrontier['urls'];
}

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export async function createJobRow(tx: Tx, job: NewJob): Promise<void> {
  await tx.job.create({
    data: { id: job.id, kind: job.kind, apiKeyId: job.apiKeyId, payer: job.payer, idempotencyKey: job.idempotencyKey ?? null, url: job.seed.href, options: job.options, expiresAt: new Date(Date.now() + job.ttlSeconds * 1000) },
  });
  if (job.frontier) {
    await tx.jobUrl.createMany({ data: job.frontier.map(({ urlKey, url }) => ({ jobId: job.id, urlKey, url: url.href, depth: 0, discoveryDepth: 0 })) });
    await tx.job.update({ where: { id: job.id }, data: { total: job.frontier.length, discoveryDone: true } });
  }
}

/** The rows this caller owns, as a query filter: its API key's, or its paying wallet's (none without either). */
export function ownedBy(caller: Caller): { apiKeyId: string } | { payer: string } {
  return caller.apiKeyId ? { apiKeyId: caller.apiKeyId } : { payer: caller.payer ?? '' };
}

/**
 * Unknown, expired or another caller's job (another key, another paying wallet): 404, never a hint
 * that it exists. `kind`: only that kind (the batch endpoints); absent: either (the crawl endpoints).
 */
export async function findJob(deps: JobDeps, id: string, caller: Caller, kind?: JobKind): Promise<Job> {
  const row = await deps.prisma.job.findUnique({ where: { id } });
  const mine = row && (caller.apiKeyId ? row.apiKeyId === caller.apiKeyId : Boolean(caller.payer) && row.payer === caller.payer);
  if (!row || !mine || row.expiresAt < new Date() || (kind && row.kind !== kind)) {
    const noun = kinds[kind ?? 'crawl'].noun;
    throw new NotFoundError(`No ${noun} with id ${id} (it may have expired: ${noun}s are kept ${deps.config.CRAWL_TTL_SECONDS} seconds).`);
  }
  return row;
}
