/**
 * Extract jobs from the API's side (README "Extract jobs"): starting one (the request checked, the
 * row written, the `extractJob` workflow started) and reading its status. The work runs on the
 * workers (workflows/extract.ts).
 */
import { randomUUID } from 'node:crypto';
import { workflowIds, type Workflows } from '../core/contracts.js';
import { invalidBody, NotFoundError, NotSupportedError, type ErrorDetail } from '../core/errors.js';
import type { ExtractHooks, ExtractRequest } from '../core/schemas/extract.js';
import { pageOptionProblems } from '../core/schemas/scrape.js';
import { extractionSchemaProblem } from '../core/llm-schema.js';
import { checkUrlSyntax, safetyOptionsFrom, UnsafeUrlError } from '../core/url-safety.js';
import type { Caller } from '../jobs/deps.js';
import { ownedBy } from '../jobs/rows.js';
import { searchProviderFrom } from '../search/index.js';
import { webhookUrlProblems } from './webhook-urls.js';
import type { ApiDeps } from './deps.js';
import { startJobWorkflow } from './start-job-workflow.js';

function requestProblems(deps: ApiDeps, req: ExtractRequest): { details: ErrorDetail[]; invalidURLs: string[] } {
  const details: ErrorDetail[] = [];
  const invalidURLs: string[] = [];
  if (!req.prompt && !req.schema) details.push({ field: 'prompt', message: 'give a prompt or a schema (or both): what to extract' });
  if (!req.urls?.length && !req.enableWebSearch) details.push({ field: 'urls', message: 'give the pages to read, or enableWebSearch' });
  if (req.enableWebSearch && !searchProviderFrom(deps.config)) details.push({ field: 'enableWebSearch', message: 'this server has no search provider: its operator sets SEARXNG_ENDPOINT (or SERPER_API_KEY)' });
  const schemaProblem = req.schema ? extractionSchemaProblem(req.schema as Record<string, unknown>) : undefined;
  if (schemaProblem) details.push({ field: 'schema', message: schemaProblem });
  details.push(...webhookUrlProblems({ webhook: req.webhook }, safetyOptionsFrom(deps.config)));
  if (req.scrapeOptions) details.push(...pageOptionProblems(req.scrapeOptions, req.scrapeOptions.timeout).map((d) => ({ field: `scrapeOptions.${d.field}`, message: d.message })));
  (req.urls ?? []).forEach((url, i) => {
    try {
      // A pattern's `*` is checked as a path character.
      checkUrlSyntax(url.replaceAll('*', 'x'), safetyOptionsFrom(deps.config));
    } catch (err) {
      if (!(err instanceof UnsafeUrlError)) throw err;
      if (req.ignoreInvalidURLs) invalidURLs.push(url);
      else details.push({ field: `urls[${i}]`, message: err.message });
    }
  });
  return { details, invalidURLs };
}

/** The job's `webhook` as its receivers (the hosted shape: a URL, or one with headers, metadata and events). */
function hooksOf(req: ExtractRequest): ExtractHooks | undefined {
  if (!req.webhook) return undefined;
  const hook = typeof req.webhook === 'string' ? { url: req.webhook } : req.webhook;
  return { urls: [hook.url], ...(hook.metadata !== undefined ? { metadata: hook.metadata } : {}), ...(hook.headers ? { headers: hook.headers } : {}), ...(hook.events ? { events: hook.events } : {}) };
}

export async function startExtract(deps: ApiDeps, req: ExtractRequest, caller: Caller): Promise<{ success: true; id: string; invalidURLs?: string[] }> {
  const { config, prisma } = deps;
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) throw new NotSupportedError('Extract jobs need an LLM, and this server has none configured: its operator sets LLM_BASE_URL and LLM_MODEL (any chat-completions endpoint).');
  const { details, invalidURLs } = requestProblems(deps, req);
  if (details.length) throw invalidBody(details);
  const options = { ...req, urls: (req.urls ?? []).filter((u) => !invalidURLs.includes(u)) };
  const id = randomUUID();
  await prisma.extractJob.create({ data: { id, apiKeyId: caller.apiKeyId ?? null, payer: caller.payer ?? null, options: options as object, expiresAt: new Date(Date.now() + config.CRAWL_TTL_SECONDS * 1000) } });
  const hooks = hooksOf(req);
  await startJobWorkflow<Workflows['extractJob']>(deps, caller, {
    noun: 'extract job',
    workflowType: 'extractJob',
    workflowId: workflowIds.extract(id),
    args: [{ extractId: id, ...(hooks ? { hooks } : {}) }],
    summary: `Extract from ${options.urls.length} URL${options.urls.length === 1 ? '' : 's'}${options.enableWebSearch ? ' and web results' : ''}`,
    remove: () => prisma.extractJob.delete({ where: { id } }),
    markFailed: (error) => prisma.extractJob.update({ where: { id }, data: { status: 'failed', error } }),
  });
  return { success: true, id, ...(req.ignoreInvalidURLs ? { invalidURLs } : {}) };
}

export interface ExtractStatus {
  success: true;
  id: string;
  status: string;
  data?: unknown;
  sources?: unknown;
  error?: string;
  warning?: string;
  expiresAt: string;
  tokensUsed: number;
  creditsUsed: number;
}

/** Unknown, expired or another caller's job: 404, never a hint that it exists. */
export async function extractStatus(deps: ApiDeps, id: string, caller: Caller): Promise<ExtractStatus> {
  const row = await deps.prisma.extractJob.findFirst({ where: { id, ...ownedBy(caller), expiresAt: { gt: new Date() } } });
  if (!row) throw new NotFoundError(`No extract job ${id} (it may have expired, or belong to another API key).`);
  // A page read costs a credit, whether or not the LLM found anything in it (activities/extract/pages.ts).
  const firstChunks = await deps.prisma.extractPage.findMany({ where: { extractId: id, chunk: 0 }, select: { error: true } });
  const pagesRead = firstChunks.filter((p) => p.error === null || p.error.startsWith('Extraction failed')).length;
  const options = row.options as ExtractRequest;
  return {
    success: true,
    id: row.id,
    status: row.status,
    ...(row.status === 'completed' ? { data: row.data } : {}),
    ...(row.status === 'completed' && options.showSources ? { sources: row.sources } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(row.warning ? { warning: row.warning } : {}),
    expiresAt: row.expiresAt.toISOString(),
    tokensUsed: row.tokensUsed,
    creditsUsed: pagesRead,
  };
}
