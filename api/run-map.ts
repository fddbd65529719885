/** The map operation: run the `map` workflow within its `timeout` (60 s by default), then read the stored URL list. */
import { randomUUID } from 'node:crypto';
import { workflowIds, type Workflows } from '../core/contracts.js';
import { ApiError, invalidBody, ScrapeFailedError } from '../core/errors.js';
import { MAP_TIMEOUT_DEFAULT_MS, type MapOptions } from '../core/schemas/map.js';
import { safetyOptionsFrom } from '../core/url-safety.js';
import { allowedTargetUrl } from './target-url.js';
import type { ApiDeps } from './deps.js';
import { patternProblems } from './patterns.js';
import { runWorkflowWithin } from './run-workflow.js';

/** `budgetMs`: a paid request's limit (its payment must still be valid to settle afterwards); it caps the timeout. `apiKeyId`: whose usage it counts in. */
export async function runMap(deps: ApiDeps, options: MapOptions, budgetMs = Infinity, apiKeyId?: string): Promise<{ success: true; links: string[]; scrape_id: string }> {
  const details = patternProblems(options, false);
  if (details.length) throw invalidBody(details);
  allowedTargetUrl(options.url, safetyOptionsFrom(deps.config));
  const mapId = randomUUID();
  const timeoutMs = Math.floor(Math.min(options.timeout ?? MAP_TIMEOUT_DEFAULT_MS, budgetMs));
  const onTimeout = () => new ApiError(408, 'timeout', `The map did not finish within ${Math.round(timeoutMs / 1000)} s. Narrow it with includePaths or a lower limit, or try again.`);
  const { documentId } = await runWorkflowWithin<Workflows['map']>(deps, 'map', workflowIds.map(mapId), [{ mapId, options, deadline: Date.now() + timeoutMs, ...(apiKeyId ? { apiKeyId } : {}) }], timeoutMs, onTimeout);
  const row = await deps.prisma.document.findUnique({ where: { id: documentId }, select: { links: true } });
  if (!row) throw new ScrapeFailedError('The map result could not be found (it may have expired).');
  return { success: true, links: (row.links as string[] | null) ?? [], scrape_id: mapId };
}
