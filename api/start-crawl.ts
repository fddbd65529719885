/** Starting a crawl: options checked, the seed checked, then the row and the workflow (jobs/start.ts). */
import { randomUUID } from 'node:crypto';
import { webhooksOf } from '../core/job-contracts.js';
import { invalidBody } from '../core/errors.js';
import type { CrawlOptions } from '../core/schemas/crawl.js';
import { pageOptionProblems } from '../core/schemas/scrape.js';
import { proxyOptionProblem, type ProxySettings } from '../core/proxy-pools.js';
import { type SafetyOptions, safetyOptionsFrom } from '../core/url-safety.js';
import { allowedTargetUrl } from './target-url.js';
import type { ApiDeps } from './deps.js';
import type { Caller } from '../jobs/deps.js';
import { startJob } from '../jobs/start.js';
import { patternProblems } from './patterns.js';
import { webhookUrlProblems } from './webhook-urls.js';

function checkOptions(options: CrawlOptions, safety: SafetyOptions, proxies: ProxySettings): void {
  const details = [...patternProblems(options, options.regexOnFullURL), ...webhookUrlProblems(options, safety)];
  details.push(...[...pageOptionProblems(options.scrapeOptions, options.scrapeOptions.timeout), proxyOptionProblem(options.scrapeOptions.proxy, proxies)].filter((p) => p !== undefined).map((p) => ({ ...p, field: `scrapeOptions.${p.field}` })));
  if (details.length) throw invalidBody(details);
}

export async function startCrawl(deps: ApiDeps, options: CrawlOptions, caller: Caller): Promise<{ success: true; id: string; url: string }> {
  checkOptions(options, safetyOptionsFrom(deps.config), deps.config);
  const seed = allowedTargetUrl(options.url, safetyOptionsFrom(deps.config));
  const id = randomUUID();
  const hooks = webhooksOf(id, 'crawl', options);
  const started = await startJob(deps, { id, kind: 'crawl', seed, options, hooks, summary: `Crawl of ${seed.href} (limit ${options.limit})`, limit: options.limit }, caller);
  return { success: true, id: started, url: seed.href };
}
