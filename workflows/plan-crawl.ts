/** Crawl options from a sentence (POST /v2/crawl/params-preview, crawl `prompt`): one local activity asks the LLM. */
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CrawlPlanInput } from '../core/schemas/crawl-plan.js';

export async function planCrawl(input: CrawlPlanInput): Promise<Record<string, unknown>> {
  const { proposeCrawlOptions } = proxyLocalActivities<Activities>({ startToCloseTimeout: '55s', retry: { maximumAttempts: 2, initialInterval: '500ms' } });
  return proposeCrawlOptions(input);
}
