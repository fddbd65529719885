/**
 * A monitor check's activities (workflows/monitor.ts): begin (record the check, or why it does not
 * run), start each target's job (its crawl row; the workflow runs it as a child), and finish
 * (compare with the previous check, judge, summarise, notify).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { batchFrontier } from '../../core/batch-urls.js';
import { monitorIds, type BeginCheckResult, type FinishCheckResult, type TargetRun } from '../../core/monitor-contracts.js';
import { targetJob, type StoredTarget } from '../../core/monitor-targets.js';
import { checkUrlSyntax, safetyOptionsFrom } from '../../core/url-safety.js';
import { createJobRow } from '../../jobs/rows.js';
import type { ActivityDeps } from '../deps.js';
import { llmSettingsFrom } from '../pipeline/pipeline.js';
import { comparePages } from './compare.js';
import { notifyCheck } from './notify.js';

export function monitorCheckActivities(deps: ActivityDeps) {
  const { prisma, config } = deps;
  const llm = llmSettingsFrom(config);

  return {
    /**
     * Record the check as running, unless the monitor is gone, its API key was revoked (the monitor
     * is then paused, with the reason on its Schedule) or another check is still running (recorded
     * as skipped_overlap). Idempotent: the workflow chooses the check id.
     */
    async beginCheck(input: { monitorId: string; checkId: string; trigger: 'scheduled' | 'manual'; scheduledFor?: string }): Promise<BeginCheckResult> {
      const { monitorId, checkId } = input;
      const decided = await prisma.$transaction(async (tx) => {
        // The monitor row lock orders concurrent checks of one monitor.
        const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM monitor WHERE id = ${monitorId} FOR UPDATE`;
        const monitor = locked.length ? await tx.monitor.findUnique({ where: { id: monitorId } }) : null;
        if (!monitor) return { outcome: 'gone' as const };
        const existing = await tx.monitorCheck.findUnique({ where: { id: checkId } });
        if (existing && existing.status !== 'queued') return existing.status === 'running' ? { outcome: 'run' as const, monitor } : { outcome: 'skipped' as const };
        const base = { monitorId, trigger: input.trigger, ...(input.scheduledFor ? { scheduledFor: new Date(input.scheduledFor) } : {}) };
        const key = await tx.apiKey.findUnique({ where: { id: monitor.apiKeyId }, select: { revokedAt: true } });
        if (!key || key.revokedAt) {
          const error = 'The monitor’s API key was revoked: the monitor is paused. Resume it with another key’s monitor, or recreate it.';
          await tx.monitorCheck.upsert({ where: { id: checkId }, create: { id: checkId, ...base, status: 'failed', error, finishedAt: new Date() }, update: { status: 'failed', error, finishedAt: new Date() } });
          await tx.monitor.update({ where: { id: monitorId }, data: { status: 'paused', pausedReason: 'API key revoked' } });
          return { outcome: 'revoked' as const };
        }
        const running = await tx.monitorCheck.findFirst({ where: { monitorId, status: { in: ['queued', 'running'] }, id: { not: checkId } }, select: { id: true } });
        if (running) {
          const error = `Skipped: check ${running.id} was still running.`;
          await tx.monitorCheck.upsert({ where: { id: checkId }, create: { id: checkId, ...base, status: 'skipped_overlap', error, finishedAt: new Date() }, update: { status: 'skipped_overlap', error, finishedAt: new Date() } });
          return { outcome: 'skipped' as const };
        }
        const now = new Date();
        await tx.monitorCheck.upsert({ where: { id: checkId }, create: { id: checkId, ...base, status: 'running', startedAt: now }, update: { status: 'running', startedAt: now } });
        await tx.monitor.update({ where: { id: monitorId }, data: { lastRunAt: now } });
        return { outcome: 'run' as const, monitor };
      });
      if (decided.outcome === 'revoked') {
        // Visible on the Schedules page of the Temporal UI.
        await Context.current().client.schedule.getHandle(monitorIds.schedule(monitorId)).pause('Paused by Pagewright: the monitor’s API key was revoked.').catch(() => undefined);
      }
      if (decided.outcome !== 'run') return { outcome: decided.outcome, checkId };
      const targets = decided.monitor.targets as StoredTarget[];
      return { outcome: 'run', checkId, targets: targets.map((t) => ({ id: t.id, kind: t.type === 'crawl' ? 'crawl' : 'batch_scrape' })) };
    },

    /**
     * Create the target's crawl or batch scrape row (the workflow starts it as a child); idempotent
     * per job id. No hooks on the job: the monitor's webhook gets monitor.page and
     * monitor.check.completed instead. A URL that became unsafe since (checked again here) fails the target.
     */
    async startTargetJob(input: { monitorId: string; targetId: string; jobId: string }): Promise<{ seedHost: string; apiKeyId: string }> {
      const monitor = await prisma.monitor.findUnique({ where: { id: input.monitorId } });
      if (!monitor) throw ApplicationFailure.nonRetryable(`monitor ${input.monitorId} was deleted`);
      const target = (monitor.targets as StoredTarget[]).find((t) => t.id === input.targetId);
      if (!target) throw new Error(`monitor ${input.monitorId} has no target ${input.targetId}`);
      const job = targetJob(monitor.id, target);
      const existing = await prisma.job.findUnique({ where: { id: input.jobId }, select: { url: true } });
      if (existing) return { seedHost: new URL(existing.url).hostname, apiKeyId: monitor.apiKeyId };
      const common = { id: input.jobId, kind: job.kind, options: job.options, apiKeyId: monitor.apiKeyId, payer: null, ttlSeconds: config.CRAWL_TTL_SECONDS };
      if (job.kind === 'crawl') {
        let seed: URL;
        try {
          seed = checkUrlSyntax(String(job.options.url), safetyOptionsFrom(config));
        } catch (err) {
          throw ApplicationFailure.nonRetryable(`target ${target.id}: ${(err as Error).message}`);
        }
        await prisma.$transaction((tx) => createJobRow(tx, { ...common, seed }));
        return { seedHost: seed.hostname, apiKeyId: monitor.apiKeyId };
      }
      const { urls } = batchFrontier(job.options.urls as string[], safetyOptionsFrom(config));
      if (urls.length === 0) throw ApplicationFailure.nonRetryable(`target ${target.id} has no valid URL left`);
      await prisma.$transaction((tx) => createJobRow(tx, { ...common, seed: urls[0]!.url, frontier: urls }));
      return { seedHost: urls[0]!.url.hostname, apiKeyId: monitor.apiKeyId };
    },

    /** Compare with the previous check, judge changed pages, record the pages and the summary, notify. */
    async finishCheck(input: { monitorId: string; checkId: string; runs: TargetRun[]; taskQueue: string }): Promise<FinishCheckResult | { status: 'gone' }> {
      // Deleted while the check ran: its checks went with it, nothing to record.
      const monitor = await prisma.monitor.findUnique({ where: { id: input.monitorId } });
      if (!monitor || !(await prisma.monitorCheck.findUnique({ where: { id: input.checkId }, select: { id: true } }))) return { status: 'gone' };
      const { pages, judgeSkipped } = await comparePages(prisma, llm, monitor, input.checkId, input.runs);
      const summary = { totalPages: pages.length, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
      for (const p of pages) summary[p.status]++;
      const failedRuns = input.runs.filter((r) => r.status !== 'completed');
      const status = failedRuns.length === 0 ? 'completed' : failedRuns.length === input.runs.length ? 'failed' : 'partial';
      const error = failedRuns.length ? failedRuns.map((r) => `target ${r.targetId}: ${r.error ?? r.status}`).join('; ') : null;
      await prisma.$transaction(async (tx) => {
        await tx.monitorCheckPage.deleteMany({ where: { checkId: input.checkId } });
        await tx.monitorCheckPage.createMany({ data: pages.map((p) => ({ ...p, checkId: input.checkId, diff: p.diff ?? undefined, snapshot: p.snapshot ?? undefined, judgment: p.judgment ?? undefined })) });
        await tx.monitorCheck.update({
          where: { id: input.checkId },
          data: { status, finishedAt: new Date(), summary, targetResults: input.runs.map((r) => ({ targetId: r.targetId, type: r.kind === 'crawl' ? 'crawl' : 'scrape', jobId: r.jobId, status: r.status, ...(r.error ? { error: r.error } : {}) })), error, judgeSkipped },
        });
      });
      await notifyCheck(monitor, input.checkId, status, summary, input.taskQueue, prisma);
      return { status, summary };
    },
  };
}
