/**
 * How monitors, checks and check pages are answered: the hosted v2 API's shapes, with every field
 * the official SDKs' models require present (README "Monitors").
 */
import { nextRuns } from '../core/monitor-schedule.js';
import type { Monitor, MonitorCheck, MonitorCheckPage } from '../prisma/client.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function monitorView(m: Monitor, currentCheckId: string | null) {
  return {
    id: m.id,
    name: m.name,
    status: m.status,
    schedule: { cron: m.cron, timezone: m.timezone, ...(m.scheduleText ? { text: m.scheduleText } : {}) },
    nextRunAt: m.status === 'active' ? nextRuns(m.cron, m.timezone)[0]!.toISOString() : null,
    lastRunAt: iso(m.lastRunAt),
    currentCheckId,
    targets: m.targets,
    webhook: m.webhook ?? null,
    notification: null,
    retentionDays: m.retentionDays,
    goal: m.goal,
    judgeEnabled: m.judgeEnabled,
    ...(m.pausedReason ? { pausedReason: m.pausedReason } : {}),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

const counts = ['totalPages', 'same', 'changed', 'new', 'removed', 'error'] as const;

export function checkView(c: MonitorCheck) {
  const stored = (c.summary ?? {}) as Record<string, number>;
  const summary = Object.fromEntries(counts.map((k) => [k, stored[k] ?? 0])) as Record<(typeof counts)[number], number>;
  return {
    id: c.id,
    monitorId: c.monitorId,
    status: c.status,
    trigger: c.trigger,
    scheduledFor: iso(c.scheduledFor),
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    // No credits here: nothing is billed per check.
    estimatedCredits: 0,
    reservedCredits: 0,
    actualCredits: 0,
    billingStatus: 'not_applicable',
    summary,
    targetResults: c.targetResults,
    notificationStatus: null,
    error: c.error,
    ...(c.judgeSkipped ? { judgeSkipped: c.judgeSkipped } : {}),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function pageView(p: MonitorCheckPage) {
  return {
    id: String(p.id),
    targetId: p.targetId,
    url: p.url,
    status: p.status,
    previousScrapeId: p.previousScrapeId,
    currentScrapeId: p.currentScrapeId,
    statusCode: p.statusCode,
    error: p.error,
    metadata: {},
    diff: p.diff,
    snapshot: p.snapshot,
    judgment: p.judgment,
    createdAt: p.createdAt.toISOString(),
  };
}
