/**
 * Durable webhook delivery: one activity per receiving URL, retried with exponential backoff for
 * about an hour. A worker restart resumes where it was; a refused (unsafe) URL is not retried.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { WebhookDelivery } from '../core/contracts.js';
import { failureTypes } from '../core/failures.js';

const { deliverWebhook } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    maximumAttempts: 12,
    nonRetryableErrorTypes: [failureTypes.unsafeUrl],
  },
});

export async function deliverWebhooks(delivery: WebhookDelivery): Promise<{ delivered: number; failed: number }> {
  const results = await Promise.allSettled(delivery.urls.map((url) => deliverWebhook({ ...delivery, urls: [url] })));
  return { delivered: results.filter((r) => r.status === 'fulfilled').length, failed: results.filter((r) => r.status === 'rejected').length };
}
