/**
 * Monitors (scheduled recrawls) of the signed-in account: the /v2/monitor operations
 * (api/monitors.ts), called with the monitor's own key once it is known to be the account's.
 */
import { NotFoundError } from '../../../core/errors.js';
import { createMonitorSchema, MAX_TARGET_URLS, type CreateMonitorRequest } from '../../../core/schemas/monitor.js';
import type { Monitor } from '../../../prisma/client.js';
import { validateInput } from '../../middleware/validate.js';
import { createMonitor, deleteMonitor, getCheck, listChecks, runMonitor, updateMonitor } from '../../monitors.js';
import { monitorView } from '../../monitor-views.js';
import type { AppContext } from '../../route.js';
import { dashboardRoute, emptyBody, idParams } from '../define.js';
import { checkAnswer, checkRunAnswer, checksAnswer, monitorAnswer, monitorsAnswer } from '../schemas.js';
import type { DashboardSession } from '../session.js';
import { ownActiveKey } from './keys.js';

function view(m: Monitor) {
  const v = monitorView(m, null);
  // monitor.status is text; its CHECK constraint holds it to these two.
  return { id: v.id, name: v.name, status: v.status as 'active' | 'paused', schedule: m.scheduleText ?? `${m.cron} (${m.timezone})`, lastRunAt: v.lastRunAt, nextRunAt: v.nextRunAt, createdAt: v.createdAt, pausedReason: m.pausedReason };
}

async function ownMonitor(ctx: AppContext, session: DashboardSession, id: string): Promise<Monitor> {
  const { prisma } = ctx.state.deps;
  const monitor = await prisma.monitor.findUnique({ where: { id } });
  const key = monitor && (await prisma.apiKey.findFirst({ where: { id: monitor.apiKeyId, accountId: session.account.id }, select: { id: true } }));
  if (!monitor || !key) throw new NotFoundError(`No monitor with id ${id} in this account.`);
  return monitor;
}

const refreshed = async (ctx: AppContext, id: string) => ({ monitor: view(await ctx.state.deps.prisma.monitor.findUniqueOrThrow({ where: { id } })) });

const checkParams = { type: 'object', required: ['id', 'checkId'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, checkId: { type: 'string', minLength: 1, maxLength: 100 } } } as const;

const setStatus = (status: 'active' | 'paused', path: string) =>
  dashboardRoute({
    method: 'post',
    path,
    access: 'member',
    params: idParams,
    body: emptyBody,
    response: monitorAnswer,
    async handler(ctx, { params, session }) {
      const monitor = await ownMonitor(ctx, session, params.id);
      await updateMonitor(ctx.state.deps, monitor.apiKeyId, monitor.id, { status });
      return refreshed(ctx, monitor.id);
    },
  });

export const monitorRoutes = [
  dashboardRoute({
    method: 'get',
    path: '/monitors',
    access: 'member',
    response: monitorsAnswer,
    async handler(ctx, { session }) {
      const { prisma } = ctx.state.deps;
      // Monitors belong to keys, keys to the account (revoked keys' monitors included: they show why they paused).
      const keys = await prisma.apiKey.findMany({ where: { accountId: session.account.id }, select: { id: true } });
      const rows = await prisma.monitor.findMany({ where: { apiKeyId: { in: keys.map((k) => k.id) } }, orderBy: { createdAt: 'desc' }, take: 200 });
      return { monitors: rows.map(view) };
    },
  }),
  dashboardRoute({
    method: 'post',
    path: '/monitors',
    access: 'member',
    status: 201,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'apiKeyId', 'schedule', 'urls'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        apiKeyId: { type: 'string', minLength: 1, maxLength: 100 },
        schedule: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string', minLength: 1, maxLength: 200 } } },
        urls: { type: 'array', minItems: 1, maxItems: MAX_TARGET_URLS, items: { type: 'string', minLength: 1, maxLength: 2048 } },
      },
    },
    response: monitorAnswer,
    async handler(ctx, { body, session }) {
      const apiKeyId = await ownActiveKey(ctx, session, body.apiKeyId);
      // The same request a /v2/monitor client would send, validated by the same schema.
      const request = validateInput('body', createMonitorSchema, { name: body.name, schedule: body.schedule, targets: [{ type: 'scrape', urls: body.urls }] }) as CreateMonitorRequest;
      const created = await createMonitor(ctx.state.deps, apiKeyId, request);
      return refreshed(ctx, created.data.id);
    },
  }),
  setStatus('paused', '/monitors/:id/pause'),
  setStatus('active', '/monitors/:id/resume'),
  dashboardRoute({
    method: 'post',
    path: '/monitors/:id/run',
    access: 'member',
    params: idParams,
    body: emptyBody,
    response: checkRunAnswer,
    async handler(ctx, { params, session }) {
      const monitor = await ownMonitor(ctx, session, params.id);
      const { data } = await runMonitor(ctx.state.deps, monitor.apiKeyId, monitor.id);
      return { check: data };
    },
  }),
  dashboardRoute({
    method: 'delete',
    path: '/monitors/:id',
    access: 'member',
    params: idParams,
    async handler(ctx, { params, session }) {
      const monitor = await ownMonitor(ctx, session, params.id);
      await deleteMonitor(ctx.state.deps, monitor.apiKeyId, monitor.id);
      return undefined;
    },
  }),
  dashboardRoute({
    method: 'get',
    path: '/monitors/:id/checks',
    access: 'member',
    params: idParams,
    response: checksAnswer,
    async handler(ctx, { params, session }) {
      const monitor = await ownMonitor(ctx, session, params.id);
      const { data } = await listChecks(ctx.state.deps, monitor.apiKeyId, monitor.id, { limit: 100, offset: 0 });
      return { monitor: view(monitor), checks: data };
    },
  }),
  dashboardRoute({
    method: 'get',
    path: '/monitors/:id/checks/:checkId',
    access: 'member',
    params: checkParams,
    response: checkAnswer,
    async handler(ctx, { params, session }) {
      const monitor = await ownMonitor(ctx, session, params.id);
      const { data } = await getCheck(ctx.state.deps, monitor.apiKeyId, monitor.id, params.checkId, { limit: 1000, skip: 0 });
      const { pages, ...check } = data;
      const diffText = (diff: unknown) => (diff && typeof diff === 'object' && typeof (diff as { text?: unknown }).text === 'string' ? (diff as { text: string }).text : null);
      return { monitor: view(monitor), check, pages: pages.map((p) => ({ url: p.url, status: p.status, diff: diffText(p.diff) })) };
    },
  }),
];
