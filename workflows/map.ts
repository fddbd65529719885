/** POST /v1/map: one local activity gathers, filters and stores the URL list; the API reads it by id. */
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { nonRetryableFailures } from '../core/failures.js';
import type { MapInput } from '../core/schemas/map.js';

export async function map(input: MapInput): Promise<{ documentId: string; count: number }> {
  const budget = Math.max(1000, input.deadline - Date.now());
  const { mapSite } = proxyLocalActivities<Activities>({
    startToCloseTimeout: budget,
    scheduleToCloseTimeout: budget,
    retry: { maximumAttempts: 2, initialInterval: '300ms', nonRetryableErrorTypes: nonRetryableFailures },
  });
  return mapSite(input);
}
