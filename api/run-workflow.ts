/**
 * Start a short workflow (map) and wait for its result at most `timeoutMs` plus a hand-off
 * margin. When the time runs out the workflow is terminated, so no work continues after the caller
 * has been answered. Failures become API errors (api/temporal-errors.ts).
 */
import type { Workflow } from '@temporalio/client';
import type { ApiError } from '../core/errors.js';
import { START_DEADLINE_MS } from '../core/temporal-options.js';
import type { ApiDeps } from './deps.js';
import { toApiError } from './temporal-errors.js';

/** Time the API gives Temporal and the worker beyond the page budget, to hand over the answer. */
const HANDOFF_MS = 2000;

export async function runWorkflowWithin<W extends Workflow>(
  deps: ApiDeps,
  workflowType: string,
  workflowId: string,
  args: Parameters<W>,
  timeoutMs: number,
  onTimeout: () => ApiError,
  what = workflowType,
): Promise<Awaited<ReturnType<W>>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const handle = await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      deps.temporal.workflow.start<W>(workflowType, {
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        workflowId,
        args,
        workflowExecutionTimeout: timeoutMs + HANDOFF_MS * 2,
      } as never),
    );
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        handle.terminate('caller timeout reached').catch(() => undefined);
        reject(onTimeout());
      }, timeoutMs + HANDOFF_MS);
    });
    return (await Promise.race([handle.result(), expired])) as Awaited<ReturnType<W>>;
  } catch (err) {
    throw toApiError(err, onTimeout, what);
  } finally {
    clearTimeout(timer);
  }
}
