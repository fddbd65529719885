/**
 * Extract jobs (README "Extract jobs"): POST /v1/extract starts one, GET /v1/extract/{id} reads it;
 * the v2 twins take v2 scrape options. The work is a durable workflow (workflows/extract.ts).
 */
import { extractIdParams, extractRequestSchema, type ExtractRequest } from '../../core/schemas/extract.js';
import { v2ExtractRequestSchema } from '../../core/schemas/v2.js';
import { extractFromV2 } from '../../core/v2/requests.js';
import { caller } from '../callers.js';
import { extractStatus, startExtract } from '../extract-jobs.js';
import { validateInput } from '../middleware/validate.js';
import { defineRoute, type RouteSpec } from '../route.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;

const started = {
  description: 'The extract job was created and is running.',
  schema: { type: 'object', properties: { success: { const: true }, id: { type: 'string' }, invalidURLs: { type: 'array', items: { type: 'string' } } }, required: ['success', 'id'] },
} as const;

const status = {
  description: 'The job: `processing`, then `completed` with `data` (and `sources` with showSources), or `failed` with `error`.',
  schema: {
    type: 'object',
    properties: {
      success: { const: true },
      id: { type: 'string' },
      status: { enum: ['processing', 'completed', 'failed', 'cancelled'] },
      data: { description: 'The answer, matching `schema` when one was given.' },
      sources: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Top-level field → the URLs whose pages gave it.' },
      error: { type: 'string' },
      warning: { type: 'string' },
      expiresAt: { type: 'string', format: 'date-time' },
      tokensUsed: { type: 'integer', description: 'LLM tokens the job used (as the endpoint reported them).' },
      creditsUsed: { type: 'integer', description: 'Pages read, one credit each.' },
    },
    required: ['success', 'id', 'status', 'expiresAt', 'tokensUsed', 'creditsUsed'],
  },
} as const;

const refusals = {
  400: { description: 'Invalid request; `details` names the field.', schema: errorRef },
  501: { description: 'No LLM is configured (LLM_BASE_URL, LLM_MODEL).', schema: errorRef },
  503: { description: 'The workers (Temporal) cannot be reached; nothing was started.', schema: errorRef },
} as const;

const startDescription = (v: 'v1' | 'v2') =>
  `Read pages (\`urls\`, patterns with \`*\` mapped, web results with enableWebSearch), extract from each with the LLM (in chunks that fit its context), and merge the answers into one. Runs as a durable workflow; poll GET /${v}/extract/{id}. A page read is one credit; tokens count as token usage.`;

function extractRoutes(v: 'v1' | 'v2'): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: `/${v}/extract`,
      operationId: v === 'v1' ? 'extractJob' : 'extractJobV2',
      billed: true,
      summary: v === 'v1' ? 'Start an extract job' : 'Start an extract job (v2)',
      description: startDescription(v),
      tag: v === 'v1' ? 'Extract' : 'v2',
      auth: 'apiKey',
      rateLimit: 'crawl',
      paidAs: 'crawl',
      body: v === 'v1' ? extractRequestSchema : v2ExtractRequestSchema,
      responses: { 200: started, ...refusals },
      async handler(ctx, { body }) {
        const request = (v === 'v1' ? body : validateInput('body', extractRequestSchema, extractFromV2(body as never))) as ExtractRequest;
        ctx.body = await startExtract(ctx.state.deps, request, caller(ctx));
      },
    }),
    defineRoute({
      method: 'get',
      path: `/${v}/extract/:id`,
      operationId: v === 'v1' ? 'extractJobStatus' : 'extractJobStatusV2',
      summary: v === 'v1' ? 'An extract job’s status and answer' : 'An extract job’s status and answer (v2)',
      tag: v === 'v1' ? 'Extract' : 'v2',
      auth: 'apiKey',
      rateLimit: 'crawlStatus',
      paidAs: 'crawlStatus',
      readsNoBody: true,
      params: extractIdParams,
      responses: { 200: status, 404: { description: 'Unknown, expired, or another caller’s job.', schema: errorRef } },
      async handler(ctx, { params }) {
        ctx.body = await extractStatus(ctx.state.deps, (params as { id: string }).id, caller(ctx));
      },
    }),
  ];
}

export const extractJobRoutes = [...extractRoutes('v1'), ...extractRoutes('v2')];
