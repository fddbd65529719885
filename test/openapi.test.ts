/** The reference is valid OpenAPI 3.1 and lists exactly the routes the server serves. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../api/openapi.js';
import { startTestApi, type TestApi } from './helpers/api.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

describe('GET /api-reference', () => {
  it('serves a valid OpenAPI 3.1 document as JSON by default', async () => {
    const res = await fetch(`${api.url}/api-reference`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const doc = (await res.json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the router serves, and nothing else', async () => {
    const doc = (await (await fetch(`${api.url}/api-reference?format=json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    const served = api.router.stack
      .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${openApiPath(String(layer.path))}`))
      .sort();
    expect(served.length).toBeGreaterThanOrEqual(3);
    expect(documented).toEqual(served);
  });

  it('renders a readable HTML page for a browser, with a strict CSP', async () => {
    const res = await fetch(`${api.url}/api-reference`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<title>Pagewright API reference</title>');
    expect(html).toContain('<code>/ready</code>');
    expect(html).not.toContain('<script');
  });
});
