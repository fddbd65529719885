/**
 * Creating a crawl's or batch scrape's row, for the API (POST /v1/crawl, /v1/batch/scrape) and for
 * monitor checks on the workers alike: the row, and for a batch its URLs as the frontier with
 * discovery already done. The workflow is started by the caller.
 */
import type { BatchFrontier } from '../core/batch-urls.js';
import type { CrawlKind, PrismaClient } from './client.js';

export interface NewJob {
  id: string;
  kind: CrawlKind;
  seed: URL;
  options: object;
  apiKeyId: string | null;
  payer: string | null;
  ttlSeconds: number;
  /** The request's `x-idempotency-key`, unique per API key or paying wallet (api/jobs.ts startJob). */
  idempotencyKey?: string;
  /** A batch's URLs (batchFrontier). */
  frontier?: BatchFrontier['urls'];
}

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export async function createJobRow(tx: Tx, job: NewJob): Promise<void> {
  await tx.crawl.create({
    data: { id: job.id, kind: job.kind, apiKeyId: job.apiKeyId, payer: job.payer, idempotencyKey: job.idempotencyKey ?? null, url: job.seed.href, options: job.options, expiresAt: new Date(Date.now() + job.ttlSeconds * 1000) },
  });
  if (job.frontier) {
    await tx.crawlUrl.createMany({ data: job.frontier.map(({ urlKey, url }) => ({ crawlId: job.id, urlKey, url: url.href, depth: 0, discoveryDepth: 0 })) });
    await tx.crawl.update({ where: { id: job.id }, data: { total: job.frontier.length, discoveryDone: true } });
  }
}
