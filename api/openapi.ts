/**
 * The OpenAPI 3.1 document, generated from the same route declarations and JSON Schemas that the
 * server registers and validates with. OpenAPI 3.1 schemas are JSON Schema 2020-12; ours use the
 * common subset, so they are copied as they are.
 */
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../core/schemas/crawl.js';
import type { X402Settings } from '../core/x402-settings.js';
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

/** x402 (api/x402/): documented only when the deployment takes payments, as the server then behaves. */
const paymentRequirementsSchema = {
  type: 'object',
  description: 'One way to pay (x402 v2, scheme `exact`: an EIP-3009 USDC transfer authorization).',
  properties: {
    scheme: { const: 'exact' },
    network: { type: 'string', description: 'CAIP-2 network, e.g. `eip155:8453`.' },
    asset: { type: 'string', description: 'Token contract (USDC).' },
    amount: { type: 'string', description: 'Price in the token\'s atomic units (6 decimals: `10000` = $0.01).' },
    payTo: { type: 'string', description: 'Receiving address.' },
    maxTimeoutSeconds: { type: 'integer', description: 'How long the signed authorization may stay valid.' },
    extra: { type: 'object', description: 'EIP-712 domain of the token (`name`, `version`).' },
  },
  required: ['scheme', 'network', 'asset', 'amount', 'payTo', 'maxTimeoutSeconds', 'extra'],
} as const;
const paymentRequiredSchema = {
  type: 'object',
  description: 'The x402 PaymentRequired object: the PAYMENT-REQUIRED header, decoded.',
  properties: {
    x402Version: { const: 2 },
    error: { type: 'string' },
    resource: { type: 'object', properties: { url: { type: 'string' }, description: { type: 'string' }, mimeType: { type: 'string' } }, required: ['url'] },
    accepts: { type: 'array', items: paymentRequirementsSchema },
  },
  required: ['x402Version', 'resource', 'accepts'],
} as const;
const paymentErrorSchema = {
  allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { paymentRequired: { $ref: '#/components/schemas/PaymentRequired' } }, required: ['paymentRequired'] }],
} as const;
const paymentHeaders = {
  'PAYMENT-REQUIRED': { description: 'Base64 of the JSON PaymentRequired object (x402 v2): what to pay and how.', schema: { type: 'string' } },
  'PAYMENT-RESPONSE': { description: 'Base64 of the JSON settlement result (x402 v2): `success`, `transaction`, `network`, `payer`.', schema: { type: 'string' } },
};
const paymentRefusals = [
  '`payment_required`: no API key and no PAYMENT-SIGNATURE header.',
  '`payment_invalid`: the payment does not match, the facilitator refused it, or the authorization was already used.',
  '`payment_settlement_failed`: the work was done but could not be charged, so its result is withheld (PAYMENT-RESPONSE says why).',
].join(' ');

function addPayment(route: RouteSpec, op: Record<string, unknown>, responses: Record<string, Record<string, unknown>>, x402: X402Settings): void {
  const price = x402.prices[route.paidAs!];
  op.security = [{ bearerAuth: [] }, { x402: [] }];
  const per = route.units ? `${price} per unit (a search: 1 unit, or 1 + limit when it scrapes its results; the 402 names the total)` : `${price} per request`;
  op.description = `${(op.description as string | undefined) ?? ''}\n\nWithout an API key, pay ${per} with x402 (PAYMENT-SIGNATURE header).`.trim();
  const ok = responses[200]!;
  ok.headers = { ...(ok.headers as object | undefined), 'PAYMENT-RESPONSE': { $ref: '#/components/headers/PAYMENT-RESPONSE' } };
  responses[402] = {
    description: `Payment required or refused (x402). ${paymentRefusals}`,
    headers: headerRefs(['PAYMENT-REQUIRED']),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/PaymentError' } } },
  };
  const facilitator = {
    502: '`payment_facilitator_error`: the payment facilitator answered outside the protocol; nothing was done or charged.',
    503: '`payment_facilitator_unavailable`: the payment facilitator cannot be reached or is too slow; nothing was done or charged.',
  };
  for (const [status, text] of Object.entries(facilitator)) {
    const existing = responses[status];
    responses[status] = existing
      ? { ...existing, description: `${existing.description as string} Or (x402) ${text}` }
      : { description: `(x402) ${text}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
}

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
  if (route.idempotencyKey) {
    out.push({
      name: 'x-idempotency-key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
      description: 'A key of your choosing (a UUID, say). The same key again from the same API key or paying wallet answers with the job it started instead of starting another (while that job is kept); used for the other kind of job, 409.',
    });
  }
  return out;
}

function operation(route: RouteSpec, x402: X402Settings | undefined, billing: boolean) {
  const responses: Record<string, Record<string, unknown>> = {};
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
  if (route.idempotencyKey) {
    responses[409] ??= { description: '`conflict`: the x-idempotency-key was used for the other kind of job (crawl or batch scrape), or for a request still being handled.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  if (route.rateLimit) {
    responses[429] ??= {
      description: standardErrors[429],
      headers: headerRefs([...Object.keys(retryAfterHeader), ...Object.keys(rateLimitHeaders)]),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const op: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: route.auth === 'apiKey' ? [{ bearerAuth: [] }] : [],
    parameters: parameters(route),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
  };
  if (x402 && route.paidAs) addPayment(route, op, responses, x402);
  // Subscription billing: documented only when it is on, as the server then behaves.
  if (billing && route.billed) {
    const text = '`insufficient_credits`: the account has used its credits for the period; the message says how to upgrade.';
    const existing = responses[402];
    responses[402] = existing
      ? { ...existing, description: `${existing.description as string} Or (billing) ${text}` }
      : { description: `(billing) ${text}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return op;
}

export function buildOpenApi(routes: readonly RouteSpec[], serverUrl: string, version: string, x402?: X402Settings, billing = false) {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route, x402, billing);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pagewright API',
      version,
      description:
        'Turn web pages into markdown, HTML, links, screenshots and LLM-extracted JSON; map sites; crawl them durably. Two versions side by side: `/v1` (the specification) and `/v2` (the hosted v2 API’s shapes, adapters over the same operations; tag `v2`).',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorSchema, ...(x402 ? { PaymentRequired: paymentRequiredSchema, PaymentError: paymentErrorSchema } : {}) },
      headers: { ...retryAfterHeader, ...rateLimitHeaders, ...(x402 ? paymentHeaders : {}) },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: `Authorization: Bearer pw_...`' },
        ...(x402
          ? {
              x402: {
                type: 'apiKey',
                in: 'header',
                name: 'PAYMENT-SIGNATURE',
                description: `Pay per request instead (x402 v2): base64 of a signed PaymentPayload answering the PAYMENT-REQUIRED header of a 402. Network ${x402.network}, USDC, to ${x402.payTo}. Clients such as @x402/fetch do it for you.`,
              },
            }
          : {}),
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
