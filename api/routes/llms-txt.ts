/**
 * llms.txt generation (README "llms.txt"): POST /v1/llmstxt starts a durable job
 * (workflows/llms-txt.ts), GET /v1/llmstxt/{id} reads it. The hosted API keeps these on v1 only.
 */
import { randomUUID } from 'node:crypto';
import { workflowIds, type Workflows } from '../../core/contracts.js';
import { NotFoundError, NotSupportedError } from '../../core/errors.js';
import { extractIdParams } from '../../core/schemas/extract.js';
import { llmsTxtRequestSchema } from '../../core/schemas/llms-txt.js';
import { safetyOptionsFrom } from '../../core/url-safety.js';
import { allowedTargetUrl } from '../target-url.js';
import { ownedBy } from '../../jobs/rows.js';
import { caller } from '../callers.js';
import { defineRoute } from '../route.js';
import { startJobWorkflow } from '../start-job-workflow.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;

export const startLlmsTxtRoute = defineRoute({
  method: 'post',
  path: '/v1/llmstxt',
  operationId: 'llmsTxt',
  billed: true,
  summary: 'Generate llms.txt for a site',
  description: 'Maps the site, reads up to `maxUrls` pages through the page pipeline, has the LLM title and describe each, and builds llms.txt (and with `showFullText` llms-full.txt). A durable job: poll GET /v1/llmstxt/{id}. A page read is one credit; tokens count as token usage. Needs LLM settings (501 otherwise).',
  tag: 'llms.txt',
  auth: 'apiKey',
  rateLimit: 'crawl',
  paidAs: 'crawl',
  body: llmsTxtRequestSchema,
  responses: {
    200: { description: 'The job was created and is running.', schema: { type: 'object', properties: { success: { const: true }, id: { type: 'string' } }, required: ['success', 'id'] } },
    400: { description: 'Invalid request; `details` names the field.', schema: errorRef },
    501: { description: 'No LLM is configured (LLM_BASE_URL, LLM_MODEL).', schema: errorRef },
    503: { description: 'The workers (Temporal) cannot be reached; nothing was started.', schema: errorRef },
  },
  async handler(ctx, { body }) {
    const { config, prisma } = ctx.state.deps;
    if (!config.LLM_BASE_URL || !config.LLM_MODEL) throw new NotSupportedError('llms.txt generation needs an LLM, and this server has none configured: its operator sets LLM_BASE_URL and LLM_MODEL (any chat-completions endpoint).');
    const url = allowedTargetUrl(body.url, safetyOptionsFrom(config));
    const who = caller(ctx);
    const id = randomUUID();
    await prisma.llmsTxtJob.create({ data: { id, apiKeyId: who.apiKeyId ?? null, payer: who.payer ?? null, url: url.href, maxUrls: body.maxUrls, showFullText: body.showFullText, expiresAt: new Date(Date.now() + config.CRAWL_TTL_SECONDS * 1000) } });
    await startJobWorkflow<Workflows['llmsTxtJob']>(ctx.state.deps, who, {
      noun: 'llms.txt job',
      workflowType: 'llmsTxtJob',
      workflowId: workflowIds.llmsTxt(id),
      args: [{ jobId: id }],
      summary: `llms.txt of ${url.hostname} (${body.maxUrls} pages at most)`,
      remove: () => prisma.llmsTxtJob.delete({ where: { id } }),
      markFailed: (error) => prisma.llmsTxtJob.update({ where: { id }, data: { status: 'failed', error } }),
    });
    ctx.body = { success: true, id };
  },
});

export const llmsTxtStatusRoute = defineRoute({
  method: 'get',
  path: '/v1/llmstxt/:id',
  operationId: 'llmsTxtStatus',
  summary: 'An llms.txt job’s status and texts',
  tag: 'llms.txt',
  auth: 'apiKey',
  rateLimit: 'crawlStatus',
  paidAs: 'crawlStatus',
  readsNoBody: true,
  params: extractIdParams,
  responses: {
    200: {
      description: '`processing`, then `completed` with `data.llmstxt` (and `data.llmsfulltxt` with showFullText), or `failed` with `error`.',
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          status: { enum: ['processing', 'completed', 'failed'] },
          data: { type: 'object', properties: { llmstxt: { type: 'string' }, llmsfulltxt: { type: 'string' } }, required: ['llmstxt'] },
          error: { type: 'string' },
          expiresAt: { type: 'string', format: 'date-time' },
        },
        required: ['success', 'status', 'expiresAt'],
      },
    },
    404: { description: 'Unknown, expired, or another caller’s job.', schema: errorRef },
  },
  async handler(ctx, { params }) {
    const { id } = params as { id: string };
    const row = await ctx.state.deps.prisma.llmsTxtJob.findFirst({ where: { id, ...ownedBy(caller(ctx)), expiresAt: { gt: new Date() } } });
    if (!row) throw new NotFoundError(`No llms.txt job ${id} (it may have expired, or belong to another API key).`);
    ctx.body = {
      success: true,
      status: row.status,
      ...(row.llmstxt !== null ? { data: { llmstxt: row.llmstxt, ...(row.llmsfulltxt !== null ? { llmsfulltxt: row.llmsfulltxt } : {}) } } : {}),
      ...(row.error ? { error: row.error } : {}),
      expiresAt: row.expiresAt.toISOString(),
    };
  },
});
