/**
 * Crawls and batch scrapes of the signed-in account (any of its keys, revoked ones included): list,
 * detail with skip counts and errors, documents, cancel. Reads and cancels go through the same
 * operations as the API (jobs/) once the job is known to be the account's.
 */
import { NotFoundError } from '../../../core/errors.js';
import { cancelJob } from '../../../jobs/cancel.js';
import { jobErrors, jobSummary, temporalUrl } from '../../../jobs/read.js';
import type { Job } from '../../../prisma/client.js';
import type { AppContext } from '../../route.js';
import { dashboardRoute, emptyBody, idParams } from '../define.js';
import { documentsAnswer, jobAnswer, jobDetailAnswer, jobKindSchema, jobsAnswer } from '../schemas.js';
import type { DashboardSession } from '../session.js';

type Row = Job & { apiKey: { prefix: string } | null };

async function ownJob(ctx: AppContext, session: DashboardSession, id: string): Promise<Row> {
  const row = await ctx.state.deps.prisma.job.findFirst({ where: { id, apiKey: { accountId: session.account.id }, expiresAt: { gt: new Date() } }, include: { apiKey: { select: { prefix: true } } } });
  if (!row) throw new NotFoundError(`No crawl or batch scrape with id ${id} in this account (it may have expired).`);
  return row;
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

export const jobRoutes = [
  dashboardRoute({
    method: 'get',
    path: '/jobs',
    access: 'member',
    query: { type: 'object', additionalProperties: false, properties: { kind: jobKindSchema } },
    response: jobsAnswer,
    async handler(ctx, { query, session }) {
      const rows = await ctx.state.deps.prisma.job.findMany({
        where: { apiKey: { accountId: session.account.id }, expiresAt: { gt: new Date() }, ...(query.kind ? { kind: query.kind } : {}) },
        include: { apiKey: { select: { prefix: true } } },
        orderBy: { createdAt: 'desc' },
        take: 100,
      });
      return { jobs: rows.map(jobSummary) };
    },
  }),
  dashboardRoute({
    method: 'get',
    path: '/jobs/:id',
    access: 'member',
    params: idParams,
    response: jobDetailAnswer,
    async handler(ctx, { params, session }) {
      const row = await ownJob(ctx, session, params.id);
      const { errors, robotsBlocked } = await jobErrors(ctx.state.deps, row.id, { apiKeyId: row.apiKeyId! });
      // `skipped` and `options` are JSON columns: counts by reason, and the request's options object.
      return {
        job: {
          ...jobSummary(row),
          skipped: row.skipped as Record<string, number>,
          error: row.error,
          errors: errors.map((e) => ({ url: e.url, code: e.code ?? null, error: e.error })),
          robotsBlocked,
          temporalUrl: temporalUrl(ctx.state.deps.config.TEMPORAL_UI_URL, ctx.state.deps.config.TEMPORAL_NAMESPACE, row),
          options: row.options as Record<string, unknown>,
        },
      };
    },
  }),
  dashboardRoute({
    method: 'get',
    path: '/jobs/:id/documents',
    access: 'member',
    params: idParams,
    query: { type: 'object', additionalProperties: false, properties: { offset: { type: 'integer', minimum: 0, default: 0 }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } } },
    response: documentsAnswer,
    async handler(ctx, { params, query, session }) {
      const row = await ownJob(ctx, session, params.id);
      const { prisma } = ctx.state.deps;
      const [docs, total] = await Promise.all([
        prisma.document.findMany({ where: { jobId: row.id }, orderBy: { sequence: 'asc' }, skip: query.offset, take: query.limit, omit: { screenshot: true, html: true, rawHtml: true } }),
        prisma.document.count({ where: { jobId: row.id } }),
      ]);
      const documents = docs.map((d) => {
        const metadata = (d.metadata ?? {}) as Record<string, unknown>;
        return { id: d.id, url: d.url, statusCode: d.statusCode, title: text(metadata.title), description: text(metadata.description), markdown: d.markdown ?? '', metadata, links: (d.links as string[] | null) ?? [] };
      });
      return { documents, total };
    },
  }),
  dashboardRoute({
    method: 'post',
    path: '/jobs/:id/cancel',
    access: 'member',
    params: idParams,
    body: emptyBody,
    response: jobAnswer,
    async handler(ctx, { params, session }) {
      const row = await ownJob(ctx, session, params.id);
      await cancelJob(ctx.state.deps, row.id, { apiKeyId: row.apiKeyId! });
      return { job: jobSummary(await ownJob(ctx, session, params.id)) };
    },
  }),
];
