/** What the API, the monitor workflow and its activities agree on (README "Monitors"). */
import type { JobKind } from './job-contracts.js';

export const monitorIds = {
  /** The monitor's Temporal Schedule. */
  schedule: (monitorId: string) => `monitor-${monitorId}`,
  /** Scheduled checks: the Schedule appends the fire time to this. */
  scheduledCheck: (monitorId: string) => `monitor-check-${monitorId}`,
  /** A check started by POST /v2/monitor/{id}/run. */
  manualCheck: (checkId: string) => `monitor-check-manual-${checkId}`,
} as const;

export interface MonitorCheckInput {
  monitorId: string;
  /** Set for a manual run (the API created the check, queued); a scheduled run makes its own. */
  checkId?: string;
  trigger: 'scheduled' | 'manual';
}

export type BeginCheckResult =
  | { outcome: 'run'; checkId: string; targets: { id: string; kind: JobKind }[] }
  /** Gone (deleted), paused because its API key was revoked, or skipped because a check was running. */
  | { outcome: 'gone' | 'revoked' | 'skipped'; checkId?: string };

export interface TargetRun {
  targetId: string;
  kind: JobKind;
  jobId: string;
  /** The job's end: completed, failed, cancelled; `error` when its workflow failed. */
  status: string;
  error?: string;
}

export interface CheckSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export interface FinishCheckResult {
  status: 'completed' | 'partial' | 'failed';
  summary: CheckSummary;
}
