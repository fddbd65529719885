/**
 * Hostile input on every JSON endpoint of the dashboard, signed in as an admin with the CSRF token
 * (issue 22): bodies that break each route's schema field by field (wrong types, nulls, huge and
 * odd strings, deep nesting, unknown fields), whole bodies of the wrong shape, odd path ids and
 * query strings. Whatever the answer, it is never a 5xx, and every error keeps the envelope
 * `{ success: false, code, error }`. The API's own endpoints are fuzzed by scripts/fuzz.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../api/dashboard/index.js';
import type { RateLimiter } from '../api/rate-limit.js';
import { newAccount, request, signIn, type DashboardClient } from './helpers/dashboard.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let admin: DashboardClient;

beforeAll(async () => {
  stack = await startTestStack();
  admin = await signIn(stack.api.url, (await newAccount(stack.api.deps.prisma)).email);
});
afterAll(async () => {
  await stack?.close();
});

const deep = JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as unknown;
const HOSTILE_VALUES: unknown[] = [
  null, true, -1, 1.5, 1e308, '', ' ', 'x'.repeat(20_000), '\u0000', '<script>alert(1)</script>', '../../etc/passwd',
  'http://169.254.169.254/latest', '2026-13-45T99:99:99Z', [], [null], {}, { a: { b: { c: 1 } } }, deep,
];
const HOSTILE_BODIES: unknown[] = [[], 'text', 42, null, { unknownField: 1 }, deep];
const HOSTILE_IDS = ['x', 'x'.repeat(101), randomUUID(), '..', '%00', '%E0%A4%A', ' '];
const HOSTILE_QUERY = ['-1', 'abc', '1e309', '', 'x'.repeat(3000), '[]', '%00'];

interface Case {
  method: string;
  path: string;
  body?: unknown;
}

function casesFor(route: { method: string; path: string; body?: unknown; query?: unknown }): Case[] {
  const method = route.method.toUpperCase();
  const paths = route.path.includes(':') ? HOSTILE_IDS.map((id) => route.path.replace(/:[a-zA-Z]+/g, encodeURIComponent(id).replace(/%25/g, '%'))) : [route.path];
  const out: Case[] = [];
  const properties = Object.keys((route.body as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const queryNames = Object.keys((route.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  for (const path of paths) {
    if (method === 'GET') {
      out.push({ method, path });
      for (const name of queryNames) for (const v of HOSTILE_QUERY) out.push({ method, path: `${path}?${name}=${encodeURIComponent(v)}` });
      continue;
    }
    for (const body of HOSTILE_BODIES) out.push({ method, path, body });
    for (const name of properties) for (const value of HOSTILE_VALUES) out.push({ method, path, body: { [name]: value } });
  }
  return out;
}

describe('dashboard JSON endpoints under hostile input', () => {
  it('never answer a 5xx, and every error keeps the envelope', async () => {
    const routes = dashboardRoutes({} as RateLimiter).filter((r) => r.path !== '/sign-out');
    const cases = routes.flatMap(casesFor);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    for (const c of cases) {
      const res = await request(stack.api.url, c.method, c.path, { body: c.body, cookie: admin.cookie, csrf: admin.csrfToken });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const what = `${c.method} ${c.path.slice(0, 80)} ${JSON.stringify(c.body)?.slice(0, 80)}`;
      if (res.status >= 500) problems.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (res.status >= 400 && !(res.body.success === false && typeof res.body.code === 'string' && typeof res.body.error === 'string')) problems.push(`${what}: ${res.status} outside the envelope`);
    }
    expect(problems).toEqual([]);
    // The run reached the handlers' checks, not only the session guard: most answers are 400s.
    expect(cases.length).toBeGreaterThan(500);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(cases.length / 2);
    expect(statuses.get(401) ?? 0).toBe(0);
    // Still signed in at the end.
    expect((await admin.call('GET', '/session')).status).toBe(200);
  }, 300_000);
});
