/** The scrape operation: run the `scrape` workflow within the caller's timeout, then read the stored document. */
import { randomUUID } from 'node:crypto';
import { workflowIds, type ScrapeInput } from '../core/contracts.js';
import { toPublicDocument, type PublicDocument } from '../core/document.js';
import { ScrapeFailedError, ScrapeTimeoutError, UrlNotAllowedError, ValidationError } from '../core/errors.js';
import { pageOptionProblems, type PageOptions } from '../core/schemas/scrape.js';
import { checkUrlSyntax, safetyOptionsFrom, UnsafeUrlError, type SafetyOptions } from '../core/url-safety.js';
import type { scrape } from '../workflows/index.js';
import type { ApiDeps } from './deps.js';
import { runWorkflowWithin } from './run-workflow.js';

export interface ScrapeRequest extends PageOptions {
  url: string;
  timeout?: number;
}

export interface ScrapeResponse {
  success: true;
  warning?: string;
  data: PublicDocument;
  scrape_id: string;
}

export function checkScrapeRequest(req: ScrapeRequest, timeoutMs: number, safety: SafetyOptions): void {
  const problems = pageOptionProblems(req, timeoutMs);
  if (problems.length) throw new ValidationError(`Invalid request body: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
  try {
    checkUrlSyntax(req.url, safety);
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new UrlNotAllowedError(err.message);
    throw err;
  }
}

/** `owner`: whose change-tracking history (historyOwner). `budgetMs`: a paid request's limit (its payment must still be valid to settle afterwards); it caps `timeout`. */
export async function runScrape(deps: ApiDeps, req: ScrapeRequest, owner: string, budgetMs = Infinity): Promise<ScrapeResponse> {
  const { config, prisma } = deps;
  const timeoutMs = Math.floor(Math.min(req.timeout ?? config.SCRAPE_TIMEOUT_MS, budgetMs));
  checkScrapeRequest(req, timeoutMs, safetyOptionsFrom(config));
  const scrapeId = randomUUID();
  const { url, timeout: _t, ...options } = req;
  const input: ScrapeInput = { scrapeId, url, options, timeoutMs, deadline: Date.now() + timeoutMs, owner };
  const onTimeout = () => new ScrapeTimeoutError(timeoutMs);

  const { documentId } = await runWorkflowWithin<typeof scrape>(deps, 'scrape', workflowIds.scrape(scrapeId), [input], timeoutMs, onTimeout);
  const row = await prisma.document.findUnique({ where: { id: documentId } });
  if (!row) throw new ScrapeFailedError('The scraped document could not be found (it may have expired).');
  return { success: true, ...(row.warning ? { warning: row.warning } : {}), data: toPublicDocument(row, options.formats), scrape_id: scrapeId };
}
