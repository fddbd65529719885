/**
 * Deletes what outlived its time: documents (scrape results too) and crawls with their frontier
 * after CRAWL_TTL_SECONDS; change-tracking snapshots not seen for SNAPSHOT_RETENTION_DAYS, and change
 * log entries as old. Run by the expire-data Temporal Schedule.
 */
import type { PrismaClient } from '../../prisma/client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function deleteExpired(prisma: PrismaClient, snapshotRetentionDays: number, now = new Date()): Promise<{ documents: number; crawls: number; snapshots: number; changes: number }> {
  const documents = await prisma.document.deleteMany({ where: { expiresAt: { lt: now } } });
  // crawl_url and the crawl's documents go with it (ON DELETE CASCADE).
  const crawls = await prisma.crawl.deleteMany({ where: { expiresAt: { lt: now } } });
  const unseenSince = new Date(now.getTime() - snapshotRetentionDays * DAY_MS);
  const snapshots = await prisma.pageSnapshot.deleteMany({ where: { lastSeenAt: { lt: unseenSince } } });
  const changes = await prisma.pageChange.deleteMany({ where: { seenAt: { lt: unseenSince } } });
  return { documents: documents.count, crawls: crawls.count, snapshots: snapshots.count, changes: changes.count };
}
