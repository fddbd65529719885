/**
 * What a crawl workflow tells the world, whichever way it runs its pages: webhook events (each its
 * own workflow, so a slow receiver never holds the crawl), and the search attributes, memo and
 * current details the Temporal UI shows.
 */
import { ParentClosePolicy, setCurrentDetails, startChild, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { crawlDelivery, jobSearchAttributes, type JobStatus, type CrawlSummary, type CrawlWebhookContext } from '../core/job-contracts.js';
import { workflowIds, type JobEventKind } from '../core/contracts.js';
import { deliverWebhooks } from './webhooks.js';

export async function notify(hooks: CrawlWebhookContext | undefined, what: JobEventKind, id: string, extra?: { documentId?: string; fields?: Record<string, unknown> }): Promise<void> {
  const delivery = hooks && crawlDelivery(hooks, what, id, extra);
  if (!delivery) return;
  try {
    await startChild(deliverWebhooks, {
      workflowId: workflowIds.webhooks(delivery.event, id),
      parentClosePolicy: ParentClosePolicy.ABANDON,
      args: [delivery],
    });
  } catch (err) {
    // Already started (by an earlier run of this crawl): that delivery is under way; do not send it twice.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export function publish(status: JobStatus, pagesDone: number): void {
  upsertSearchAttributes([
    { key: jobSearchAttributes.status, value: status },
    { key: jobSearchAttributes.pagesDone, value: pagesDone },
  ]);
  upsertMemo({ status, pagesDone });
}

/** The crawl has ended: the UI shows its final state, and the receivers get crawl.completed / failed / cancelled. */
export async function ending(hooks: CrawlWebhookContext | undefined, crawlId: string, summary: CrawlSummary): Promise<CrawlSummary> {
  publish(summary.status, summary.completed);
  setCurrentDetails(`${summary.status}: ${summary.completed} of ${summary.total} pages, ${summary.failed} failed`);
  const fields = { status: summary.status, completed: summary.completed, total: summary.total, failed: summary.failed, skipped: summary.skipped, ...(summary.error ? { error: summary.error } : {}) };
  await notify(hooks, summary.status === 'completed' ? 'completed' : summary.status === 'failed' ? 'failed' : 'cancelled', crawlId, { fields });
  return summary;
}
