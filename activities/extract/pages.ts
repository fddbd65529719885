/**
 * An extract job's pages: each read through the one page pipeline (markdown), cut into chunks that
 * fit the model (EXTRACT_CHUNK_CHARS), each chunk extracted by the LLM. A page's rows, its credit and
 * its tokens are written in one transaction, and a page with rows is skipped, so a retried activity
 * (a crashed worker) neither loses nor repeats a page. Heartbeats say how far it got.
 */
import { chunksOf } from '../../core/extract.js';
import { PageError } from '../../core/failures.js';
import type { ExtractRequest } from '../../core/schemas/extract.js';
import type { PageOptions } from '../../core/schemas/scrape.js';
import { meterKeyPages, meterTokens } from '../../prisma/usage.js';
import { creditsMetered } from '../../telemetry/metrics.js';
import { eachNewPage } from '../page-jobs.js';
import type { ActivityDeps } from '../deps.js';
import { ExtractionError, extractWithLlm, type LlmSettings, type TokenCount } from '../llm/extract.js';

interface Row {
  url: string;
  chunk: number;
  data?: unknown;
  error?: string;
  tokens: number;
}

/** Read and extract one page: its rows (one per chunk), or one row with the page's error (`read` false). */
async function extractPage(deps: ActivityDeps, llm: LlmSettings, options: ExtractRequest, url: string, signal: AbortSignal): Promise<{ rows: Row[]; read: boolean }> {
  const { timeout, ...scrape } = options.scrapeOptions ?? {};
  const timeoutMs = timeout ?? deps.config.SCRAPE_TIMEOUT_MS;
  // The LLM reads markdown: the caller's scrape options, but no other format and no extraction of their own.
  const pageOptions = { ...scrape, onlyMainContent: scrape.onlyMainContent ?? true, formats: ['markdown'], extract: undefined, jsonOptions: undefined, changeTrackingOptions: undefined } as PageOptions;
  let markdown: string;
  try {
    const page = await deps.runPage({ url, sourceURL: url, options: pageOptions, deadline: Date.now() + timeoutMs, timeoutMs, signal });
    // An error page (404, 500, ...) says nothing about what was asked.
    if ((page.document.statusCode ?? 200) >= 400) return { rows: [{ url, chunk: 0, error: `The page answered HTTP ${page.document.statusCode}.`, tokens: 0 }], read: false };
    markdown = page.document.markdown ?? '';
  } catch (err) {
    if (err instanceof PageError) return { rows: [{ url, chunk: 0, error: err.message, tokens: 0 }], read: false };
    throw err;
  }
  const rows: Row[] = [];
  const pieces = chunksOf(markdown, deps.config.EXTRACT_CHUNK_CHARS);
  for (const [chunk, piece] of pieces.entries()) {
    const tokens: TokenCount = { total: 0 };
    const part = pieces.length > 1 ? ` (part ${chunk + 1} of ${pieces.length} of the page)` : '';
    try {
      const data = await extractWithLlm(llm, { markdown: piece, url: url + part, schema: options.schema as Record<string, unknown> | undefined, prompt: options.prompt, systemPrompt: options.systemPrompt, signal, tokens });
      rows.push({ url, chunk, data, tokens: tokens.total });
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      rows.push({ url, chunk, error: `Extraction failed: ${err.message}`, tokens: tokens.total });
    }
  }
  return { rows, read: true };
}

export async function extractPages(deps: ActivityDeps, llm: LlmSettings, extractId: string, options: ExtractRequest, apiKeyId: string | null, urls: string[]): Promise<void> {
  const { prisma } = deps;
  const done = new Set((await prisma.extractPage.findMany({ where: { extractId }, select: { url: true } })).map((r) => r.url));
  await eachNewPage(deps, urls, done, async (url, signal) => {
    const { rows, read } = await extractPage(deps, llm, options, url, signal);
    const tokens = rows.reduce((n, r) => n + r.tokens, 0);
    await prisma.$transaction(async (tx) => {
      await tx.extractPage.createMany({ data: rows.map((r) => ({ extractId, url: r.url, chunk: r.chunk, data: r.data === undefined ? undefined : (r.data as object), error: r.error ?? null, tokens: r.tokens })), skipDuplicates: true });
      // A page that was read costs a credit, like a scraped page; its tokens count as token usage.
      if (apiKeyId && read) await meterKeyPages(tx, apiKeyId, 1);
      if (apiKeyId) await meterTokens(tx, { apiKeyId }, tokens);
    });
    if (apiKeyId && read) creditsMetered.inc({ source: 'extract' });
  });
}
