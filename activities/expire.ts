/**
 * Deletes what outlived its time: documents (scrape results too), crawls with their frontier and
 * extract jobs after CRAWL_TTL_SECONDS; change-tracking snapshots not seen for SNAPSHOT_RETENTION_DAYS, and change
 * log entries as old; monitor checks older than their monitor's retentionDays; the activity log after
 * ACTIVITY_RETENTION_DAYS; ended dashboard sessions and lapsed invites. Run by the expire-data
 * Temporal Schedule.
 */
import type { PrismaClient } from '../prisma/client.js';
import type { ActivityDeps } from './deps.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function deleteExpired(
  prisma: PrismaClient,
  snapshotRetentionDays: number,
  activityRetentionDays = 30,
  now = new Date(),
): Promise<{ documents: number; crawls: number; snapshots: number; changes: number; checks: number; requests: number; sessions: number }> {
  const documents = await prisma.document.deleteMany({ where: { expiresAt: { lt: now } } });
  // job_url and the crawl's documents go with it (ON DELETE CASCADE).
  const crawls = await prisma.job.deleteMany({ where: { expiresAt: { lt: now } } });
  // An extract job's pages go with it (ON DELETE CASCADE).
  await prisma.extractJob.deleteMany({ where: { expiresAt: { lt: now } } });
  await prisma.llmsTxtJob.deleteMany({ where: { expiresAt: { lt: now } } });
  const unseenSince = new Date(now.getTime() - snapshotRetentionDays * DAY_MS);
  const snapshots = await prisma.pageSnapshot.deleteMany({ where: { lastSeenAt: { lt: unseenSince } } });
  const changes = await prisma.pageChange.deleteMany({ where: { seenAt: { lt: unseenSince } } });
  // A check's pages go with it (ON DELETE CASCADE).
  const checks = await prisma.$executeRaw`
    DELETE FROM monitor_check c USING monitor m WHERE c.monitor_id = m.id AND c.created_at < ${now}::timestamptz - make_interval(days => m.retention_days)`;
  const requests = await prisma.requestLog.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - activityRetentionDays * DAY_MS) } } });
  const sessions = await prisma.session.deleteMany({ where: { expiresAt: { lt: now } } });
  await prisma.invite.deleteMany({ where: { acceptedAt: null, expiresAt: { lt: now } } });
  return { documents: documents.count, crawls: crawls.count, snapshots: snapshots.count, changes: changes.count, checks, requests: requests.count, sessions: sessions.count };
}

/** The expire-data Schedule's activity (workflows/expire.ts). */
export function expiryActivities(deps: ActivityDeps) {
  return { deleteExpired: () => deleteExpired(deps.prisma, deps.config.SNAPSHOT_RETENTION_DAYS, deps.config.ACTIVITY_RETENTION_DAYS) };
}
