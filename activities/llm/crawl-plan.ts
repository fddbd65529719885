/** POST /v2/crawl/params-preview's activity (workflows/plan-crawl.ts): the LLM proposes crawl options from a sentence; its tokens count for the caller's key. */
import { ApplicationFailure } from '@temporalio/activity';
import { CRAWL_PLAN_SYSTEM_PROMPT, crawlProposalSchema, type CrawlPlanInput } from '../../core/schemas/crawl-plan.js';
import { meterTokens } from '../../prisma/usage.js';
import type { ActivityDeps } from '../deps.js';
import { llmSettingsFrom } from '../pipeline/pipeline.js';
import { ExtractionError, extractWithLlm, type TokenCount } from './extract.js';

export function crawlPlanActivities(deps: ActivityDeps) {
  return {
    async proposeCrawlOptions(input: CrawlPlanInput): Promise<Record<string, unknown>> {
      const llm = llmSettingsFrom(deps.config);
      if (!llm) throw ApplicationFailure.nonRetryable('This worker has no LLM settings (LLM_BASE_URL, LLM_MODEL).', 'NoLlm');
      const tokens: TokenCount = { total: 0 };
      try {
        return (await extractWithLlm(llm, {
          markdown: `Start page: ${input.url}\n\nRequest: ${input.prompt}`,
          url: input.url,
          schema: crawlProposalSchema as unknown as Record<string, unknown>,
          systemPrompt: CRAWL_PLAN_SYSTEM_PROMPT,
          signal: AbortSignal.timeout(50_000),
          tokens,
        })) as Record<string, unknown>;
      } catch (err) {
        if (err instanceof ExtractionError) throw ApplicationFailure.nonRetryable(`The LLM could not propose crawl options: ${err.message}`, 'PlanFailed');
        throw err;
      } finally {
        if (input.apiKeyId) await meterTokens(deps.prisma, { apiKeyId: input.apiKeyId }, tokens.total);
      }
    },
  };
}
