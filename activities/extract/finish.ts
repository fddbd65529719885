/**
 * An extract job's answer: the pages' answers merged in page order (core/extract.ts mergeAnswers),
 * checked against the schema; merged answers the schema refuses (too many items, a field of the
 * wrong kind) go to the LLM once more, to merge them into one that matches. With no page answered,
 * the job fails saying why.
 */
import { mergeAnswers } from '../../core/extract.js';
import { compileExtractionSchema } from '../../core/llm-schema.js';
import type { ExtractRequest } from '../../core/schemas/extract.js';
import { meterTokens } from '../../prisma/usage.js';
import type { PrismaClient } from '../../prisma/client.js';
import { ExtractionError, extractWithLlm, type LlmSettings, type TokenCount } from '../llm/extract.js';

/** An answer up to this many characters goes in the extract.completed webhook. */
const WEBHOOK_DATA_MAX = 100_000;

export interface ExtractOutcome {
  status: 'completed' | 'failed';
  data?: unknown;
  error?: string;
}

const MERGE_PROMPT = 'The page content is a list of partial answers, each extracted from one web page (the url says which). Merge them into one answer: keep every distinct item of lists, and prefer values stated by more pages.';

export async function finishExtract(prisma: PrismaClient, llm: LlmSettings, extractId: string, options: ExtractRequest, apiKeyId: string | null, urls: string[], warnings: string[], signal: AbortSignal): Promise<ExtractOutcome> {
  const rows = await prisma.extractPage.findMany({ where: { extractId } });
  const order = new Map(urls.map((u, i) => [u, i]));
  rows.sort((a, b) => (order.get(a.url) ?? 0) - (order.get(b.url) ?? 0) || a.chunk - b.chunk);
  const answered = rows.filter((r) => r.data !== null);
  const failed = [...new Map(rows.filter((r) => r.error).map((r) => [r.url, `${r.url}: ${r.error}`])).values()];
  let tokensUsed = rows.reduce((n, r) => n + r.tokens, 0);
  if (answered.length === 0) {
    const why = urls.length === 0 ? 'no page to read (no URL given matched, and no web result)' : `no page could be read and extracted (${failed.slice(0, 3).join('; ')})`;
    const error = `The extraction failed: ${why}.`;
    await prisma.extractJob.update({ where: { id: extractId }, data: { status: 'failed', error, tokensUsed, completedAt: new Date(), warning: warnings.join(' ') || null } });
    return { status: 'failed', error };
  }
  const merged = mergeAnswers(answered.map((r) => ({ url: r.url, data: r.data })));
  const { sources } = merged;
  let data = merged.data;
  const schema = options.schema as Record<string, unknown> | undefined;
  const validate = schema ? compileExtractionSchema(schema) : undefined;
  if (validate && !validate(data) && answered.length > 1) {
    const tokens: TokenCount = { total: 0 };
    try {
      const partials = answered.map((r) => ({ url: r.url, answer: r.data }));
      data = (await extractWithLlm(llm, { markdown: JSON.stringify(partials, null, 1), url: 'the pages listed in the content', schema, prompt: [MERGE_PROMPT, options.prompt].filter(Boolean).join(' '), signal, tokens })) as Record<string, unknown>;
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      warnings.push(`The pages' answers could not be merged into one matching the schema (${err.message}); the answer is the plain merge.`);
    }
    tokensUsed += tokens.total;
    if (apiKeyId) await meterTokens(prisma, { apiKeyId }, tokens.total);
  }
  if (failed.length) warnings.push(`${failed.length} of ${urls.length} pages could not be used: ${failed.slice(0, 3).join('; ')}${failed.length > 3 ? '; …' : ''}`);
  await prisma.extractJob.update({
    where: { id: extractId },
    data: { status: 'completed', data: data as object, sources, tokensUsed, completedAt: new Date(), warning: warnings.join(' ') || null },
  });
  // The webhook carries the answer when it is small enough to ride through Temporal.
  return { status: 'completed', ...(JSON.stringify(data).length <= WEBHOOK_DATA_MAX ? { data } : {}) };
}
