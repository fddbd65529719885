/** Cancelling a job: the row first (nothing new starts or lands), then its workflow. */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { JobKind, JobStatus } from '../core/job-contracts.js';
import type { Caller, JobDeps } from './deps.js';
import { kinds } from './kinds.js';
import { findJob } from './rows.js';

/** `endedAs`: the job had already ended so (nothing changed); absent when this call cancelled it. */
export async function cancelJob(deps: JobDeps, id: string, caller: Caller, kind?: JobKind): Promise<{ success: true; message: string; endedAs?: JobStatus }> {
  const row = await findJob(deps, id, caller, kind);
  const { Noun, workflowId } = kinds[row.kind as JobKind];
  await caller.charge?.();
  if (row.status !== 'scraping') return { success: true, message: `${Noun} ${id} had already ended (${row.status}).`, endedAs: row.status as JobStatus };
  // The status flips first: claims and page stores check it under the row lock, so nothing new starts or lands.
  await deps.prisma.job.updateMany({ where: { id, status: 'scraping' }, data: { status: 'cancelled', cancelledAt: new Date() } });
  await deps.prisma.jobUrl.updateMany({ where: { jobId: id, status: 'queued' }, data: { status: 'dropped' } });
  try {
    await deps.temporal.workflow.getHandle(workflowId(id)).cancel();
  } catch (err) {
    // Already finished, or Temporal briefly unreachable: the row is cancelled, so nothing new starts either way.
    if (!(err instanceof WorkflowNotFoundError)) deps.log.warn('cancel did not reach the workflow', { id, error: (err as Error).message });
  }
  return { success: true, message: `${Noun} ${id} cancelled.` };
}
