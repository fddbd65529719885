/**
 * The OpenAPI 3.1 document of the dashboard's JSON endpoints (GET /dashboard/api/openapi.json),
 * made from the routes' own declarations (api/dashboard/define.ts): paths, parameters and request
 * bodies from their input schemas, and the successful answer from their response schema
 * (api/dashboard/schemas.ts), under the status a success gets: the route's `status` (200 unless
 * declared), or 204 for a route that declares no response. `default` covers the error answers (the
 * API's envelope). The fuzz run checks real answers against it (scripts/fuzz.ts).
 */
import type { DashboardRoute } from './define.js';

type Schema = { properties?: Record<string, unknown>; required?: readonly string[] };

export type DashboardDocument = {
  openapi: string;
  info: object;
  servers: object[];
  paths: Record<string, Record<string, object>>;
};

/** What registerDashboardRoutes answers when the handler succeeds: its body, or 204 when it declares none. */
function success(route: DashboardRoute): Record<string, object> {
  if (!route.response) return { 204: { description: 'Done; no body.' } };
  return { [route.status ?? 200]: { description: 'Done.', content: { 'application/json': { schema: route.response } } } };
}

export function dashboardDocument(routes: readonly DashboardRoute[]): DashboardDocument {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters = [
      ...Object.entries((route.params as Schema | undefined)?.properties ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
      ...Object.entries((route.query as Schema | undefined)?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: ((route.query as Schema).required ?? []).includes(name), schema })),
    ];
    paths[path] ??= {};
    paths[path]![route.method] = {
      operationId: `dashboard_${route.method}_${route.path.replace(/[^A-Za-z]+/g, '_').replace(/^_|_$/g, '')}`,
      ...(route.access === 'public' ? {} : { description: `Signed in (cookie session)${route.access === 'admin' ? ', as an admin' : ''}; state-changing requests send X-CSRF-Token.` }),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      responses: { ...success(route), default: { description: 'An error, in the envelope { success: false, error, code?, details? }.' } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Pagewright dashboard API', version: '1', description: 'The JSON endpoints behind the dashboard (dashboard/CONTRACT.md), below /dashboard/api.' },
    servers: [{ url: '/dashboard/api' }],
    paths,
  };
}
