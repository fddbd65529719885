/** Hosted-API operations the official SDKs can call that this server does not offer: a clear 501, never a bare 404. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../api/keys-store.js';
import { startTestApi, type TestApi } from './helpers/api.js';
import { TEST_PEPPER } from './helpers/env.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

describe('operations not offered here', () => {
  it.each([
    ['POST', '/v1/deep-research', 'Deep research is not offered by this server'],
    ['GET', '/v1/deep-research/abc', 'Deep research is not offered by this server'],
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
    expect(body.error).toContain('This server offers scrape, crawl, batch scrape, map and search.');
  });
});

describe('v2 operations not offered here', () => {
  it.each([
    ['POST', '/v2/search/gov', 'Government search is not offered by this server: it needs a hosted index'],
    ['POST', '/v2/agent', 'The agent is not offered by this server: it needs the hosted agent'],
    ['GET', '/v2/agent/abc/snapshots/def', 'The agent is not offered by this server'],
    ['DELETE', '/v2/scrape/abc/interact', 'Interacting with a scraped page is not offered by this server'],
    ['POST', '/v2/browser', 'Browser sessions is not offered by this server'],
    ['GET', '/exchange/discover', 'The provider exchange is not offered by this server'],
  ])('%s %s answers 501 not_supported, saying so', async (method, path, message) => {
    const res = await fetch(api.url + path, { method, headers: { authorization: 'Bearer pw_any', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, body: method === 'POST' ? '{"query":"x"}' : undefined });
    expect(res.status).toBe(501);
    const body = (await res.json()) as { success: boolean; code: string; error: string };
    expect(body).toEqual({ success: false, code: 'not_supported', error: expect.stringContaining(message) });
    expect(body.error.startsWith(message)).toBe(true);
    expect(body.error.endsWith('This server offers scrape, crawl, batch scrape, map and search.')).toBe(true);
  });

  it('answers a multipart upload to POST /v2/parse (the SDKs’ file parsing) with 501, not 415', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'a.pdf');
    form.append('options', '{}');
    const res = await fetch(`${api.url}/v2/parse`, { method: 'POST', headers: { authorization: 'Bearer pw_any' }, body: form });
    expect(res.status).toBe(501);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Parsing uploaded files is not offered by this server: uploads are a hosted feature; put the file on a web server/);
  });

  it('a path of its own answers only its methods: not the job routes beside it (/v2/crawl/{id})', async () => {
    const get = await fetch(`${api.url}/v2/crawl/params-preview`, { headers: { authorization: 'Bearer pw_any' } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect(await get.json()).toEqual({ success: false, code: 'method_not_allowed', error: 'GET is not allowed on /v2/crawl/params-preview; use POST.' });
    const options = await fetch(`${api.url}/v2/crawl/active`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([200, 'HEAD, GET']);
    expect((await fetch(`${api.url}/v2/crawl/active`, { method: 'DELETE' })).status).toBe(405);
  });

  it('a body with alexandria on POST /v2/scrape gets 501 too, after authentication', async () => {
    const { key } = await createKey(api.deps.prisma, 'not-offered', TEST_PEPPER);
    const res = await fetch(`${api.url}/v2/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ alexandria: [{ provider: 'firecrawl', capability: 'find-tools' }] }) });
    expect(res.status).toBe(501);
    expect(((await res.json()) as { error: string }).error).toBe('The provider exchange (alexandria) is not offered by this server: it is a hosted feature. This server offers scrape, crawl, batch scrape, map and search.');
  });
});

describe('usage and queue, offered since issue 25 (test/team-usage.test.ts checks the figures)', () => {
  it.each(['/v1/team/credit-usage', '/v1/team/credit-usage/historical', '/v1/team/token-usage', '/v1/team/token-usage/historical', '/v1/team/queue-status', '/v2/team/credit-usage', '/v2/team/credit-usage/historical', '/v2/team/token-usage', '/v2/team/token-usage/historical', '/v2/team/queue-status', '/v2/concurrency-check'])(
    'GET %s is served: 401 for an unknown key, 200 for a key',
    async (path) => {
      const unknown = await fetch(api.url + path, { headers: { authorization: 'Bearer pw_any' } });
      expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([401, 'unauthorized']);
      const { key } = await createKey(api.deps.prisma, 'usage', TEST_PEPPER);
      const res = await fetch(api.url + path, { headers: { authorization: `Bearer ${key}` } });
      expect([res.status, ((await res.json()) as { success: boolean }).success]).toEqual([200, true]);
    },
  );
});

describe('WebSocket watching', () => {
  it('answers an upgrade to a WebSocket (the SDKs’ watchers) with 501 not_supported', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${api.url}/v2/crawl/00000000-0000-4000-8000-000000000000`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', authorization: 'Bearer pw_any' } });
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
