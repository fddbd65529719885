/**
 * An OpenAPI document of the dashboard's JSON endpoints, for the fuzz run only, from the routes' own
 * declarations (api/dashboard/define.ts): paths, parameters and request bodies from their input
 * schemas, and the successful answer from their response schema (api/dashboard/schemas.ts), under
 * the status a success gets: the route's `status` (200 unless declared), or 204 for a route that
 * declares no response. `default` covers the error answers, since what the fuzz run checks here is
 * that nothing is a 5xx and every error keeps the envelope (scripts/fuzz/recorder.ts sees every
 * request). Left out: sign-out (it would end the fuzzer's session) and the playground (its scrapes
 * are the API's own, fuzzed there).
 */
import { dashboardRoutes } from '../../api/dashboard/index.js';
import type { DashboardRoute } from '../../api/dashboard/define.js';
import type { RateLimiter } from '../../api/rate-limit.js';

type Schema = { properties?: Record<string, unknown>; required?: readonly string[] };

const SKIPPED = [/^\/sign-out$/, /^\/playground/];

/** What registerDashboardRoutes answers when the handler succeeds: its body, or 204 when it declares none. */
function success(route: DashboardRoute): Record<string, object> {
  if (!route.response) return { 204: { description: 'Done; no body.' } };
  return { [route.status ?? 200]: { description: 'Done.', content: { 'application/json': { schema: route.response } } } };
}

export function dashboardDocument(): { openapi: string; info: object; paths: Record<string, Record<string, object>> } {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of dashboardRoutes({} as RateLimiter)) {
    if (SKIPPED.some((s) => s.test(route.path))) continue;
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters = [
      ...Object.entries((route.params as Schema | undefined)?.properties ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
      ...Object.entries((route.query as Schema | undefined)?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: ((route.query as Schema).required ?? []).includes(name), schema })),
    ];
    paths[path] ??= {};
    paths[path]![route.method] = {
      operationId: `dashboard_${route.method}_${route.path.replace(/[^A-Za-z]+/g, '_').replace(/^_|_$/g, '')}`,
      ...(parameters.length ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      responses: { ...success(route), default: { description: 'Any other answer but a 5xx; errors in the envelope.' } },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Pagewright dashboard (fuzz run)', version: '1' }, paths };
}
