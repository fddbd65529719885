/** The extract workflow's activities (workflows/extract.ts): plan the pages, read and extract them, merge; or record the failure. */
import { Context } from '@temporalio/activity';
import type { ExtractInput, ExtractRequest } from '../../core/schemas/extract.js';
import type { ActivityDeps } from '../deps.js';
import { llmSettingsFrom } from '../pipeline/pipeline.js';
import { finishExtract, type ExtractOutcome } from './finish.js';
import { extractPages } from './pages.js';
import { planExtract, type ExtractPlan } from './plan.js';

export function extractActivities(deps: ActivityDeps) {
  const { prisma } = deps;
  const job = (extractId: string) => prisma.extractJob.findUniqueOrThrow({ where: { id: extractId }, select: { options: true, apiKeyId: true } });
  const llm = () => {
    const settings = llmSettingsFrom(deps.config);
    // The API refuses extract jobs without LLM settings; a worker without them is misconfigured.
    if (!settings) throw new Error('This worker has no LLM settings (LLM_BASE_URL, LLM_MODEL): extract jobs need the same ones as the API.');
    return settings;
  };
  return {
    async planExtract({ extractId }: ExtractInput): Promise<ExtractPlan> {
      const { options } = await job(extractId);
      return planExtract(deps, options as ExtractRequest, Context.current().cancellationSignal);
    },
    async extractPages({ extractId }: ExtractInput, urls: string[]): Promise<void> {
      const { options, apiKeyId } = await job(extractId);
      await extractPages(deps, llm(), extractId, options as ExtractRequest, apiKeyId, urls);
    },
    async finishExtract({ extractId }: ExtractInput, plan: ExtractPlan): Promise<ExtractOutcome> {
      const { options, apiKeyId } = await job(extractId);
      return finishExtract(prisma, llm(), extractId, options as ExtractRequest, apiKeyId, plan.urls, [...plan.warnings], Context.current().cancellationSignal);
    },
    async failExtract({ extractId }: ExtractInput, message: string): Promise<void> {
      await prisma.extractJob.updateMany({ where: { id: extractId, status: 'processing' }, data: { status: 'failed', error: message, completedAt: new Date() } });
    },
  };
}
