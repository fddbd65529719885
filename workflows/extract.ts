/**
 * An extract job (POST /v1|v2/extract), durable: plan the pages (patterns mapped, web results),
 * read and extract them (one long activity that heartbeats and skips pages already done, so a
 * worker dying mid-way costs nothing twice), then merge the answers. Any failure is recorded on the
 * job, so GET /v1/extract/{id} says `failed` with the reason. Its webhook hears extract.started,
 * then extract.completed or extract.failed, each delivery a workflow of its own.
 */
import { ParentClosePolicy, proxyActivities, startChild, ApplicationFailure } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import { workflowIds, type WebhookEvent } from '../core/contracts.js';
import type { ExtractInput } from '../core/schemas/extract.js';
import { deliverWebhooks } from './webhooks.js';

const short = proxyActivities<Activities>({ startToCloseTimeout: '3 minutes', retry: { maximumAttempts: 3 } });
const pages = proxyActivities<Activities>({ startToCloseTimeout: '1 hour', heartbeatTimeout: '30 seconds', retry: { maximumAttempts: 5, initialInterval: '2s' } });

async function notify(input: ExtractInput, what: 'started' | 'completed' | 'failed', fields: Record<string, unknown>): Promise<void> {
  const hooks = input.hooks;
  if (!hooks || (hooks.events && !hooks.events.includes(what))) return;
  const event: WebhookEvent = `extract.${what}`;
  try {
    await startChild(deliverWebhooks, {
      workflowId: workflowIds.webhooks(event, input.extractId),
      parentClosePolicy: ParentClosePolicy.ABANDON,
      args: [{ event, deliveryId: `${input.extractId}-${what}`, urls: hooks.urls, subjectId: input.extractId, metadata: hooks.metadata, extra: fields, ...(hooks.headers ? { headers: hooks.headers } : {}) }],
    });
  } catch (err) {
    // Already started (by an earlier run): under way; never sent twice.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export async function extractJob(input: ExtractInput): Promise<void> {
  await notify(input, 'started', { status: 'processing' });
  let outcome;
  try {
    const plan = await short.planExtract(input);
    await pages.extractPages(input, plan.urls);
    outcome = await short.finishExtract(input, plan);
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    const error = `The extraction failed: ${(cause ?? (err as Error)).message}`;
    await short.failExtract(input, error);
    await notify(input, 'failed', { status: 'failed', error });
    throw ApplicationFailure.nonRetryable((err as Error).message, 'ExtractFailed');
  }
  await notify(input, outcome.status, outcome.status === 'completed' ? { status: 'completed', ...('data' in outcome ? { data: outcome.data } : {}) } : { status: 'failed', error: outcome.error });
}
