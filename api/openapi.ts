/**
 * The OpenAPI 3.1 document, generated from the same route declarations and JSON Schemas that the
 * server registers and validates with. OpenAPI 3.1 schemas are JSON Schema 2020-12; ours use the
 * common subset, so they are copied as they are.
 */
import type { RouteSpec, Schema } from './route.js';

const errorSchema = {
  type: 'object',
  description: 'Every error response. `code` is stable and machine-readable; `error` is for humans.',
  properties: {
    success: { const: false },
    error: { type: 'string' },
    code: { type: 'string' },
    details: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] },
    },
  },
  required: ['success', 'error', 'code'],
} as const;

const standardErrors: Record<number, string> = {
  400: 'Invalid request; `details` names each bad field.',
  401: 'Missing, invalid or revoked API key.',
  413: 'Request body too large.',
  415: 'Body is not application/json.',
  429: "Over this endpoint's rate limit for this API key; `error` names the limit, `Retry-After` says when to retry.",
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Headers of rate-limited routes (api/middleware/rate-limit.ts). */
const rateLimitHeaders = {
  'RateLimit-Limit': integerHeader('Requests per minute allowed to this caller on this endpoint (also the burst size).'),
  'RateLimit-Remaining': integerHeader('Requests still allowed right now.'),
  'RateLimit-Reset': integerHeader('Seconds until the whole limit is available again.'),
};
const retryAfterHeader = { 'Retry-After': integerHeader('Seconds to wait before the request would be allowed.') };
const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** `/v1/crawl/:id` → `/v1/crawl/{id}` */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(route: RouteSpec) {
  const out: object[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    const props = (schema as { properties?: Record<string, Schema> } | undefined)?.properties ?? {};
    const required = new Set((schema as { required?: string[] } | undefined)?.required ?? []);
    for (const [name, s] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: s, description: (s as { description?: string }).description });
    }
  }
  return out;
}

function operation(route: RouteSpec) {
  const responses: Record<string, object> = {};
  // Every response of a limited route that got past authentication carries the RateLimit headers.
  const limited = route.rateLimit ? headerRefs(Object.keys(rateLimitHeaders)) : {};
  for (const [status, r] of Object.entries(route.responses)) {
    const headers = { ...limited, ...r.headers };
    responses[status] = {
      description: r.description,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}),
    };
  }
  const errors = { ...(route.body ? { 400: standardErrors[400], 413: standardErrors[413], 415: standardErrors[415] } : {}), ...(route.query || route.params ? { 400: standardErrors[400] } : {}), ...(route.auth === 'apiKey' ? { 401: standardErrors[401] } : {}) };
  for (const [status, description] of Object.entries(errors)) {
    responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  if (route.rateLimit) {
    responses[429] ??= {
      description: standardErrors[429],
      headers: headerRefs([...Object.keys(retryAfterHeader), ...Object.keys(rateLimitHeaders)]),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: route.auth === 'apiKey' ? [{ bearerAuth: [] }] : [],
    parameters: parameters(route),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
  };
}

export function buildOpenApi(routes: readonly RouteSpec[], serverUrl: string, version: string) {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pagewright API',
      version,
      description: 'Turn web pages into markdown, HTML, links, screenshots and LLM-extracted JSON; map sites; crawl them durably.',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorSchema },
      headers: { ...retryAfterHeader, ...rateLimitHeaders },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: `Authorization: Bearer pw_...`' } },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
