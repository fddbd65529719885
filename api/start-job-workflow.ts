/**
 * Starting the workflow of a job whose row the API has just written (extract jobs, llms.txt): a paid
 * job is charged first (its row removed if the charge fails), and a workflow that cannot be started
 * marks the row failed and is a 503. Crawls and batch scrapes go through jobs/start.ts.
 */
import type { Workflow } from '@temporalio/client';
import { ServiceUnavailableError } from '../core/errors.js';
import { START_DEADLINE_MS } from '../core/temporal-options.js';
import type { Caller } from '../jobs/deps.js';
import type { ApiDeps } from './deps.js';

export interface JobWorkflow<W extends Workflow> {
  /** `extract job`, `llms.txt job`: how messages name it. */
  noun: string;
  workflowType: string;
  workflowId: string;
  args: Parameters<W>;
  summary: string;
  /** Remove the row (the payment failed: nothing was started). */
  remove(): Promise<unknown>;
  /** Mark the row failed (the workflow could not be started). */
  markFailed(error: string): Promise<unknown>;
}

export async function startJobWorkflow<W extends Workflow>(deps: ApiDeps, caller: Caller, job: JobWorkflow<W>): Promise<void> {
  try {
    await caller.charge?.();
  } catch (err) {
    await job.remove();
    throw err;
  }
  try {
    await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      deps.temporal.workflow.start<W>(job.workflowType, { taskQueue: deps.config.TEMPORAL_TASK_QUEUE, workflowId: job.workflowId, args: job.args, staticSummary: job.summary } as never),
    );
  } catch (err) {
    await job.markFailed(`The ${job.noun} could not be started on the workers.`);
    throw new ServiceUnavailableError(`Could not start the ${job.noun} on the workers (Temporal): ${(err as Error).message}. Try again shortly.`);
  }
}
