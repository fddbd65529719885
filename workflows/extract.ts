/**
 * An extract job (POST /v1|v2/extract), durable: plan the pages (patterns mapped, web results),
 * read and extract them (one long activity that heartbeats and skips pages already done, so a
 * worker dying mid-way costs nothing twice), then merge the answers. Any failure is recorded on the
 * job, so GET /v1/extract/{id} says `failed` with the reason.
 */
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { ExtractInput } from '../core/schemas/extract.js';

const short = proxyActivities<Activities>({ startToCloseTimeout: '3 minutes', retry: { maximumAttempts: 3 } });
const pages = proxyActivities<Activities>({ startToCloseTimeout: '1 hour', heartbeatTimeout: '2 minutes', retry: { maximumAttempts: 5, initialInterval: '2s' } });

export async function extractJob(input: ExtractInput): Promise<void> {
  try {
    const plan = await short.planExtract(input);
    await pages.extractPages(input, plan.urls);
    await short.finishExtract(input, plan);
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    await short.failExtract(input, `The extraction failed: ${(cause ?? (err as Error)).message}`);
    throw ApplicationFailure.nonRetryable((err as Error).message, 'ExtractFailed');
  }
}
