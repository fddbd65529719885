/**
 * How a dashboard endpoint is declared: who may call it (nobody signed in, any member, admins), the
 * JSON Schemas of its input (validated like the API's, 400 with `details` naming the field) and of
 * its answer's body (api/dashboard/schemas.ts), and a handler that returns that body (undefined:
 * 204). The answer's schema is not checked at run time: it types the handler's return value, so a
 * handler returning another shape does not compile (though, TypeScript being structural, an extra
 * field gets through), and the dashboard's own types derive from the same schemas. Registration
 * applies the origin check, the session, the CSRF check on state-changing requests and the role, in
 * that order (api/dashboard/guard.ts).
 */
import type { Router } from '@koa/router';
import type { FromSchema } from 'json-schema-to-ts';
import { ForbiddenError } from '../../core/errors.js';
import { precompile, validateInput } from '../middleware/validate.js';
import type { AppContext, AppState, Schema } from '../route.js';
import { checkCsrf, checkOrigin, isStateChanging } from './guard.js';
import { requireSession, type DashboardSession } from './session.js';

type Infer<S> = S extends Schema ? FromSchema<S> : undefined;

export interface DashboardInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

interface Declared<B, Q, P, R, A> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Below /dashboard/api. */
  path: string;
  access: A;
  body?: B;
  query?: Q;
  params?: P;
  /** The body of a successful answer; none when the route answers 204 (its handler returns undefined). */
  response?: R;
  /** Status of a successful answer with a body (default 200). */
  status?: number;
  handler: (
    ctx: AppContext,
    input: DashboardInput<Infer<B>, Infer<Q>, Infer<P>> & { session: A extends 'public' ? undefined : DashboardSession },
  ) => Promise<Infer<R>>;
}

export type DashboardRoute = Declared<Schema | undefined, Schema | undefined, Schema | undefined, Schema | undefined, 'public' | 'member' | 'admin'>;

export function dashboardRoute<
  const B extends Schema | undefined = undefined,
  const Q extends Schema | undefined = undefined,
  const P extends Schema | undefined = undefined,
  const R extends Schema | undefined = undefined,
  const A extends 'public' | 'member' | 'admin' = 'member',
>(route: Declared<B, Q, P, R, A>): DashboardRoute {
  return route as unknown as DashboardRoute;
}

export function registerDashboardRoutes(router: Router<AppState>, routes: readonly DashboardRoute[], origins: Set<string>): void {
  for (const route of routes) {
    if (route.body) precompile(route.body, 'body');
    if (route.query) precompile(route.query, 'query');
    if (route.params) precompile(route.params, 'params');
    router[route.method](route.path, async (ctx) => {
      const c = ctx as unknown as AppContext;
      const changing = isStateChanging(ctx.method);
      // Also checked before the body is read (api/dashboard/index.ts); here it guards routes mounted elsewhere.
      if (changing) checkOrigin(c, origins);
      let session: DashboardSession | undefined;
      if (route.access !== 'public') {
        session = await requireSession(c);
        if (changing) checkCsrf(c, session);
        if (route.access === 'admin' && session.user.role !== 'admin') throw new ForbiddenError('Only an admin of this account can do this.');
      }
      const body = route.body ? validateInput('body', route.body, ctx.request.body ?? {}) : undefined;
      const query = route.query ? validateInput('query', route.query, { ...ctx.query }) : undefined;
      const params = route.params ? validateInput('params', route.params, { ...ctx.params }) : undefined;
      const result = await route.handler(c, { body, query, params, session } as never);
      ctx.set('Cache-Control', 'no-store');
      if (result === undefined) ctx.status = 204;
      else {
        ctx.status = route.status ?? 200;
        ctx.body = result;
      }
    });
  }
}

/** Shared schema pieces. */
export const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } as const;
export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;
