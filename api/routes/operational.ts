/**
 * Liveness, readiness and metrics. Liveness and readiness are public: load balancers and orchestrators
 * call them without keys. Metrics answer Prometheus, with METRICS_TOKEN when it is set.
 */
import { ServiceUnavailableError, UnauthorizedError } from '../../core/errors.js';
import { METRICS_CONTENT_TYPE, metricsAllowed, metricsText } from '../../telemetry/metrics.js';
import { defineRoute, type AppContext } from '../route.js';

const CHECK_TIMEOUT_MS = 2000;
/** Temporal is informational here: its probe must not make /ready slow for an orchestrator's probe while it is down. */
const TEMPORAL_CHECK_MS = 500;

const healthBody = {
  type: 'object',
  properties: { success: { const: true }, status: { const: 'ok' } },
  required: ['success', 'status'],
} as const;

const readyBody = {
  type: 'object',
  properties: {
    success: { const: true },
    status: { const: 'ready' },
    checks: {
      type: 'object',
      properties: {
        database: { enum: ['up', 'down'] },
        keyValueStore: { enum: ['up', 'down'] },
        temporal: { enum: ['up', 'down'], description: 'Informational: whether the Temporal server answers. Readiness does not depend on it (scrapes and status reads work without it; starting a job answers 503 until it is back).' },
      },
      required: ['database', 'keyValueStore', 'temporal'],
    },
  },
  required: ['success', 'status', 'checks'],
} as const;

export const health = defineRoute({
  method: 'get',
  path: '/health',
  operationId: 'health',
  summary: 'Liveness: the API process is up',
  tag: 'Operational',
  auth: 'none',
  responses: { 200: { description: 'The process is alive.', schema: healthBody } },
  handler(ctx) {
    ctx.body = { success: true, status: 'ok' };
  },
});

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref()),
  ]);
}

async function probe(check: () => Promise<unknown>, what: string): Promise<string | undefined> {
  try {
    await withTimeout(check(), what);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export const ready = defineRoute({
  method: 'get',
  path: '/ready',
  operationId: 'ready',
  summary: 'Readiness: the database and the key-value store answer',
  description: 'Returns 503 naming each dependency that is down (`details[].field` is `database` or `keyValueStore`). `checks.temporal` says whether Temporal answers, for information only.',
  tag: 'Operational',
  auth: 'none',
  responses: {
    200: { description: 'PostgreSQL and Redis both answer.', schema: readyBody },
    503: { description: 'PostgreSQL or Redis is down; `details` names which.', schema: { $ref: '#/components/schemas/Error' } },
  },
  async handler(ctx: AppContext) {
    const { prisma, redis, temporal } = ctx.state.deps;
    const [db, kv, workflows] = await Promise.all([
      probe(() => prisma.$queryRaw`SELECT 1`, 'PostgreSQL'),
      probe(() => redis.ping(), 'Redis'),
      probe(() => temporal.connection.withDeadline(Date.now() + TEMPORAL_CHECK_MS, () => temporal.connection.workflowService.getSystemInfo({})), 'Temporal'),
    ]);
    if (db || kv) {
      const details = [
        ...(db ? [{ field: 'database', message: `PostgreSQL is down: ${db}` }] : []),
        ...(kv ? [{ field: 'keyValueStore', message: `Redis is down: ${kv}` }] : []),
      ];
      const names = [db && 'database (PostgreSQL)', kv && 'key-value store (Redis)'].filter(Boolean).join(' and ');
      throw new ServiceUnavailableError(`Not ready: ${names} down.`, details);
    }
    ctx.body = { success: true, status: 'ready', checks: { database: 'up', keyValueStore: 'up', temporal: workflows ? 'down' : 'up' } };
  },
});

export const metrics = defineRoute({
  method: 'get',
  path: '/metrics',
  operationId: 'metrics',
  summary: 'Prometheus metrics of this API process',
  description:
    'The Prometheus text format: requests by route and status with latency histograms, rate-limit refusals, page-cache reads, credits metered, the frontier of running crawls, and process figures, all named `pagewright_*` (README "Metrics"). ' +
    'With METRICS_TOKEN set, only `Authorization: Bearer <METRICS_TOKEN>` may read them (an API key does not); without it anyone who reaches the port may.',
  tag: 'Operational',
  auth: 'none',
  responses: {
    200: { description: 'The metrics, in the Prometheus text exposition format 0.0.4.', contentType: 'text/plain', schema: { type: 'string' } },
    401: { description: 'METRICS_TOKEN is set and the request does not carry it.', schema: { $ref: '#/components/schemas/Error' } },
  },
  async handler(ctx: AppContext) {
    if (!metricsAllowed(ctx.get('authorization') || undefined, ctx.state.deps.config.METRICS_TOKEN)) {
      throw new UnauthorizedError('GET /metrics needs Authorization: Bearer <METRICS_TOKEN> (the metrics token set on this server, not an API key).');
    }
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = await metricsText();
  },
});
