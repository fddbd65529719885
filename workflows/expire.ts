/** Run by the `expire-data` Temporal Schedule: deletes documents and crawls older than CRAWL_TTL_SECONDS. */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { deleteExpired } = proxyActivities<Activities>({ startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 5 } });

export async function expireData(): Promise<{ documents: number; crawls: number }> {
  return deleteExpired();
}
