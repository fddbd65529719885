/**
 * Starting a job: its row (for a batch, with its frontier) in one transaction, then — a paid
 * caller charged first — its workflow, named by the kinds table, with the search attributes the
 * Temporal UI shows. If Temporal cannot be reached the row is marked failed and the answer is 503.
 */
import type { CrawlWebhookContext, JobKind } from '../core/job-contracts.js';
import { ConflictError, ServiceUnavailableError, ValidationError } from '../core/errors.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../core/schemas/crawl.js';
import { START_DEADLINE_MS } from '../core/temporal-options.js';
import { isUniqueViolation } from '../prisma/client.js';
import type { Caller, JobDeps } from './deps.js';
import { kinds, startAttributes } from './kinds.js';
import { createJobRow, ownedBy, type NewJob } from './rows.js';

export interface JobToStart {
  id: string;
  kind: JobKind;
  seed: URL;
  options: object;
  hooks?: CrawlWebhookContext;
  /** Shown in the Temporal UI. */
  summary: string;
  limit: number;
  frontier?: NewJob['frontier'];
}

/**
 * Creates the job's row and starts its workflow; returns the job's id. With an `x-idempotency-key`
 * that this caller (API key or paying wallet) already used for a job of the same kind, nothing is
 * started and that job's id is returned: a request retried after a lost answer (the Python SDK
 * retries POSTs on network errors) does not start a second crawl. Used for the other kind: 409.
 */
export async function startJob(deps: JobDeps, job: JobToStart, caller: Caller): Promise<string> {
  const { prisma, temporal, config } = deps;
  const { id, kind } = job;
  const { idempotencyKey } = caller;
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    const field = 'x-idempotency-key';
    throw new ValidationError(`The ${field} header must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a UUID, say).`, [{ field, message: `must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters` }]);
  }
  try {
    await prisma.$transaction((tx) => createJobRow(tx, { ...job, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, idempotencyKey, ttlSeconds: config.CRAWL_TTL_SECONDS }));
  } catch (err) {
    if (idempotencyKey === undefined || !isUniqueViolation(err)) throw err;
    return earlierJob(deps, kind, caller, idempotencyKey);
  }
  try {
    // A paid job never runs unpaid: settlement comes before the workflow exists.
    await caller.charge?.();
  } catch (err) {
    await prisma.job.delete({ where: { id } });
    throw err;
  }
  const { workflowType, workflowId, noun } = kinds[kind];
  try {
    await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      temporal.workflow.start(workflowType, {
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowId: workflowId(id),
        args: [{ crawlId: id, ...(job.hooks ? { hooks: job.hooks } : {}) }],
        typedSearchAttributes: startAttributes({ seedHost: job.seed.hostname, apiKeyId: caller.apiKeyId ?? 'x402' }),
        memo: { seedHost: job.seed.hostname, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, status: 'scraping', pagesDone: 0, limit: job.limit },
        staticSummary: job.summary,
      }),
    );
  } catch (err) {
    // The key is freed: trying again with it starts the job afresh.
    await prisma.job.update({ where: { id }, data: { status: 'failed', error: `The ${noun} could not be started on the workers.`, idempotencyKey: null } });
    const paid = caller.charge ? ` Your payment was settled (PAYMENT-RESPONSE header) and is not refunded automatically: give the operator id ${id}.` : '';
    throw new ServiceUnavailableError(`Could not start the ${noun} on the workers (Temporal): ${(err as Error).message}. Try again shortly.${paid}`);
  }
  return id;
}

/** The job this caller started with `idempotencyKey`, if it is of `kind`. */
async function earlierJob(deps: JobDeps, kind: JobKind, caller: Caller, idempotencyKey: string): Promise<string> {
  const earlier = await deps.prisma.job.findFirst({ where: { ...ownedBy(caller), idempotencyKey }, select: { id: true, kind: true } });
  // Gone in between (its start failed, or it expired): nothing to answer with; the caller may retry.
  if (!earlier) throw new ConflictError('A request with this x-idempotency-key is being handled or has just failed; try again in a moment.');
  if (earlier.kind !== kind) throw new ConflictError(`This x-idempotency-key was used to start a ${kinds[earlier.kind as JobKind].noun} (id ${earlier.id}); send a new key for a ${kinds[kind].noun}.`);
  return earlier.id;
}
