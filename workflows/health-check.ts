/**
 * A round trip through the whole back end: API → Temporal → a worker → PostgreSQL and back.
 * Operators can start it from the Temporal UI or CLI to check that workers are polling.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { workerHealth } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

export interface HealthCheckResult {
  echo: string;
  worker: string;
  databaseTime: string;
}

export async function healthCheck(echo: string): Promise<HealthCheckResult> {
  const { worker, databaseTime } = await workerHealth();
  return { echo, worker, databaseTime };
}
