/** The chat-completions adapter against endpoints with and without structured output (README "LLM endpoints"). */
import { afterAll, describe, expect, it } from 'vitest';
import { extractWithLlm, ExtractionError, type TokenCount } from '../activities/llm/extract.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false };
const started: FakeLlm[] = [];
const fake = async (...args: Parameters<typeof startFakeLlm>) => {
  const llm = await startFakeLlm(...args);
  started.push(llm);
  return llm;
};
const settings = (llm: FakeLlm) => ({ baseUrl: llm.baseUrl, apiKey: 'sk-test-llm-key', model: 'm' });
const page = (tokens?: TokenCount) => ({ markdown: '# Tomatoes', url: 'http://site.test/a', schema, signal: AbortSignal.timeout(10_000), tokens });

afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});

describe('the chat-completions adapter', () => {
  it('asks with a JSON Schema response_format where the endpoint has structured output, and counts the tokens', async () => {
    const llm = await fake(['{"title": "Tomatoes"}']);
    const tokens = { total: 0 };
    expect(await extractWithLlm(settings(llm), page(tokens))).toEqual({ title: 'Tomatoes' });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extraction', schema, strict: false } });
    expect(tokens.total).toBe(120);
  });

  it('falls back to validated JSON in the prompt where the endpoint refuses response_format, and remembers it', async () => {
    const llm = await fake(['{"title": 7}', '{"title": "Tomatoes"}'], 'sk-test-llm-key', { refuseResponseFormat: true });
    const tokens = { total: 0 };
    // The first answer breaks the schema: validated here, asked once more.
    expect(await extractWithLlm(settings(llm), page(tokens))).toEqual({ title: 'Tomatoes' });
    expect(llm.requests.map((r) => r.response_format !== undefined)).toEqual([true, false, false]);
    expect(llm.requests[1]!.messages[1]!.content).toContain(`Return JSON matching this JSON Schema:\n${JSON.stringify(schema)}`);
    expect(llm.requests[2]!.messages.at(-1)!.content).toMatch(/^That answer is invalid: answer\/title must be string/);
    // Only the answered calls report tokens.
    expect(tokens.total).toBe(240);
    // The endpoint is remembered: the next extraction goes straight to plain JSON.
    expect(await extractWithLlm(settings(llm), page())).toEqual({ title: 'Tomatoes' });
    expect(llm.requests).toHaveLength(4);
    expect(llm.requests[3]!.response_format).toBeUndefined();
  });

  it('reports an endpoint that refuses the request outright', async () => {
    const llm = await fake(['{}'], 'another-key');
    await expect(extractWithLlm(settings(llm), page())).rejects.toThrow(new ExtractionError('LLM endpoint answered HTTP 401: {"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}'));
  });
});
