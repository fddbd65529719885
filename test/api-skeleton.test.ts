/** The API's shared behaviour: error envelope, validation, body limits, CORS and bearer-key auth. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../api/keys-store.js';
import { defineRoute } from '../api/route.js';
import { apiRoutes } from '../api/routes/index.js';
import { hashApiKey } from '../core/api-keys.js';
import { startTestApi, type TestApi } from './helpers/api.js';
import { TEST_PEPPER } from './helpers/env.js';

// A route shaped like the real ones, so the shared middleware is tested apart from any feature.
const echo = defineRoute({
  method: 'post',
  path: '/test/echo',
  operationId: 'testEcho',
  summary: 'echo',
  tag: 'Test',
  auth: 'apiKey',
  body: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1 },
      count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
      formats: { type: 'array', items: { enum: ['markdown', 'html'] } },
    },
    required: ['url'],
    additionalProperties: false,
  },
  responses: { 200: { description: 'echo' } },
  handler(ctx, { body }) {
    ctx.body = { success: true, body, apiKeyId: ctx.state.auth?.apiKeyId };
  },
});

let api: TestApi;
let key: string;
let keyId: string;

beforeAll(async () => {
  api = await startTestApi({ env: { API_BODY_LIMIT_BYTES: '2048' }, routes: [...apiRoutes, echo] });
  ({ key, id: keyId } = await createKey(api.deps.prisma, 'skeleton-test', TEST_PEPPER));
});
afterAll(async () => api?.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}/test/echo`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers } });

describe('API keys', () => {
  it('are stored only as an HMAC of the key with the pepper', async () => {
    const rows = await api.deps.prisma.$queryRaw<Record<string, unknown>[]>`SELECT * FROM api_key WHERE id = ${keyId}`;
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(10));
    expect(rows[0]!.hash).toBe(hashApiKey(key, TEST_PEPPER));
    expect(key).toMatch(/^pw_[A-Za-z0-9_-]{32}$/);
  });

  it('authenticate a request and identify the key', async () => {
    const res = await post('{"url":"a"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, body: { url: 'a', count: 3 }, apiKeyId: keyId });
  });

  it.each([
    ['missing', undefined, 'Missing API key: send the header "Authorization: Bearer <API_KEY>".'],
    ['not a bearer token', 'Basic abc', 'Malformed Authorization header: expected "Bearer <API_KEY>".'],
    ['wrong', 'Bearer pw_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Invalid API key.'],
    ['malformed', 'Bearer hello', 'Invalid API key.'],
  ])('reject a %s key with 401', async (_label, authorization, error) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization) headers.authorization = authorization;
    const res = await fetch(`${api.url}/test/echo`, { method: 'POST', body: '{"url":"a"}', headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(await res.json()).toEqual({ success: false, error, code: 'unauthorized' });
  });

  it('reject a revoked key with 401', async () => {
    const revoked = await createKey(api.deps.prisma, 'to-revoke', TEST_PEPPER);
    expect(await revokeKey(api.deps.prisma, revoked.id)).toBe(1);
    const res = await fetch(`${api.url}/test/echo`, { method: 'POST', body: '{"url":"a"}', headers: { 'content-type': 'application/json', authorization: `Bearer ${revoked.key}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: 'This API key has been revoked; create a new one.', code: 'unauthorized' });
  });
});

describe('request validation', () => {
  it('rejects unknown fields with 400 naming them', async () => {
    const res = await post('{"url":"a","colour":"red","formats":["markdown","pdf"]}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      code: 'invalid_request',
      error: 'Invalid request body: colour is not a recognised field; formats[1] must be one of "markdown", "html"',
      details: [
        { field: 'colour', message: 'is not a recognised field' },
        { field: 'formats[1]', message: 'must be one of "markdown", "html"' },
      ],
    });
  });

  it('names a missing required field and an out-of-range number', async () => {
    const res = await post('{"count":11}');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { details: unknown[] };
    expect(body.details).toEqual([
      { field: 'url', message: 'is required' },
      { field: 'count', message: 'must be <= 10' },
    ]);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await post('{"url": ');
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.success).toBe(false);
    expect(body.code).toBe('invalid_json');
    expect(body.error).toMatch(/^Request body is not valid JSON/);
  });

  it('answers a body nested deeper than 32 levels with 400 naming where, before validation', async () => {
    const nest = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    // The body is level 1, `meta` 2, `list` 3: 29 objects more reach level 32, 30 are one too many.
    const deep = await post(`{"url":"x","meta":{"list":[${nest(30)}]}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({
      success: false,
      code: 'invalid_request',
      error: 'Invalid request body: meta.list[0]… nests deeper than 32 levels',
      details: [{ field: 'meta.list[0]…', message: 'nests deeper than 32 levels' }],
    });
    const allowed = await post(`{"url":"x","meta":{"list":[${nest(29)}]}}`);
    expect(allowed.status).toBe(400);
    expect(((await allowed.json()) as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(['meta']);
  });

  it('refuses a NUL character anywhere in the input with 400 naming the field (PostgreSQL cannot store it)', async () => {
    const res = await post(JSON.stringify({ url: 'x', formats: ['markdown', 'a\u0000b'] }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { details: unknown[] }).details).toEqual([{ field: 'formats[1]', message: 'contains a NUL character (\\u0000), which cannot be stored: remove it' }]);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await post(JSON.stringify({ url: 'x'.repeat(4096) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, code: 'payload_too_large', error: 'Request body exceeds the 2048-byte limit.' });
  });

  it('answers a chunked body over the limit with 413 too', async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"url":"' : 'y'.repeat(1000)));
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const res = await fetch(`${api.url}/test/echo`, { method: 'POST', body: chunks, duplex: 'half', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await post('url=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ success: false, code: 'unsupported_media_type', error: 'Expected Content-Type: application/json, got "application/x-www-form-urlencoded".' });
  });
});

describe('routing and CORS', () => {
  it('answers an unknown path with the error envelope', async () => {
    const res = await fetch(`${api.url}/v1/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, code: 'not_found', error: 'No route for GET /v1/nothing-here. See /api-reference.' });
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await fetch(`${api.url}/health`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('HEAD, GET');
    expect(await res.json()).toEqual({ success: false, code: 'method_not_allowed', error: 'DELETE is not allowed on /health; use HEAD, GET.' });
  });

  it('allows the configured origin and no other', async () => {
    const allowed = await fetch(`${api.url}/health`, { headers: { origin: 'http://allowed.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://allowed.example');
    const other = await fetch(`${api.url}/health`, { headers: { origin: 'http://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${api.url}/test/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'http://allowed.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
  });

  it('answers /health with 200', async () => {
    const res = await fetch(`${api.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: 'ok' });
  });
});
