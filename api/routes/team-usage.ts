/**
 * The team usage and queue endpoints (README "Usage and queue"), v1 and v2 twins from one table:
 * they differ in path, tag and (credit and token usage) the case of the fields inside `data`, which
 * the official clients read as v1 snake_case and v2 camelCase. Scoped to the API key's account;
 * without a key, 401: a wallet paying per request (x402) has no account, credits or plan.
 */
import { UnauthorizedError } from '../../core/errors.js';
import type { ApiVersion } from '../../jobs/read.js';
import { creditUsage, historicalUsage, maxConcurrency, NO_LIMIT, queueStatus, tokenUsage, type CurrentUsage, type Metered } from '../account-usage.js';
import { defineRoute, type AppContext, type RouteSpec, type Schema } from '../route.js';

const versions: ApiVersion[] = ['v1', 'v2'];
const count = { type: 'integer', minimum: 0 } as const;
const isoTime = { type: 'string', format: 'date-time' } as const;

const measures = {
  credits: { path: 'credit-usage', operationId: 'creditUsage', metered: 'pages', read: creditUsage, title: 'Credit usage', unit: 'credits (one page stored is one credit)' },
  tokens: { path: 'token-usage', operationId: 'tokenUsage', metered: 'tokens', read: tokenUsage, title: 'Token usage', unit: 'LLM tokens (prompt and completion)' },
} as const satisfies Record<string, { metered: Metered; read: unknown; path: string; operationId: string; title: string; unit: string }>;
type Measure = keyof typeof measures;

const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The field names of a current-usage answer as each version's client reads them. */
function fieldNames(measure: Measure, version: ApiVersion) {
  return version === 'v1'
    ? { remaining: `remaining_${measure}`, plan: `plan_${measure}`, used: `${measure}_used`, start: 'billing_period_start', end: 'billing_period_end' }
    : { remaining: `remaining${capital(measure)}`, plan: `plan${capital(measure)}`, used: `${measure}Used`, start: 'billingPeriodStart', end: 'billingPeriodEnd' };
}

const vTag = (version: ApiVersion) => (version === 'v1' ? 'Usage' : 'v2');
const vId = (operationId: string, version: ApiVersion) => (version === 'v1' ? operationId : `${operationId}V2`);
/** The caller's account: an API key always has one; a paying wallet (x402) never reaches these routes, which take no payment. */
function accountOf(ctx: AppContext): string {
  const accountId = ctx.state.auth?.accountId;
  if (!accountId) throw new UnauthorizedError('Usage figures belong to an account: send an API key ("Authorization: Bearer <API_KEY>").');
  return accountId;
}

const unauthorized = { description: 'Missing, invalid or revoked API key. These figures belong to an account: a caller paying per request (x402) has none, so it gets this too.', schema: { $ref: '#/components/schemas/Error' } } as const;

function currentRoute(measure: Measure, version: ApiVersion): RouteSpec {
  const m = measures[measure];
  const f = fieldNames(measure, version);
  const planDoc = measure === 'credits' ? 'With billing on, the period’s credits granted; absent with billing off.' : 'Absent: there is no token plan.';
  const data: Schema = {
    type: 'object',
    properties: {
      [f.remaining]: { ...count, description: `${capital(m.unit)} left in the period; ${NO_LIMIT} (no limit) ${measure === 'credits' ? 'with billing off' : 'always: tokens are counted, not limited'}.` },
      [f.plan]: { ...count, description: planDoc },
      [f.used]: { ...count, description: `${capital(m.unit)} used in the period, by every key of the account.` },
      [f.start]: { ...isoTime, description: 'The period’s start: the billing period with billing on, else the current calendar month (UTC).' },
      [f.end]: { ...isoTime, description: 'The period’s end (exclusive).' },
    },
    required: [f.remaining, f.used, f.start, f.end],
  };
  return defineRoute({
    method: 'get',
    path: `/${version}/team/${m.path}`,
    operationId: vId(m.operationId, version),
    summary: `${m.title} of the account${version === 'v2' ? ' (v2)' : ''}`,
    description: `The account’s ${m.unit} in the current period (README "Usage and queue"); field names in ${version === 'v1' ? 'snake_case, as the v1 clients read them' : 'camelCase'}.`,
    tag: vTag(version),
    auth: 'apiKey',
    rateLimit: 'crawlStatus',
    responses: { 200: { description: 'The current period.', schema: { type: 'object', properties: { success: { const: true }, data }, required: ['success', 'data'] } }, 401: unauthorized },
    async handler(ctx: AppContext) {
      const usage: CurrentUsage = await m.read(ctx.state.deps, accountOf(ctx));
      ctx.body = {
        success: true,
        data: {
          [f.remaining]: usage.remaining,
          ...(usage.plan !== undefined ? { [f.plan]: usage.plan } : {}),
          [f.used]: usage.used,
          [f.start]: usage.period.start.toISOString(),
          [f.end]: usage.period.end.toISOString(),
        },
      };
    },
  });
}

const historicalQuery = {
  type: 'object',
  properties: { byApiKey: { type: 'boolean', default: false, description: 'One period per API key and month (the key shown by its prefix).' } },
  additionalProperties: false,
} as const;

function historicalRoute(measure: Measure, version: ApiVersion): RouteSpec {
  const m = measures[measure];
  const used = `${measure}Used`;
  return defineRoute({
    method: 'get',
    path: `/${version}/team/${m.path}/historical`,
    operationId: vId(`${m.operationId}Historical`, version),
    summary: `${m.title} per month${version === 'v2' ? ' (v2)' : ''}`,
    description: `The account’s ${m.unit} per calendar month (UTC), newest first, the last 12 months, months without any left out. With \`byApiKey=true\`, one period per key and month, most used first; what the account counted beyond its keys’ sum (pages stored before per-key counting began) comes last without \`apiKey\`.`,
    tag: vTag(version),
    auth: 'apiKey',
    rateLimit: 'crawlStatus',
    query: historicalQuery,
    responses: {
      200: {
        description: 'The months.',
        schema: {
          type: 'object',
          properties: {
            success: { const: true },
            periods: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  startDate: { ...isoTime, description: 'First instant of the month (UTC).' },
                  endDate: { ...isoTime, description: 'First instant of the next month (exclusive).' },
                  apiKey: { type: 'string', description: 'byApiKey: the key’s prefix, as the dashboard lists it (never the key).' },
                  [used]: count,
                },
                required: ['startDate', 'endDate', used],
              },
            },
          },
          required: ['success', 'periods'],
        },
      },
      401: unauthorized,
    },
    async handler(ctx, { query }) {
      const periods = await historicalUsage(ctx.state.deps, accountOf(ctx), m.metered, query.byApiKey ?? false);
      ctx.body = { success: true, periods: periods.map(({ used: n, ...p }) => ({ ...p, [used]: n })) };
    },
  });
}

const queueRoute = (version: ApiVersion) =>
  defineRoute({
    method: 'get',
    path: `/${version}/team/queue-status`,
    operationId: vId('queueStatus', version),
    summary: `Pages queued for the account${version === 'v2' ? ' (v2)' : ''}`,
    description: 'The pages of the account’s running crawls and batch scrapes (every key of it): waiting for a page lane and being fetched. Single scrapes are not queued here: they go straight to a worker.',
    tag: vTag(version),
    auth: 'apiKey',
    rateLimit: 'crawlStatus',
    responses: {
      200: {
        description: 'The queue.',
        schema: {
          type: 'object',
          properties: {
            success: { const: true },
            jobsInQueue: { ...count, description: 'activeJobsInQueue + waitingJobsInQueue.' },
            activeJobsInQueue: { ...count, description: 'Pages being fetched now (claimed by a page lane).' },
            waitingJobsInQueue: { ...count, description: 'Pages queued, waiting for a lane (or for a crawl delay or retry time).' },
            maxConcurrency: { ...count, description: 'Pages the deployment fetches at once: WORKER_CONCURRENCY times the workers serving now, shared by all accounts.' },
            mostRecentSuccess: { type: ['string', 'null'], format: 'date-time', description: 'When the account last stored a page (scrape, crawl or batch page, cache hit), if within the last 24 hours; else null.' },
          },
          required: ['success', 'jobsInQueue', 'activeJobsInQueue', 'waitingJobsInQueue', 'maxConcurrency', 'mostRecentSuccess'],
        },
      },
      401: unauthorized,
    },
    async handler(ctx: AppContext) {
      const [queue, max] = await Promise.all([queueStatus(ctx.state.deps, accountOf(ctx)), maxConcurrency(ctx.state.deps)]);
      ctx.body = {
        success: true,
        jobsInQueue: queue.active + queue.waiting,
        activeJobsInQueue: queue.active,
        waitingJobsInQueue: queue.waiting,
        maxConcurrency: max,
        mostRecentSuccess: queue.mostRecentSuccess?.toISOString() ?? null,
      };
    },
  });

export const concurrencyCheckRoute = defineRoute({
  method: 'get',
  path: '/v2/concurrency-check',
  operationId: 'concurrencyCheckV2',
  summary: 'Pages in flight for the account (v2)',
  description: 'How many pages of the account’s running crawls and batch scrapes are being fetched now, and how many the deployment fetches at once.',
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  responses: {
    200: {
      description: 'The concurrency.',
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          concurrency: { ...count, description: 'Pages of the account being fetched now (claimed by a page lane); single scrapes are not counted.' },
          maxConcurrency: { ...count, description: 'WORKER_CONCURRENCY times the workers serving now, shared by all accounts.' },
        },
        required: ['success', 'concurrency', 'maxConcurrency'],
      },
    },
    401: unauthorized,
  },
  async handler(ctx: AppContext) {
    const [queue, max] = await Promise.all([queueStatus(ctx.state.deps, accountOf(ctx)), maxConcurrency(ctx.state.deps)]);
    ctx.body = { success: true, concurrency: queue.active, maxConcurrency: max };
  },
});

export const teamUsageRoutes: RouteSpec[] = [
  ...versions.flatMap((v) => [currentRoute('credits', v), historicalRoute('credits', v), currentRoute('tokens', v), historicalRoute('tokens', v), queueRoute(v)]),
  concurrencyCheckRoute,
];
