/**
 * Status, cancel and errors of a job, for each kind (jobs/kinds.ts) on v1 and v2: one family of
 * routes per kind and version, made from the kinds table. The v1 forms keep what the official SDKs
 * send: DELETE on …/errors (the JS SDK's "get errors") and, for crawls, DELETE …/cancel. A crawl
 * endpoint answers for a batch scrape's id too (the JS SDK polls it there); a batch endpoint only
 * for batches. On v2 a job that had already completed or failed cannot be cancelled (409).
 */
import type { JobKind } from '../../core/job-contracts.js';
import { batchIdParams } from '../../core/schemas/batch.js';
import { crawlIdParams, crawlStatusQuery, crawlStatusSchema, jobErrorsSchema } from '../../core/schemas/crawl.js';
import { ConflictError } from '../../core/errors.js';
import { cancelJob } from '../../jobs/cancel.js';
import { kinds } from '../../jobs/kinds.js';
import { jobErrors, jobStatus, type ApiVersion } from '../../jobs/read.js';
import { caller, linkStyle } from '../callers.js';
import { defineRoute, type AppContext, type RouteSpec } from '../route.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;

/** What the kind adds to its v1 descriptions. */
const v1Notes: Record<JobKind, { status: string; errors: string }> = {
  crawl: { status: 'Read from PostgreSQL. `next` is present only while more documents exist beyond this page. A batch scrape’s id works here too.', errors: 'Each failed page with its error and code, and the URLs robots.txt kept the crawl from.' },
  batch_scrape: { status: 'The same shape as a crawl’s status; `next` is present only while more documents exist beyond this page.', errors: 'Each failed page with its error and code.' },
};

export function jobRoutes(kind: JobKind, version: ApiVersion): RouteSpec[] {
  const { noun, Noun, name, path: kindPath, tag: kindTag } = kinds[kind];
  const v2 = version === 'v2';
  const suffix = v2 ? ' (v2)' : '';
  const opSuffix = v2 ? 'V2' : '';
  const path = `/${version}/${kindPath}/:id`;
  // Crawl endpoints take either kind's id; batch endpoints only a batch's.
  const only = kind === 'crawl' ? undefined : kind;
  const common = { tag: v2 ? 'v2' : kindTag, auth: 'apiKey', params: kind === 'crawl' ? crawlIdParams : batchIdParams } as const;
  const notFound = { description: `Unknown or expired ${noun} id.`, schema: errorRef } as const;

  const status = defineRoute({
    ...common,
    method: 'get',
    path,
    operationId: `get${name}${opSuffix}`,
    rateLimit: 'crawlStatus',
    paidAs: 'crawlStatus',
    summary: `${Noun} status and documents${suffix}`,
    description: v2 ? 'As on v1; pages with `skip` and `limit`. `next` is present only while more finished documents exist beyond this page.' : v1Notes[kind].status,
    query: crawlStatusQuery,
    responses: { 200: { description: 'Status, counters and one page of documents.', schema: crawlStatusSchema }, 404: notFound },
    async handler(ctx: AppContext, { params, query }) {
      ctx.body = await jobStatus(ctx.state.deps, params.id, caller(ctx), { offset: query.offset ?? query.skip ?? 0, limit: query.limit, path: kind, style: linkStyle(ctx), version });
    },
  });

  const cancelCommon = { ...common, rateLimit: 'cancel', paidAs: 'cancel', summary: `Cancel a ${noun}${suffix}` } as const;
  const cancels = v2
    ? [
        defineRoute({
          ...cancelCommon,
          method: 'delete',
          path,
          operationId: `cancel${name}V2`,
          description: `The status is \`cancelled\` at once; queued pages are dropped. A ${noun} that had already completed or failed gets 409; cancelling a cancelled one again answers 200.`,
          responses: {
            200: { description: 'Cancelled.', schema: { type: 'object', properties: { success: { const: true }, status: { const: 'cancelled' } }, required: ['success', 'status'] } },
            404: notFound,
            409: { description: `The ${noun} had already completed or failed.`, schema: errorRef },
          },
          async handler(ctx: AppContext, { params }) {
            const { endedAs } = await cancelJob(ctx.state.deps, params.id, caller(ctx), only);
            if (endedAs && endedAs !== 'cancelled') throw new ConflictError(`The ${noun} ${params.id} has already ${endedAs === 'completed' ? 'completed' : 'failed'}: there is nothing to cancel.`);
            ctx.body = { success: true, status: 'cancelled' };
          },
        }),
      ]
    : // DELETE …/cancel is the crawl's other spelling in the spec.
      (kind === 'crawl' ? [path, `${path}/cancel`] : [path]).map((cancelPath, i) =>
        defineRoute({
          ...cancelCommon,
          method: 'delete',
          path: cancelPath,
          operationId: `cancel${name}${i ? 'Alias' : ''}`,
          description: `The status is \`cancelled\` at once; queued pages are dropped and no new page starts. Cancelling an ended ${noun} changes nothing.`,
          responses: {
            200: { description: 'Cancelled (or already ended).', schema: { type: 'object', properties: { success: { const: true }, message: { type: 'string' } }, required: ['success', 'message'] } },
            404: notFound,
          },
          async handler(ctx: AppContext, { params }) {
            const { success, message } = await cancelJob(ctx.state.deps, params.id, caller(ctx), only);
            ctx.body = { success, message };
          },
        }),
      );

  // v1 answers DELETE on …/errors too: the JS SDK sends it to read them. It cancels nothing.
  const errors = (v2 ? (['get'] as const) : (['get', 'delete'] as const)).map((method) =>
    defineRoute({
      ...common,
      method,
      path: `${path}/errors`,
      operationId: `get${name}Errors${method === 'delete' ? 'ByDelete' : ''}${opSuffix}`,
      rateLimit: 'crawlStatus',
      paidAs: 'crawlStatus',
      summary: `Pages of a ${noun} that failed${suffix}`,
      description: v2 ? 'Each failed page with its error and code, and the URLs robots.txt kept the job from.' : `${v1Notes[kind].errors} Also answered to DELETE, which is what the JS SDK sends: it cancels nothing.`,
      responses: { 200: { description: 'The failures so far.', schema: jobErrorsSchema }, 404: notFound },
      async handler(ctx: AppContext, { params }) {
        ctx.body = await jobErrors(ctx.state.deps, params.id, caller(ctx), only);
      },
    }),
  );
  return [status, ...cancels, ...errors];
}
