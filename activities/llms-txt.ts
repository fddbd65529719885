/**
 * llms.txt jobs (workflows/llms-txt.ts): map the site, read each page through the one page pipeline,
 * have the LLM title and describe it, then build the texts. A page's row, credit and tokens are
 * written in one transaction and a page with a row is skipped (./page-jobs.ts), so a retried activity repeats nothing.
 */
import { llmsFullTxt, llmsTxt } from '../core/llms-txt.js';
import { PageError } from '../core/failures.js';
import { PAGE_DESCRIPTION_PROMPT, pageDescriptionSchema, type LlmsTxtInput } from '../core/schemas/llms-txt.js';
import type { PageOptions } from '../core/schemas/scrape.js';
import { meterKeyPages, meterTokens } from '../prisma/usage.js';
import { creditsMetered } from '../telemetry/metrics.js';
import { eachNewPage } from './page-jobs.js';
import type { ActivityDeps } from './deps.js';
import { ExtractionError, extractWithLlm, type TokenCount } from './llm/extract.js';
import { mapSiteUrls } from './map-site.js';
import { llmSettingsFrom } from './pipeline/pipeline.js';

const PAGE_OPTIONS = { formats: ['markdown'], onlyMainContent: true, waitFor: 0, mobile: false, skipTlsVerification: false } as PageOptions;

export function llmsTxtActivities(deps: ActivityDeps) {
  const { prisma } = deps;
  const job = (jobId: string) => prisma.llmsTxtJob.findUniqueOrThrow({ where: { id: jobId } });

  return {
    async mapLlmsTxt({ jobId }: LlmsTxtInput): Promise<string[]> {
      const row = await job(jobId);
      const urls = await mapSiteUrls(deps, row.url, { limit: row.maxUrls, includeSubdomains: false });
      return urls.slice(0, row.maxUrls);
    },

    async describeLlmsTxtPages({ jobId }: LlmsTxtInput, urls: string[]): Promise<void> {
      const row = await job(jobId);
      const llm = llmSettingsFrom(deps.config);
      if (!llm) throw new Error('This worker has no LLM settings (LLM_BASE_URL, LLM_MODEL): llms.txt jobs need the same ones as the API.');
      const done = new Set((await prisma.llmsTxtPage.findMany({ where: { jobId }, select: { url: true } })).map((p) => p.url));
      await eachNewPage(deps, urls, done, async (url, signal) => {
        const tokens: TokenCount = { total: 0 };
        let page: { title?: string; description?: string; markdown?: string; error?: string };
        try {
          const timeoutMs = deps.config.SCRAPE_TIMEOUT_MS;
          const out = await deps.runPage({ url, sourceURL: url, options: PAGE_OPTIONS, deadline: Date.now() + timeoutMs, timeoutMs, signal });
          const markdown = out.document.markdown ?? '';
          if ((out.document.statusCode ?? 200) >= 400) page = { error: `The page answered HTTP ${out.document.statusCode}.` };
          else {
            const described = (await extractWithLlm(llm, { markdown, url, schema: pageDescriptionSchema as unknown as Record<string, unknown>, prompt: PAGE_DESCRIPTION_PROMPT, signal, tokens })) as { title: string; description: string };
            page = { ...described, markdown };
          }
        } catch (err) {
          if (!(err instanceof PageError) && !(err instanceof ExtractionError)) throw err;
          page = { error: err.message };
        }
        await prisma.$transaction(async (tx) => {
          await tx.llmsTxtPage.createMany({ data: [{ jobId, url, title: page.title ?? null, description: page.description ?? null, markdown: page.markdown ?? null, error: page.error ?? null }], skipDuplicates: true });
          if (row.apiKeyId && page.markdown !== undefined) await meterKeyPages(tx, row.apiKeyId, 1);
          if (row.apiKeyId) await meterTokens(tx, { apiKeyId: row.apiKeyId }, tokens.total);
        });
        if (row.apiKeyId && page.markdown !== undefined) creditsMetered.inc({ source: 'llmstxt' });
      });
    },

    async finishLlmsTxt({ jobId }: LlmsTxtInput, urls: string[]): Promise<void> {
      const row = await job(jobId);
      const order = new Map(urls.map((u, i) => [u, i]));
      const pages = (await prisma.llmsTxtPage.findMany({ where: { jobId, error: null } }))
        .sort((a, b) => (order.get(a.url) ?? 0) - (order.get(b.url) ?? 0))
        .map((p) => ({ url: p.url, title: p.title ?? p.url, description: p.description ?? '', markdown: p.markdown ?? '' }));
      if (pages.length === 0) {
        await prisma.llmsTxtJob.update({ where: { id: jobId }, data: { status: 'failed', error: `No page of ${row.url} could be read and described (${urls.length} found).`, completedAt: new Date() } });
        return;
      }
      await prisma.llmsTxtJob.update({
        where: { id: jobId },
        data: { status: 'completed', llmstxt: llmsTxt(row.url, pages), llmsfulltxt: row.showFullText ? llmsFullTxt(row.url, pages) : null, completedAt: new Date() },
      });
    },

    async failLlmsTxt({ jobId }: LlmsTxtInput, message: string): Promise<void> {
      await prisma.llmsTxtJob.updateMany({ where: { id: jobId, status: 'processing' }, data: { status: 'failed', error: message, completedAt: new Date() } });
    },
  };
}
