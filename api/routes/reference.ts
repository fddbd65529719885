/** GET /api-reference: the OpenAPI 3.1 document as JSON, or as a readable page for browsers. */
import type { OpenApiDocument } from '../openapi.js';
import { renderReferenceHtml } from '../reference-html.js';
import { defineRoute } from '../route.js';

/** Strict CSP for the one HTML page we serve: inline styles only, nothing else loads. */
const htmlSecurityHeaders = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

export function referenceRoute(document: () => OpenApiDocument) {
  return defineRoute({
    method: 'get',
    path: '/api-reference',
    operationId: 'apiReference',
    summary: 'This OpenAPI 3.1 reference',
    description: 'JSON by default or with `?format=json`; an HTML page when the client prefers text/html (a browser) or with `?format=html`.',
    tag: 'Operational',
    auth: 'none',
    query: {
      type: 'object',
      properties: { format: { enum: ['json', 'html'], description: 'Force the representation.' } },
      additionalProperties: false,
    },
    responses: {
      200: { description: 'The OpenAPI document (application/json) or its HTML rendering (text/html).', schema: { type: 'object' } },
    },
    handler(ctx, { query }) {
      const format = query.format ?? (ctx.accepts('json', 'html') === 'html' ? 'html' : 'json');
      ctx.vary('Accept');
      if (format === 'html') {
        ctx.set(htmlSecurityHeaders);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderReferenceHtml(document());
      } else {
        ctx.body = document();
      }
    },
  });
}
