/**
 * /v2/monitor: scheduled recrawls with change tracking, in the hosted v2 API's shapes, so the
 * official MCP server's monitor tools and the SDKs' monitor methods work unmodified (README
 * "Monitors"). For API keys only: a monitor runs on its own for months, which a one-off x402
 * payment cannot pay for.
 */
import { checkIdParams, checkPagesQuery, checksQuery, createMonitorSchema, envelopeSchema, listQuery, monitorIdParams, updateMonitorSchema } from '../../core/schemas/monitor.js';
import { createMonitor, deleteMonitor, getCheck, getMonitor, listChecks, listMonitors, runMonitor, updateMonitor } from '../monitors.js';
import { defineRoute, type AppContext } from '../route.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;
const notFound = { description: 'No such monitor (or another API key’s).', schema: errorRef } as const;
const object = { type: 'object' } as const;
const list = { type: 'array', items: object } as const;
const pagination = { pagination: { type: 'object', properties: { limit: { type: 'integer' }, offset: { type: 'integer' }, total: { type: 'integer' } } } } as const;
const common = { tag: 'Monitors', auth: 'apiKey', rateLimit: 'monitor' } as const;
const keyOf = (ctx: AppContext) => ctx.state.auth!.apiKeyId!;

export const createMonitorRoute = defineRoute({
  ...common,
  method: 'post',
  path: '/v2/monitor',
  operationId: 'createMonitor',
  billed: true,
  summary: 'Create a monitor',
  description: 'A recurring scrape or crawl of its targets, each check compared with the previous one. The answer’s `data` is the monitor.',
  body: createMonitorSchema,
  responses: { 200: { description: 'The monitor.', schema: envelopeSchema(object) }, 409: { description: 'The account has MONITORS_PER_ACCOUNT monitors already (over all its keys).', schema: errorRef } },
  async handler(ctx, { body }) {
    ctx.body = await createMonitor(ctx.state.deps, keyOf(ctx), body);
  },
});

export const listMonitorsRoute = defineRoute({
  ...common,
  method: 'get',
  path: '/v2/monitor',
  operationId: 'listMonitors',
  summary: 'List monitors',
  query: listQuery,
  responses: { 200: { description: 'One page of the API key’s monitors, newest first.', schema: envelopeSchema(list, pagination) } },
  async handler(ctx, { query }) {
    ctx.body = await listMonitors(ctx.state.deps, keyOf(ctx), query);
  },
});

export const getMonitorRoute = defineRoute({
  ...common,
  method: 'get',
  path: '/v2/monitor/:id',
  operationId: 'getMonitor',
  summary: 'A monitor',
  params: monitorIdParams,
  responses: { 200: { description: 'The monitor.', schema: envelopeSchema(object) }, 404: notFound },
  async handler(ctx, { params }) {
    ctx.body = await getMonitor(ctx.state.deps, keyOf(ctx), params.id);
  },
});

export const updateMonitorRoute = defineRoute({
  ...common,
  method: 'patch',
  path: '/v2/monitor/:id',
  operationId: 'updateMonitor',
  summary: 'Change a monitor',
  description: 'Any of name, status (active / paused), schedule, targets, webhook, retentionDays, goal, judgeEnabled; the Schedule follows at once.',
  params: monitorIdParams,
  body: updateMonitorSchema,
  responses: { 200: { description: 'The monitor.', schema: envelopeSchema(object) }, 404: notFound },
  async handler(ctx, { params, body }) {
    ctx.body = await updateMonitor(ctx.state.deps, keyOf(ctx), params.id, body);
  },
});

export const deleteMonitorRoute = defineRoute({
  ...common,
  method: 'delete',
  path: '/v2/monitor/:id',
  operationId: 'deleteMonitor',
  summary: 'Delete a monitor',
  description: 'Its Schedule and its checks go with it.',
  params: monitorIdParams,
  responses: { 200: { description: 'Deleted.', schema: { type: 'object', properties: { success: { const: true } }, required: ['success'] } }, 404: notFound },
  async handler(ctx, { params }) {
    ctx.body = await deleteMonitor(ctx.state.deps, keyOf(ctx), params.id);
  },
});

export const runMonitorRoute = defineRoute({
  ...common,
  method: 'post',
  path: '/v2/monitor/:id/run',
  operationId: 'runMonitor',
  billed: true,
  summary: 'Run a check now',
  description: 'Starts a check outside the schedule and answers at once with it, queued. No body is needed (one is ignored).',
  params: monitorIdParams,
  body: { type: 'object', description: 'Ignored (the SDKs send `{}` or their `origin`).' },
  responses: {
    200: { description: 'The queued check (`data.id` is its id).', schema: envelopeSchema(object) },
    404: notFound,
    409: { description: 'The monitor is paused, or a check is running.', schema: errorRef },
  },
  async handler(ctx, { params }) {
    ctx.body = await runMonitor(ctx.state.deps, keyOf(ctx), params.id);
  },
});

export const listChecksRoute = defineRoute({
  ...common,
  method: 'get',
  path: '/v2/monitor/:id/checks',
  operationId: 'listMonitorChecks',
  summary: 'A monitor’s checks',
  params: monitorIdParams,
  query: checksQuery,
  responses: { 200: { description: 'One page of checks, newest first.', schema: envelopeSchema(list, pagination) }, 404: notFound },
  async handler(ctx, { params, query }) {
    ctx.body = await listChecks(ctx.state.deps, keyOf(ctx), params.id, query);
  },
});

export const getCheckRoute = defineRoute({
  ...common,
  method: 'get',
  path: '/v2/monitor/:id/checks/:checkId',
  operationId: 'getMonitorCheck',
  summary: 'A check and its pages',
  description: 'The check with one page of its pages (same, new, changed, removed, error; with diffs and judgments); `next` is an absolute URL while more pages remain.',
  params: checkIdParams,
  query: checkPagesQuery,
  responses: { 200: { description: 'The check and a page of its pages.', schema: envelopeSchema(object, { next: { type: 'string' } }) }, 404: notFound },
  async handler(ctx, { params, query }) {
    ctx.body = await getCheck(ctx.state.deps, keyOf(ctx), params.id, params.checkId, query);
  },
});

export const monitorRoutes = [createMonitorRoute, listMonitorsRoute, getMonitorRoute, updateMonitorRoute, deleteMonitorRoute, runMonitorRoute, listChecksRoute, getCheckRoute];
