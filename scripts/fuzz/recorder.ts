/**
 * The fuzz run's witness inside the API process: a Koa middleware put first, so it sees every
 * answer exactly as sent. It counts requests per operation of the OpenAPI document and checks each
 * answer against what the document promises: no 5xx (but the documented 502 scrape_failed, which
 * reports an unreachable target, not a fault of the service, and 501 not_supported, the documented
 * answer of hosted-API operations this server does not offer), every error in the envelope
 * `{ success: false, error, code, details? }`, a documented status and content type, and a body
 * valid against the documented schema. It also times each request, so a hang shows up even when
 * the client gave up first. Independent of the fuzzer's own checks (scripts/fuzz.ts runs both).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Middleware } from 'koa';

interface MediaType {
  schema?: unknown;
}
interface DocResponse {
  content?: Record<string, MediaType>;
}
interface DocOperation {
  operationId: string;
  responses: Record<string, DocResponse>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, DocOperation>>;
  components?: Record<string, Record<string, unknown>>;
}

export interface Operation {
  operationId: string;
  method: string;
  /** `/v1/crawl/{id}` */
  path: string;
  pattern: RegExp;
  responses: Record<string, DocResponse>;
}

export interface Violation {
  operation: string;
  request: string;
  status: number;
  problem: string;
  body: string;
}

export interface OperationStats {
  requests: number;
  statuses: Record<string, number>;
  /** Error bodies by `code` (e.g. `400 url_not_allowed`). */
  codes: Record<string, number>;
  durationsMs: number[];
}

/** Requests that match no operation (undeclared methods, unknown paths) are counted under this key. */
export const OTHER = '(undeclared)';
/** The dashboard's JSON endpoints (not in the API's document): checked for 5xx and the envelope only. */
export const DASHBOARD = '(dashboard)';
const MAX_VIOLATIONS_KEPT = 200;

/** Every operation; paths with fewer parameters first, so `/v2/crawl/active` is itself and not `/v2/crawl/{id}`. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const params = (path: string) => (path.match(/\{/g) ?? []).length;
  const paths = Object.entries(doc.paths).sort(([a], [b]) => params(a) - params(b));
  return paths.flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`),
      responses: op.responses,
    })),
  );
}

/** The schema with every local `#/...` reference replaced by what it points at (our document has no cycles). */
function inlineRefs(value: unknown, doc: OpenApiDoc): unknown {
  if (Array.isArray(value)) return value.map((v) => inlineRefs(v, doc));
  if (!value || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref.slice(2).split('/').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return inlineRefs(target, doc);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineRefs(v, doc)]));
}

function envelopeProblem(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'error body is not a JSON object';
  const b = body as Record<string, unknown>;
  if (b.success !== false) return 'error body lacks success: false';
  if (typeof b.error !== 'string' || !b.error) return 'error body lacks a string `error`';
  if (typeof b.code !== 'string' || !b.code) return 'error body lacks a string `code`';
  if (b.details !== undefined) {
    const ok = Array.isArray(b.details) && b.details.every((d) => d && typeof d === 'object' && typeof d.field === 'string' && typeof d.message === 'string');
    if (!ok) return '`details` is not a list of { field, message }';
  }
  return undefined;
}

export class Recorder {
  readonly operations: Operation[];
  readonly stats = new Map<string, OperationStats>();
  readonly violations: Violation[] = [];
  violationCount = 0;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly inFlight = new Map<number, { request: string; since: number }>();
  private nextId = 0;

  constructor(doc: OpenApiDoc) {
    this.operations = operationsOf(doc);
    for (const key of [...this.operations.map((o) => o.operationId), OTHER, DASHBOARD]) this.stats.set(key, { requests: 0, statuses: {}, codes: {}, durationsMs: [] });
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(ajv);
    for (const op of this.operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.schema !== undefined) this.validators.set(`${op.operationId} ${status} ${type}`, ajv.compile(inlineRefs(media.schema, doc) as object));
        }
      }
    }
  }

  /** The operation of the most specific path matching `path` (operationsOf's order), if it declares `method`; else undeclared. */
  match(method: string, path: string): Operation | undefined {
    const first = this.operations.find((o) => o.pattern.test(path));
    return first && this.operations.find((o) => o.path === first.path && o.method === method);
  }

  /** Requests running longer than `ms` right now. */
  stuckLongerThan(ms: number): string[] {
    const now = performance.now();
    return [...this.inFlight.values()].filter((r) => now - r.since > ms).map((r) => `${r.request} (running ${Math.round((now - r.since) / 1000)} s)`);
  }

  middleware(): Middleware {
    return async (ctx, next) => {
      const id = this.nextId++;
      const since = performance.now();
      const request = `${ctx.method} ${ctx.url}`;
      this.inFlight.set(id, { request, since });
      let thrown = false;
      try {
        await next();
      } catch (err) {
        thrown = true; // Koa's own handler will answer 500
        throw err;
      } finally {
        this.inFlight.delete(id);
        this.record(ctx.method, ctx.path, request, thrown ? 500 : ctx.status, ctx.response.type, ctx.body, performance.now() - since);
      }
    };
  }

  private violation(operation: string, request: string, status: number, problem: string, body: unknown): void {
    this.violationCount++;
    if (this.violations.length < MAX_VIOLATIONS_KEPT) this.violations.push({ operation, request: request.slice(0, 500), status, problem, body: JSON.stringify(body ?? null).slice(0, 500) });
  }

  private record(method: string, path: string, request: string, status: number, type: string, body: unknown, ms: number): void {
    const op = this.match(method, path);
    const key = op?.operationId ?? (path.startsWith('/dashboard/api/') ? DASHBOARD : OTHER);
    const stats = this.stats.get(key)!;
    stats.requests++;
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    stats.durationsMs.push(ms);
    const code = (body as { code?: unknown } | null)?.code;
    if (status >= 400 && typeof code === 'string') stats.codes[`${status} ${code}`] = (stats.codes[`${status} ${code}`] ?? 0) + 1;
    // The documented 5xx that are not the service's fault: the target site could not be fetched, and an
    // operation this server does not offer (README, "Errors").
    const expected = (status === 502 && code === 'scrape_failed') || (status === 501 && code === 'not_supported');
    if (status >= 500 && !(expected && op?.responses[String(status)])) this.violation(key, request, status, `server error ${status}`, body);
    if (status >= 400 && method !== 'HEAD') {
      const problem = envelopeProblem(body);
      if (problem) this.violation(key, request, status, problem, body);
    }
    if (!op || method === 'HEAD') return;
    const response = op.responses[String(status)];
    if (!response) return this.violation(key, request, status, `status ${status} is not documented for ${op.method} ${op.path}`, body);
    const types = Object.keys(response.content ?? {});
    if (!types.length) return;
    if (!types.includes(type)) return this.violation(key, request, status, `content type ${type || '(none)'} is not documented (${types.join(', ')})`, undefined);
    const validate = this.validators.get(`${op.operationId} ${status} ${type}`);
    if (validate && type === 'application/json' && !validate(body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');
      this.violation(key, request, status, `body does not match the documented schema: ${errors}`, body);
    }
  }
}
