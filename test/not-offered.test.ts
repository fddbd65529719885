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

describe('WebSocket watching', () => {
  it('answers an upgrade to a WebSocket (the SDKs’ watchers) with 501 not_supported', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${api.url}/v1/crawl/00000000-0000-4000-8000-000000000000`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', authorization: 'Bearer pw_any' } });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('upgrade', () => reject(new Error('the server accepted the upgrade')));
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(501);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'not_supported', error: expect.stringContaining('Watching a job over a WebSocket is not offered') });
  });
});
