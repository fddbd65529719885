/** Deletes what outlived CRAWL_TTL_SECONDS: documents (scrape results too) and crawls with their frontier. Run by a Temporal Schedule. */
import type { PrismaClient } from '../../prisma/client.js';

export async function deleteExpired(prisma: PrismaClient, now = new Date()): Promise<{ documents: number; crawls: number }> {
  const documents = await prisma.document.deleteMany({ where: { expiresAt: { lt: now } } });
  // crawl_url and the crawl's documents go with it (ON DELETE CASCADE).
  const crawls = await prisma.crawl.deleteMany({ where: { expiresAt: { lt: now } } });
  return { documents: documents.count, crawls: crawls.count };
}
