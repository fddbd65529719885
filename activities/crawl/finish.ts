/**
 * Ending a crawl. Completed means discovery is done and nothing is queued or in flight; the same
 * transaction decides, so a page admitted at the last moment keeps the crawl running. A crawl is
 * `failed` when it stored no page at all and its seed failed (see README "Crawl states").
 */
import type { CrawlStatus, CrawlSummary } from '../../core/crawl-contracts.js';
import type { PrismaClient } from '../../prisma/client.js';
import { lockCrawl } from './frontier.js';

export async function summary(prisma: PrismaClient, crawlId: string): Promise<CrawlSummary> {
  const c = await prisma.crawl.findUniqueOrThrow({ where: { id: crawlId } });
  return { status: c.status as CrawlStatus, completed: c.completed, total: c.total, failed: c.failed, skipped: c.skipped as Record<string, number>, ...(c.error ? { error: c.error } : {}) };
}

export async function finishCrawl(prisma: PrismaClient, crawlId: string): Promise<CrawlSummary | { pending: true }> {
  const outcome = await prisma.$transaction(async (tx) => {
    const crawl = await lockCrawl(tx, crawlId);
    if (!crawl || crawl.status !== 'scraping') return 'settled';
    const open = await tx.crawlUrl.count({ where: { crawlId, status: { in: ['queued', 'claimed'] } } });
    if (open > 0) return 'pending';
    const stored = await tx.document.count({ where: { crawlId } });
    const seed = await tx.crawlUrl.findFirst({ where: { crawlId, discoveryDepth: 0 }, orderBy: { id: 'asc' }, select: { status: true, error: true } });
    const failed = stored === 0 && (!seed || seed.status === 'failed');
    await tx.crawl.update({
      where: { id: crawlId },
      data: failed
        ? { status: 'failed', error: `The seed page could not be crawled: ${seed?.error ?? 'it was never admitted'}`, completedAt: new Date() }
        : { status: 'completed', completedAt: new Date() },
    });
    return 'settled';
  });
  return outcome === 'pending' ? { pending: true } : summary(prisma, crawlId);
}

/** Fail a crawl that cannot start (seed refused, robots.txt forbids the seed). */
export async function failCrawl(prisma: PrismaClient, crawlId: string, error: string): Promise<void> {
  await prisma.crawl.updateMany({ where: { id: crawlId, status: 'scraping' }, data: { status: 'failed', error, completedAt: new Date(), discoveryDone: true } });
}
