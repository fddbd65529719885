/** Pages per day for the last 30 days (zero-filled, oldest first) and the recent API requests. */
import { dashboardRoute } from '../define.js';
import { activityAnswer, usageAnswer } from '../schemas.js';

const DAYS = 30;
const ACTIVITY_ROWS = 200;

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export const usageRoutes = [
  dashboardRoute({
    method: 'get',
    path: '/usage',
    access: 'member',
    response: usageAnswer,
    async handler(ctx, { session }) {
      const today = new Date(`${dayKey(new Date())}T00:00:00Z`);
      const since = new Date(today.getTime() - (DAYS - 1) * 86_400_000);
      const rows = await ctx.state.deps.prisma.usageDay.findMany({ where: { accountId: session.account.id, day: { gte: since } }, select: { day: true, pages: true } });
      const byDay = new Map(rows.map((r) => [dayKey(r.day), r.pages]));
      const days = Array.from({ length: DAYS }, (_, i) => {
        const day = dayKey(new Date(since.getTime() + i * 86_400_000));
        return { day, pages: byDay.get(day) ?? 0 };
      });
      return { days };
    },
  }),
  dashboardRoute({
    method: 'get',
    path: '/activity',
    access: 'member',
    response: activityAnswer,
    async handler(ctx, { session }) {
      const { prisma } = ctx.state.deps;
      const rows = await prisma.requestLog.findMany({ where: { accountId: session.account.id }, orderBy: { id: 'desc' }, take: ACTIVITY_ROWS });
      const keys = await prisma.apiKey.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.apiKeyId))] } }, select: { id: true, prefix: true } });
      const prefixOf = new Map(keys.map((k) => [k.id, k.prefix]));
      return {
        entries: rows.map((r) => ({ at: r.createdAt.toISOString(), method: r.method, path: r.path, status: r.status, durationMs: r.durationMs, credits: r.credits, keyPrefix: prefixOf.get(r.apiKeyId) ?? null })),
      };
    },
  }),
];
