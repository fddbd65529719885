/**
 * Activities are built by a factory from their dependencies, so the worker passes real clients and
 * tests can pass whatever the boundary under test needs.
 */
import type { RequiredFor } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';
import type { ConvertPage } from './convert.js';
import type { EngineSet } from './engines/chain.js';
import { crawlActivities } from './crawl/index.js';
import { healthActivities } from './health.js';
import { mapActivities } from './map.js';
import { scrapeActivities } from './scrape.js';
import { webhookActivities } from './webhooks.js';

export interface ActivityDeps {
  config: RequiredFor<'worker'>;
  prisma: PrismaClient;
  log: Logger;
  engines: EngineSet;
  convert: ConvertPage;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...healthActivities(deps),
    ...scrapeActivities(deps),
    ...webhookActivities(deps),
    ...crawlActivities(deps),
    ...mapActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
