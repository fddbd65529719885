/** An llms.txt job (POST /v1/llmstxt), durable: map the site, describe its pages (skipping those done), build the texts; a failure is recorded on the job. */
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { LlmsTxtInput } from '../core/schemas/llms-txt.js';

const short = proxyActivities<Activities>({ startToCloseTimeout: '3 minutes', retry: { maximumAttempts: 3 } });
const pages = proxyActivities<Activities>({ startToCloseTimeout: '1 hour', heartbeatTimeout: '30 seconds', retry: { maximumAttempts: 5, initialInterval: '2s' } });

export async function llmsTxtJob(input: LlmsTxtInput): Promise<void> {
  try {
    const urls = await short.mapLlmsTxt(input);
    await pages.describeLlmsTxtPages(input, urls);
    await short.finishLlmsTxt(input, urls);
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    await short.failLlmsTxt(input, `The llms.txt generation failed: ${(cause ?? (err as Error)).message}`);
    throw ApplicationFailure.nonRetryable((err as Error).message, 'LlmsTxtFailed');
  }
}
