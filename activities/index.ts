/**
 * Activities are built by a factory from their dependencies, so the worker passes real clients and
 * tests can pass whatever the boundary under test needs.
 */
import type { RequiredFor } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';
import { healthActivities } from './health.js';

export interface ActivityDeps {
  config: RequiredFor<'worker'>;
  prisma: PrismaClient;
  log: Logger;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...healthActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
