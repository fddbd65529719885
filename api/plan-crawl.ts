/**
 * Crawl options from a sentence (README "Crawl options from a prompt"): the `planCrawl` workflow asks
 * the LLM on a worker; the proposal is checked by the crawl schema (v2 request, then the v1 form and
 * its path patterns) before anything uses it, and a proposal the schema refuses is a 502 saying which
 * field, never a crawl with options nobody checked.
 */
import { randomUUID } from 'node:crypto';
import { workflowIds, type Workflows } from '../core/contracts.js';
import { ApiError, invalidBody, NotSupportedError, ValidationError } from '../core/errors.js';
import { crawlRequestSchema, type CrawlOptions } from '../core/schemas/crawl.js';
import { v2CrawlRequestSchema } from '../core/schemas/v2.js';
import { safetyOptionsFrom } from '../core/url-safety.js';
import { allowedTargetUrl } from './target-url.js';
import { crawlFromV2, type V2CrawlRequest } from '../core/v2/requests.js';
import type { ApiDeps } from './deps.js';
import { validateInput } from './middleware/validate.js';
import { patternProblems } from './patterns.js';
import { runWorkflowWithin } from './run-workflow.js';

const PLAN_TIMEOUT_MS = 60_000;

/** The LLM's proposal for crawling `url` as `prompt` says, checked; v2 field names, empty ones left out. */
export async function planCrawlOptions(deps: ApiDeps, url: string, prompt: string, apiKeyId: string | undefined): Promise<Record<string, unknown>> {
  if (!deps.config.LLM_BASE_URL || !deps.config.LLM_MODEL) throw new NotSupportedError('Crawl options from a prompt need an LLM, and this server has none configured: its operator sets LLM_BASE_URL and LLM_MODEL. Or give includePaths, excludePaths, limit and the other options yourself.');
  allowedTargetUrl(url, safetyOptionsFrom(deps.config));
  const onTimeout = () => new ApiError(408, 'timeout', `The LLM did not propose crawl options within ${PLAN_TIMEOUT_MS / 1000} s; try again, or give the options yourself.`);
  let proposal: Record<string, unknown>;
  try {
    proposal = await runWorkflowWithin<Workflows['planCrawl']>(deps, 'planCrawl', workflowIds.crawlPlan(randomUUID()), [{ url, prompt, ...(apiKeyId ? { apiKeyId } : {}) }], PLAN_TIMEOUT_MS, onTimeout, 'crawl planning');
  } catch (err) {
    // The LLM failed or answered nonsense (the activity's failure): planning failed, not a scrape.
    if (err instanceof ApiError && err.code === 'scrape_failed') throw new ApiError(502, 'planning_failed', err.message.replace(/^The crawl planning failed: /, ''));
    throw err;
  }
  const options = Object.fromEntries(Object.entries(proposal).filter(([, v]) => v !== null && v !== undefined));
  try {
    const v2 = validateInput('body', v2CrawlRequestSchema, { url, ...options }) as V2CrawlRequest;
    const v1 = validateInput('body', crawlRequestSchema, crawlFromV2(v2)) as CrawlOptions;
    const problems = patternProblems(v1, v1.regexOnFullURL ?? false);
    if (problems.length) throw invalidBody(problems);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ApiError(502, 'planning_failed', `The LLM proposed crawl options the crawl schema refuses (${err.details?.map((d) => `${d.field}: ${d.message}`).join('; ')}); try another prompt, or give the options yourself.`, err.details);
  }
  return options;
}
