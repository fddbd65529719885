/**
 * A dashboard client for tests: signs in over HTTP like the browser app does, keeps the session
 * cookie, and sends the CSRF token on state-changing requests (unless told not to).
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createUser } from '../../api/accounts-store.js';
import type { PrismaClient, UserRole } from '../../prisma/client.js';

export const TEST_PASSWORD = 'correct horse battery staple';

export interface DashboardClient {
  cookie: string;
  csrfToken: string;
  session: Record<string, unknown>;
  call(method: string, path: string, body?: unknown, options?: { csrf?: boolean; origin?: string }): Promise<{ status: number; body: Record<string, unknown> }>;
}

export interface Answer {
  status: number;
  headers: Pick<Headers, 'get' | 'getSetCookie'>;
  body: Record<string, unknown>;
}

export async function request(baseUrl: string, method: string, path: string, init: { body?: unknown; cookie?: string; csrf?: string; origin?: string; localAddress?: string; forwardedFor?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.forwardedFor) headers['x-forwarded-for'] = init.forwardedFor;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  if (init.csrf) headers['x-csrf-token'] = init.csrf;
  if (init.origin) headers.origin = init.origin;
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (init.localAddress) return fromAddress(`${baseUrl}/dashboard/api${path}`, method, headers, body, init.localAddress);
  const res = await fetch(`${baseUrl}/dashboard/api${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The same request from a source address of our choosing (loopback is 127/8): fetch cannot pick one. */
function fromAddress(url: string, method: string, headers: Record<string, string>, body: string | undefined, localAddress: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const get = (name: string) => {
          const v = res.headers[name.toLowerCase()];
          return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
        };
        resolve({ status: res.statusCode ?? 0, headers: { get, getSetCookie: () => res.headers['set-cookie'] ?? [] }, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `name=value` of the session cookie a response set. */
export function sessionCookie(headers: Pick<Headers, 'getSetCookie'>): string | undefined {
  const line = headers.getSetCookie().find((c) => /^(__Host-)?pw_session=[^;]+/.test(c));
  return line?.split(';')[0];
}

export async function signIn(baseUrl: string, email: string, password = TEST_PASSWORD): Promise<DashboardClient> {
  const res = await request(baseUrl, 'POST', '/sign-in', { body: { email, password } });
  const cookie = sessionCookie(res.headers);
  if (res.status !== 200 || !cookie) throw new Error(`sign-in of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  const csrfToken = res.body.csrfToken as string;
  return {
    cookie,
    csrfToken,
    session: res.body,
    async call(method, path, body, options = {}) {
      const r = await request(baseUrl, method, path, { body, cookie, csrf: options.csrf === false ? undefined : csrfToken, origin: options.origin });
      return { status: r.status, body: r.body };
    },
  };
}

/** A new account with one admin (and its e-mail), straight through the accounts store. */
export async function newAccount(prisma: PrismaClient, role: UserRole = 'admin'): Promise<{ accountId: string; email: string }> {
  const accountId = randomUUID();
  await prisma.account.create({ data: { id: accountId, name: `team-${accountId.slice(0, 8)}` } });
  const email = `${role}-${accountId.slice(0, 8)}@example.test`;
  await createUser(prisma, { accountId, email, password: TEST_PASSWORD, role });
  return { accountId, email };
}
