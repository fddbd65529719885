/**
 * A monitor's Temporal Schedule (`monitor-<id>`, on the Schedules page of the Temporal UI): its
 * cron and time zone, paused with the monitor, starting one `monitorCheck` workflow per fire.
 * Overlapping fires all start: the check itself records a skip when another is still running, so
 * every skip is visible in the monitor's checks (README "Monitors").
 */
import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { jobSearchAttributes } from '../core/job-contracts.js';
import { temporalCron } from '../core/monitor-schedule.js';
import { monitorIds, type MonitorCheckInput } from '../core/monitor-contracts.js';
import type { Monitor } from '../prisma/client.js';
import type { ApiDeps } from './deps.js';
import { START_DEADLINE_MS } from '../core/temporal-options.js';

function options(deps: ApiDeps, monitor: Pick<Monitor, 'id' | 'cron' | 'timezone' | 'status' | 'pausedReason' | 'name'>) {
  const { config } = deps;
  const input: MonitorCheckInput = { monitorId: monitor.id, trigger: 'scheduled' };
  return {
    spec: { cronExpressions: [temporalCron(monitor.cron)], timezone: monitor.timezone, ...(config.MONITOR_JITTER_SECONDS ? { jitter: config.MONITOR_JITTER_SECONDS * 1000 } : {}) },
    action: {
      type: 'startWorkflow' as const,
      workflowType: 'monitorCheck',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: monitorIds.scheduledCheck(monitor.id),
      args: [input],
      typedSearchAttributes: [{ key: jobSearchAttributes.monitorId, value: monitor.id }],
      staticSummary: `Check of monitor ${monitor.name}`,
    },
    policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: config.MONITOR_CATCHUP_WINDOW_SECONDS * 1000 },
    state: { paused: monitor.status === 'paused', note: monitor.status === 'paused' ? `Paused${monitor.pausedReason ? `: ${monitor.pausedReason}` : ' through the API'}` : 'Active' },
  };
}

const withDeadline = <T>(deps: ApiDeps, run: () => Promise<T>) => deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, run);

export async function createSchedule(deps: ApiDeps, monitor: Monitor): Promise<void> {
  await withDeadline(deps, () => deps.temporal.schedule.create({ scheduleId: monitorIds.schedule(monitor.id), ...options(deps, monitor), memo: { monitorId: monitor.id, apiKeyId: monitor.apiKeyId } }));
}

export async function updateSchedule(deps: ApiDeps, monitor: Monitor): Promise<void> {
  await withDeadline(deps, () => deps.temporal.schedule.getHandle(monitorIds.schedule(monitor.id)).update(() => options(deps, monitor)));
}

export async function deleteSchedule(deps: ApiDeps, monitorId: string): Promise<void> {
  try {
    await withDeadline(deps, () => deps.temporal.schedule.getHandle(monitorIds.schedule(monitorId)).delete());
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** A check run now (POST /v2/monitor/{id}/run): the same workflow the Schedule starts. */
export async function startCheck(deps: ApiDeps, monitorId: string, checkId: string): Promise<void> {
  const input: MonitorCheckInput = { monitorId, checkId, trigger: 'manual' };
  await withDeadline(deps, () =>
    deps.temporal.workflow.start('monitorCheck', {
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: monitorIds.manualCheck(checkId),
      args: [input],
      typedSearchAttributes: [{ key: jobSearchAttributes.monitorId, value: monitorId }],
      staticSummary: `Check of monitor ${monitorId}, run by hand`,
    }),
  );
}
