/**
 * A readable, self-contained HTML rendering of the OpenAPI document for people in a browser.
 * No scripts and no third-party assets: the page works offline and under a strict CSP.
 */
import type { OpenApiDocument } from './openapi.js';

const escape = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

interface Op {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: object[];
  parameters: { name: string; in: string; required: boolean; schema: unknown; description?: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

function renderOperation(method: string, path: string, op: Op): string {
  const params = op.parameters.length
    ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${op.parameters
        .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escape(JSON.stringify(p.schema))}</code></td></tr>`)
        .join('')}</table>`
    : '';
  const body = op.requestBody
    ? `<h4>Request body (application/json)</h4><pre>${escape(JSON.stringify(op.requestBody.content['application/json']?.schema, null, 2))}</pre>`
    : '';
  const responses = Object.entries(op.responses)
    .map(([status, r]) => {
      const schema = r.content ? Object.values(r.content)[0]?.schema : undefined;
      return `<li><strong>${escape(status)}</strong> ${escape(r.description)}${schema ? `<details><summary>schema</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>` : ''}</li>`;
    })
    .join('');
  return `<section id="${escape(op.operationId)}"><h3><span class="m ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary)}${op.security.length ? ' <em>(requires API key)</em>' : ''}</p>${op.description ? `<p>${escape(op.description)}</p>` : ''}
${params}${body}<h4>Responses</h4><ul>${responses}</ul></section>`;
}

export function renderReferenceHtml(doc: OpenApiDocument): string {
  const sections = doc.tags
    .map((tag) => {
      const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods as Record<string, Op>).filter(([, op]) => op.tags.includes(tag.name)).map(([m, op]) => renderOperation(m, path, op)),
      );
      return `<h2>${escape(tag.name)}</h2>${ops.join('')}`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(doc.info.title)} reference</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font:13px ui-monospace,monospace}pre{background:#f5f5f5;padding:.75rem;overflow:auto}
section{border-top:1px solid #ddd;padding:.5rem 0}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
.m{display:inline-block;min-width:4.5rem;font-size:13px;color:#fff;border-radius:3px;text-align:center;background:#666}.get{background:#2b6cb0}.post{background:#2f855a}.delete{background:#c53030}
</style></head><body><h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1><p>${escape(doc.info.description)}</p>
<p>Base URL: <code>${escape(doc.servers[0]?.url)}</code>. Machine-readable: <a href="?format=json">OpenAPI 3.1 JSON</a>. Authenticate with <code>Authorization: Bearer &lt;API_KEY&gt;</code>.</p>
${sections}</body></html>`;
}
