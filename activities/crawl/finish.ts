/**
 * Ending a crawl. Completed means discovery is done and nothing is queued or in flight; the same
 * transaction decides, so a page admitted at the last moment keeps the crawl running. A crawl is
 * `failed` when it stored no page at all and its seed failed, a batch scrape when it stored no page
 * at all (see README "Crawl states").
 */
import type { JobStatus, CrawlSummary } from '../../core/job-contracts.js';
import type { PrismaClient } from '../../prisma/client.js';
import { lockCrawl } from './frontier.js';

export async function summary(prisma: PrismaClient, crawlId: string): Promise<CrawlSummary> {
  const c = await prisma.job.findUniqueOrThrow({ where: { id: crawlId } });
  return { status: c.status as JobStatus, completed: c.completed, total: c.total, failed: c.failed, skipped: c.skipped as Record<string, number>, ...(c.error ? { error: c.error } : {}) };
}

export async function finishCrawl(prisma: PrismaClient, crawlId: string): Promise<CrawlSummary | { pending: true }> {
  const outcome = await prisma.$transaction(async (tx) => {
    const crawl = await lockCrawl(tx, crawlId);
    if (!crawl || crawl.status !== 'scraping') return 'settled';
    const open = await tx.jobUrl.count({ where: { jobId: crawlId, status: { in: ['queued', 'claimed'] } } });
    if (open > 0) return 'pending';
    const stored = await tx.document.count({ where: { jobId: crawlId } });
    const { kind, total } = await tx.job.findUniqueOrThrow({ where: { id: crawlId }, select: { kind: true, total: true } });
    let error: string | undefined;
    if (stored === 0 && kind === 'batch_scrape') error = `None of the ${total} URLs could be scraped; GET /v1/batch/scrape/${crawlId}/errors says why.`;
    else if (stored === 0) {
      const seed = await tx.jobUrl.findFirst({ where: { jobId: crawlId, discoveryDepth: 0 }, orderBy: { id: 'asc' }, select: { status: true, error: true } });
      if (!seed || seed.status === 'failed') error = `The seed page could not be crawled: ${seed?.error ?? 'it was never admitted'}`;
    }
    await tx.job.update({ where: { id: crawlId }, data: error ? { status: 'failed', error, completedAt: new Date() } : { status: 'completed', completedAt: new Date() } });
    return 'settled';
  });
  return outcome === 'pending' ? { pending: true } : summary(prisma, crawlId);
}

/** Fail a crawl that cannot start (seed refused, robots.txt forbids the seed). */
export async function failCrawl(prisma: PrismaClient, crawlId: string, error: string): Promise<void> {
  await prisma.job.updateMany({ where: { id: crawlId, status: 'scraping' }, data: { status: 'failed', error, completedAt: new Date(), discoveryDone: true } });
}
