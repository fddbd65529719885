/**
 * A route is declared once, with the JSON Schemas of its inputs and outputs; the same declaration
 * registers the Koa handler (api/app.ts), validates input (api/middleware/validate.ts) and feeds the
 * OpenAPI document (api/openapi.ts). So the reference cannot list a route the server doesn't serve.
 */
import type { ParameterizedContext } from 'koa';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { ApiDeps } from './deps.js';
import type { PaidOperation } from '../core/x402-settings.js';
import type { RateLimitName } from './rate-limit.js';
import type { Payment } from './x402/payment.js';

export type Schema = Exclude<JSONSchema, boolean>;

/** Who is calling: an API key, or (x402) the wallet that paid for this request. Exactly one is set. */
export type AuthState = { apiKeyId: string; accountId?: string; payer?: undefined } | { payer: string; apiKeyId?: undefined; accountId?: undefined };

export interface AppState {
  deps: ApiDeps;
  auth?: AuthState;
  /** Set on requests paid with x402 (api/x402/payment.ts). */
  payment?: Payment;
  requestId: string;
  /** The client's address (api/client-address.ts, TRUST_PROXY). */
  clientIp: string;
}

export type AppContext = ParameterizedContext<AppState>;

export interface ResponseSpec {
  description: string;
  schema?: Schema;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: Schema }>;
}

type Infer<S> = S extends Schema ? FromSchema<S> : undefined;

interface RouteBase {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Koa-style path, e.g. `/v1/crawl/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** `apiKey`: Authorization: Bearer <key> required. */
  auth: 'apiKey' | 'none';
  /** Which per-caller rate limit counts this route's requests (api/rate-limit.ts); needs `auth: 'apiKey'`. */
  rateLimit?: RateLimitName;
  /** With x402 on, a caller without an API key may pay for this route as this operation (its price variable). */
  paidAs?: PaidOperation;
  /**
   * How many requests of its rate limit, and of its `paidAs` price, one request counts as, read from
   * the raw body before validation (so it must not trust it); default 1. A search that scrapes its
   * results: 1 + limit.
   */
  units?: (body: unknown) => number;
  /** Credits a successful request costs by itself, shown in the dashboard's activity log (a scrape's page, a map). */
  credits?: number;
  /** Starts billed work (pages): with billing on, an account without credits gets 402 insufficient_credits. */
  billed?: true;
  /** Starts a job and takes an `x-idempotency-key` header (jobs/start.ts startJob). */
  idempotencyKey?: true;
  /** Served before the JSON body parser, and before every other route: it reads no body (api/routes/not-offered.ts). */
  readsNoBody?: true;
  responses: Record<number, ResponseSpec>;
}

type Handler<B, Q, P> = (ctx: AppContext, input: { body: B; query: Q; params: P }) => Promise<void> | void;

/** A declared route with its input types erased: what the app, validator and OpenAPI builder see. */
export interface RouteSpec extends RouteBase {
  body?: Schema;
  query?: Schema;
  params?: Schema;
  handler: Handler<unknown, unknown, unknown>;
}

/** Keeps the literal schema types, so the handler's input is typed from the very schemas that validate it. */
export function defineRoute<const B extends Schema | undefined = undefined, const Q extends Schema | undefined = undefined, const P extends Schema | undefined = undefined>(
  spec: RouteBase & { body?: B; query?: Q; params?: P; handler: Handler<Infer<B>, Infer<Q>, Infer<P>> },
): RouteSpec {
  return spec as unknown as RouteSpec;
}
