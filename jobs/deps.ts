/** What the jobs module works with: the API passes its own dependencies, which have these and more. */
import type { Client } from '@temporalio/client';
import type { RequiredFor } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { PrismaClient } from '../prisma/client.js';

export interface JobDeps {
  config: Pick<RequiredFor<'api'>, 'TEMPORAL_TASK_QUEUE' | 'CRAWL_TTL_SECONDS' | 'AUTH_URL'>;
  prisma: PrismaClient;
  temporal: Client;
  log: Logger;
}

/** Who asks: the job's owner is an API key, or a paying wallet (x402). */
export interface Caller {
  apiKeyId?: string;
  /** Paying wallet (x402), for callers without a key. */
  payer?: string;
  /** Charge a paid request now (x402 settlement), before an effect that cannot be undone. */
  charge?: () => Promise<void>;
  /** The request's `x-idempotency-key` header, if sent (jobs/start.ts). */
  idempotencyKey?: string;
}
