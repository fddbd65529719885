/**
 * The one chat-completions call (LLM_BASE_URL + /chat/completions), and the one outbound call the
 * URL safety policy does not cover: the operator chose this endpoint. It asks for JSON with
 * `response_format` (a JSON Schema when there is one); an endpoint that refuses `response_format`
 * (400 or 422, as several local and OpenAI-compatible servers do) is asked again without it, and
 * remembered, so later calls go straight to plain JSON in the prompt, which callers validate
 * (README "LLM endpoints"). Tokens the endpoint reports are added to the caller's counter.
 */
import { request } from 'undici';

export interface LlmSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens used, summed over the calls made with it (`usage.total_tokens` of each answer). */
export interface TokenCount {
  total: number;
}

export class ExtractionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionError';
  }
}

/** Endpoints that refused `response_format`: asked without it from then on (per process). */
const plainJsonOnly = new Set<string>();

interface Answer {
  status: number;
  text: string;
}

async function post(settings: LlmSettings, url: string, body: Record<string, unknown>, signal: AbortSignal): Promise<Answer> {
  const res = await request(url, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
    body: JSON.stringify(body),
  }).catch((err: Error) => {
    throw new ExtractionError(`LLM endpoint unreachable: ${err.message}`);
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/** One completion's text; `schema` asks for JSON matching it (else any JSON object). */
export async function chatJson(settings: LlmSettings, messages: ChatMessage[], schema: Record<string, unknown> | undefined, signal: AbortSignal, tokens?: TokenCount): Promise<string> {
  const url = settings.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  const body: Record<string, unknown> = { model: settings.model, messages, temperature: 0 };
  const responseFormat = schema ? { type: 'json_schema', json_schema: { name: 'extraction', schema, strict: false } } : { type: 'json_object' };
  let answer: Answer;
  if (plainJsonOnly.has(url)) answer = await post(settings, url, body, signal);
  else {
    answer = await post(settings, url, { ...body, response_format: responseFormat }, signal);
    if (answer.status === 400 || answer.status === 422) {
      const plain = await post(settings, url, body, signal);
      if (plain.status === 200) plainJsonOnly.add(url);
      answer = plain;
    }
  }
  return contentOf(answer, tokens);
}

/** One completion's text, with no response_format (prose, as the summary format asks). */
export async function chatText(settings: LlmSettings, messages: ChatMessage[], signal: AbortSignal, tokens?: TokenCount): Promise<string> {
  const url = settings.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  return contentOf(await post(settings, url, { model: settings.model, messages, temperature: 0 }, signal), tokens);
}

/** The message content of an answer, its tokens counted. */
function contentOf(answer: Answer, tokens: TokenCount | undefined): string {
  if (answer.status !== 200) throw new ExtractionError(`LLM endpoint answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
  let parsed: { choices?: { message?: { content?: string | null } }[]; usage?: { total_tokens?: number } };
  try {
    parsed = JSON.parse(answer.text) as typeof parsed;
  } catch {
    throw new ExtractionError('LLM endpoint answered with something other than JSON');
  }
  if (tokens && typeof parsed.usage?.total_tokens === 'number') tokens.total += parsed.usage.total_tokens;
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new ExtractionError('LLM answer had no message content');
  return content;
}
