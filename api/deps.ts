/** What the API's handlers may use. Built once in api/main.ts (or by a test) and put on ctx.state. */
import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type { RequiredFor } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';

export interface ApiDeps {
  config: RequiredFor<'api'>;
  prisma: PrismaClient;
  redis: Redis;
  temporal: Client;
  log: Logger;
}
