/**
 * Deletes what outlived its time: documents (scrape results too) and crawls with their frontier
 * after CRAWL_TTL_SECONDS; change-tracking snapshots not seen for SNAPSHOT_RETENTION_DAYS, and change
 * log entries as old; monitor checks older than their monitor's retentionDays. Run by the expire-data
 * Temporal Schedule.
 */
import type { PrismaClient } from '../../prisma/client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function deleteExpired(prisma: PrismaClient, snapshotRetentionDays: number, now = new Date()): Promise<{ documents: number; crawls: number; snapshots: number; changes: number; checks: number }> {
  const documents = await prisma.document.deleteMany({ where: { expiresAt: { lt: now } } });
  // crawl_url and the crawl's documents go with it (ON DELETE CASCADE).
  const crawls = await prisma.crawl.deleteMany({ where: { expiresAt: { lt: now } } });
  const unseenSince = new Date(now.getTime() - snapshotRetentionDays * DAY_MS);
  const snapshots = await prisma.pageSnapshot.deleteMany({ where: { lastSeenAt: { lt: unseenSince } } });
  const changes = await prisma.pageChange.deleteMany({ where: { seenAt: { lt: unseenSince } } });
  // A check's pages go with it (ON DELETE CASCADE).
  const checks = await prisma.$executeRaw`
    DELETE FROM monitor_check c USING monitor m WHERE c.monitor_id = m.id AND c.created_at < ${now}::timestamptz - make_interval(days => m.retention_days)`;
  return { documents: documents.count, crawls: crawls.count, snapshots: snapshots.count, changes: changes.count, checks };
}
