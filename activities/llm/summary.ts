/**
 * The summary format: a short summary of the page's markdown by the operator's LLM, through the one
 * chat-completions adapter (./chat.ts). The answer is prose, so no response_format is sent. A
 * failure is an ExtractionError, which the pipeline turns into a warning, as for extraction.
 */
import { chatText, ExtractionError, type LlmSettings, type TokenCount } from './chat.js';
import { MAX_PAGE_CHARS } from './extract.js';

export const SUMMARY_SYSTEM_PROMPT =
  'You summarise web pages. Answer with a short summary of the page: at most five sentences of plain text, ' +
  'in the language of the page, with no heading, list or preamble. Use only what the page says.';

export interface SummaryRequest {
  markdown: string;
  url: string;
  signal: AbortSignal;
  /** Counts the tokens the call uses. */
  tokens?: TokenCount;
}

export async function summarizeWithLlm(settings: LlmSettings, req: SummaryRequest): Promise<string> {
  const page = req.markdown.length > MAX_PAGE_CHARS ? req.markdown.slice(0, MAX_PAGE_CHARS) : req.markdown;
  const content = await chatText(
    settings,
    [
      { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
      { role: 'user', content: `Page URL: ${req.url}\n\nPage content (markdown):\n${page}` },
    ],
    req.signal,
    req.tokens,
  );
  const summary = content.trim();
  if (!summary) throw new ExtractionError('LLM answered an empty summary');
  return summary;
}
