/** LLM extraction through a local server speaking the chat-completions wire format. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findActiveKey } from '../api/keys-store.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { TEST_PEPPER } from './helpers/env.js';
import type { FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const schema = {
  type: 'object',
  properties: { heading: { type: 'string' }, varieties: { type: 'array', items: { type: 'string' } } },
  required: ['heading', 'varieties'],
  additionalProperties: false,
};

let site: FixtureServer;
let llm: FakeLlm;
let withLlm: TestStack;
let withoutLlm: TestStack;

beforeAll(async () => {
  site = await startSite();
  // First answer breaks the schema; the retry gets it right.
  llm = await startFakeLlm(['{"heading": "Growing tomatoes"}', '```json\n{"heading": "Growing tomatoes", "varieties": ["Cherry", "Roma"]}\n```']);
  [withLlm, withoutLlm] = await Promise.all([
    startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' }),
    startTestStack(),
  ]);
});
afterAll(async () => {
  await Promise.all([withLlm?.close(), withoutLlm?.close()]);
  await Promise.all([site?.close(), llm?.close()]);
});

describe('extract', () => {
  it('returns JSON matching the schema, retrying once with the validation errors', async () => {
    const res = await withLlm.post('/v1/scrape', { url: `${site.url}/article`, formats: ['links'], extract: { schema, prompt: 'List the varieties.' } });
    expect(res.status).toBe(200);
    const data = res.body.data as Record<string, unknown>;
    expect(data.extract).toEqual({ heading: 'Growing tomatoes', varieties: ['Cherry', 'Roma'] });
    expect(Object.keys(data).sort()).toEqual(['extract', 'links', 'metadata']);
    expect(res.body.warning).toBeUndefined();

    expect(llm.requests).toHaveLength(2);
    const [first, second] = llm.requests;
    expect(first!.model).toBe('test-model');
    expect(first!.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extraction', schema, strict: false } });
    expect(first!.messages[1]!.content).toContain('Instruction: List the varieties.');
    expect(first!.messages[1]!.content).toContain('# Growing tomatoes');
    expect(second!.messages).toHaveLength(4);
    expect(second!.messages[3]!.content).toMatch(/^That answer is invalid: answer must have required property 'varieties'/);
    // Both calls' tokens (120 each, as the endpoint reported them) count for the key (GET /v1/team/token-usage).
    const key = await findActiveKey(withLlm.api.deps.prisma, withLlm.key, TEST_PEPPER);
    const rows = await withLlm.api.deps.prisma.usageKeyDay.findMany({ where: { apiKeyId: (key as { id: string }).id } });
    expect(rows.reduce((n, r) => n + Number(r.tokens), 0)).toBe(240);
  });

  it('is skipped, and the scrape still succeeds, without LLM settings', async () => {
    const res = await withoutLlm.post('/v1/scrape', { url: `${site.url}/article`, extract: { schema } });
    expect(res.status).toBe(200);
    const data = res.body.data as { extract?: unknown; markdown: string; metadata: Record<string, unknown> };
    expect(data.extract).toBeUndefined();
    expect(data.metadata.extractSkipped).toBe(true);
    expect(data.markdown).toContain('# Growing tomatoes');
  });
});
