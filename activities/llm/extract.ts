/**
 * Structured extraction through the chat-completions endpoint (./chat.ts). The model is asked for
 * JSON matching the caller's schema; the answer is validated with ajv and, when it does not match,
 * asked for once more with the validation errors.
 */
import { compileExtractionSchema, schemaErrorsText } from '../../core/llm-schema.js';
import { chatJson, ExtractionError, type ChatMessage, type LlmSettings, type TokenCount } from './chat.js';

export { ExtractionError, type LlmSettings, type TokenCount } from './chat.js';

export interface ExtractRequest {
  markdown: string;
  url: string;
  schema?: Record<string, unknown>;
  systemPrompt?: string;
  prompt?: string;
  signal: AbortSignal;
  /** Counts the tokens the calls use. */
  tokens?: TokenCount;
}

/** Pages longer than this are cut before being sent (about 25k tokens). */
export const MAX_PAGE_CHARS = 100_000;

const DEFAULT_SYSTEM_PROMPT =
  'You extract structured data from web pages. Answer with one JSON object only, no prose and no code fences. ' +
  'Use only facts present in the page; use null where the page does not say.';

function parseJson(content: string): unknown {
  // Some models wrap JSON in a code fence despite being asked not to.
  const unfenced = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  return JSON.parse(unfenced);
}

export async function extractWithLlm(settings: LlmSettings, req: ExtractRequest): Promise<unknown> {
  const validate = req.schema ? compileExtractionSchema(req.schema) : undefined;
  const page = req.markdown.length > MAX_PAGE_CHARS ? req.markdown.slice(0, MAX_PAGE_CHARS) : req.markdown;
  const instructions = [
    req.schema ? `Return JSON matching this JSON Schema:\n${JSON.stringify(req.schema)}` : 'Return the relevant data as a JSON object.',
    req.prompt ? `Instruction: ${req.prompt}` : '',
    `Page URL: ${req.url}\n\nPage content (markdown):\n${page}`,
  ].filter(Boolean).join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: req.systemPrompt ?? DEFAULT_SYSTEM_PROMPT },
    { role: 'user', content: instructions },
  ];
  let problem = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const content = await chatJson(settings, messages, req.schema, req.signal, req.tokens);
    let value: unknown;
    try {
      value = parseJson(content);
    } catch {
      problem = 'the answer was not valid JSON';
    }
    if (value !== undefined) {
      if (!validate || validate(value)) return value;
      problem = schemaErrorsText(validate);
    }
    messages.push({ role: 'assistant', content }, { role: 'user', content: `That answer is invalid: ${problem}. Reply with corrected JSON only.` });
  }
  throw new ExtractionError(`LLM answer did not match the schema after a retry: ${problem}`);
}
