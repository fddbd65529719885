/**
 * Structured extraction through a chat-completions endpoint (LLM_BASE_URL + /chat/completions).
 * The model is asked for JSON matching the caller's schema; the answer is validated with ajv and,
 * when it does not match, asked for once more with the validation errors. The only adapter that
 * talks to an LLM, and the one outbound call the URL safety policy does not cover: the operator
 * chose this endpoint.
 */
import { request } from 'undici';
import { compileExtractionSchema, schemaErrorsText } from '../../core/llm-schema.js';

export interface LlmSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

export interface ExtractRequest {
  markdown: string;
  url: string;
  schema?: Record<string, unknown>;
  systemPrompt?: string;
  prompt?: string;
  signal: AbortSignal;
}

export class ExtractionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionError';
  }
}

/** Pages longer than this are cut before being sent (about 25k tokens). */
export const MAX_PAGE_CHARS = 100_000;

const DEFAULT_SYSTEM_PROMPT =
  'You extract structured data from web pages. Answer with one JSON object only, no prose and no code fences. ' +
  'Use only facts present in the page; use null where the page does not say.';


export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One chat completion's message content. `answer: 'text'` asks for prose (no response_format), as the summary format does. */
export async function complete(settings: LlmSettings, messages: ChatMessage[], schema: Record<string, unknown> | undefined, signal: AbortSignal, answer: 'json' | 'text' = 'json'): Promise<string> {
  const url = settings.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  const body = {
    model: settings.model,
    messages,
    temperature: 0,
    ...(answer === 'json' ? { response_format: schema ? { type: 'json_schema', json_schema: { name: 'extraction', schema, strict: false } } : { type: 'json_object' } } : {}),
  };
  const res = await request(url, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
    body: JSON.stringify(body),
  }).catch((err: Error) => {
    throw new ExtractionError(`LLM endpoint unreachable: ${err.message}`);
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new ExtractionError(`LLM endpoint answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  const content = (JSON.parse(text) as { choices?: { message?: { content?: string | null } }[] }).choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new ExtractionError('LLM answer had no message content');
  return content;
}

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
    const content = await complete(settings, messages, req.schema, req.signal);
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
