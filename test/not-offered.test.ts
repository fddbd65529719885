/** Hosted-API operations the official SDKs can call that this server does not offer: a clear 501, never a bare 404. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './helpers/api.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

describe('operations not offered here', () => {
  it.each([
    ['POST', '/v1/search', 'Web search is not offered by this server: it needs a search engine'],
    ['POST', '/v1/extract', 'Extract jobs is not offered by this server'],
    ['GET', '/v1/extract/abc', 'Extract jobs is not offered by this server'],
    ['POST', '/v1/deep-research', 'Deep research is not offered by this server'],
    ['GET', '/v1/deep-research/abc', 'Deep research is not offered by this server'],
    ['POST', '/v1/llmstxt', 'llms.txt generation is not offered by this server'],
    ['GET', '/v1/llmstxt/abc', 'llms.txt generation is not offered by this server'],
    ['GET', '/v1/team/credit-usage', 'Credit usage is not offered by this server'],
    ['GET', '/v1/team/credit-usage/historical', 'Credit usage is not offered by this server'],
    ['GET', '/v1/team/token-usage', 'Token usage is not offered by this server'],
    ['GET', '/v1/team/token-usage/historical', 'Token usage is not offered by this server'],
    ['GET', '/v1/team/queue-status', 'Queue status is not offered by this server'],
  ])('%s %s answers 501 not_supported, saying so', async (method, path, message) => {
    const res = await fetch(api.url + path, {
      method,
      headers: { authorization: 'Bearer pw_any', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      body: method === 'POST' ? JSON.stringify({ query: 'x', urls: ['https://example.com'] }) : undefined,
    });
    expect(res.status).toBe(501);
    const body = (await res.json()) as { success: boolean; code: string; error: string };
    expect(body.success).toBe(false);
    expect(body.code).toBe('not_supported');
    expect(body.error.startsWith(message)).toBe(true);
    expect(body.error).toContain('This server offers scrape, crawl, batch scrape and map.');
  });
});
