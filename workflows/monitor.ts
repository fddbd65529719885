/**
 * One check of a monitor (README "Monitors"), started by the monitor's Temporal Schedule or by
 * POST /v2/monitor/{id}/run: record it, run each target as an ordinary crawl or batch scrape with
 * change tracking on (child workflows, searchable by MonitorId), then compare with the previous
 * check, judge, record and notify. A failed target makes the check partial or failed, never fatal.
 */
import { executeChild, proxyActivities, setCurrentDetails, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { jobSearchAttributes, type CrawlSummary } from '../core/job-contracts.js';
import { kinds, startAttributes } from '../jobs/kinds.js';
import type { FinishCheckResult, MonitorCheckInput, TargetRun } from '../core/monitor-contracts.js';

const acts = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' }, // unlimited: PostgreSQL may be down a while
});

export async function monitorCheck(input: MonitorCheckInput): Promise<FinishCheckResult | { status: string }> {
  const { monitorId } = input;
  const checkId = input.checkId ?? uuid4();
  upsertSearchAttributes([{ key: jobSearchAttributes.monitorId, value: monitorId }]);
  const scheduledFor = input.trigger === 'scheduled' ? workflowInfo().startTime.toISOString() : undefined;
  const begun = await acts.beginCheck({ monitorId, checkId, trigger: input.trigger, ...(scheduledFor ? { scheduledFor } : {}) });
  if (begun.outcome !== 'run') {
    setCurrentDetails(`check ${checkId}: ${begun.outcome}`);
    return { status: begun.outcome };
  }
  setCurrentDetails(`check ${checkId}: running ${begun.targets.length} target(s)`);
  const runs = await Promise.all(
    begun.targets.map(async (target): Promise<TargetRun> => {
      const jobId = uuid4();
      try {
        const job = await acts.startTargetJob({ monitorId, targetId: target.id, jobId });
        const { workflowType, workflowId } = kinds[target.kind];
        const summary: CrawlSummary = await executeChild(workflowType, {
          workflowId: workflowId(jobId),
          args: [{ crawlId: jobId }],
          typedSearchAttributes: startAttributes({ monitorId, seedHost: job.seedHost, apiKeyId: job.apiKeyId }),
          staticSummary: `Check ${checkId} of monitor ${monitorId}, target ${target.id}`,
        });
        return { targetId: target.id, kind: target.kind, jobId, status: summary.status, ...(summary.error ? { error: summary.error } : {}) };
      } catch (err) {
        return { targetId: target.id, kind: target.kind, jobId, status: 'failed', error: (err as Error).message };
      }
    }),
  );
  const result = await acts.finishCheck({ monitorId, checkId, runs, taskQueue: workflowInfo().taskQueue });
  if (!('summary' in result)) {
    setCurrentDetails(`check ${checkId}: the monitor was deleted while it ran`);
    return result;
  }
  setCurrentDetails(`check ${checkId}: ${result.status}, ${result.summary.changed} changed, ${result.summary.new} new, ${result.summary.removed} removed of ${result.summary.totalPages}`);
  return result;
}
