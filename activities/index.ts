/**
 * Every activity the worker registers, built by a factory from their dependencies (./deps.ts), so
 * the worker passes real clients and tests can pass whatever the boundary under test needs.
 */
import type { ActivityDeps } from './deps.js';
import { crawlActivities } from './crawl/index.js';
import { expiryActivities } from './expire.js';
import { extractActivities } from './extract/index.js';
import { crawlPlanActivities } from './llm/crawl-plan.js';
import { llmsTxtActivities } from './llms-txt.js';
import { healthActivities } from './health.js';
import { mapActivities } from './map-site.js';
import { monitorCheckActivities } from './monitor/check.js';
import { webhookActivities } from './webhooks.js';

export function createActivities(deps: ActivityDeps) {
  return {
    ...healthActivities(deps),
    ...webhookActivities(deps),
    ...crawlActivities(deps),
    ...mapActivities(deps),
    ...monitorCheckActivities(deps),
    ...expiryActivities(deps),
    ...extractActivities(deps),
    ...crawlPlanActivities(deps),
    ...llmsTxtActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
