/**
 * The dashboard's endpoints over HTTP against the real stack: sign-in, cookies as the spec says,
 * server-side sessions (rotation, sign-out, password change), CSRF and origin checks, keys shown
 * once, the playground running the API's own operations, usage and activity, invites and roles,
 * one account seeing nothing of another's, and the sign-in rate limit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../api/accounts-store.js';
import { dashboardRoutes } from '../api/dashboard/index.js';
import { keysAnswer, sessionSchema } from '../api/dashboard/schemas.js';
import type { RateLimiter } from '../api/rate-limit.js';
import { startSite } from './fixtures/site.js';
import type { FixtureServer } from './fixtures/server.js';
import { newAccount, request, sessionCookie, signIn, TEST_PASSWORD, type DashboardClient } from './helpers/dashboard.js';
import { pollUntil } from './helpers/poll.js';
import { startTestApi, type TestApi } from './helpers/api.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let site: FixtureServer;
let admin: DashboardClient;
let adminEmail: string;

beforeAll(async () => {
  [stack, site] = await Promise.all([startTestStack({ TEMPORAL_UI_URL: 'http://127.0.0.1:8233', DASHBOARD_ORIGINS: 'http://dashboard.example' }), startSite()]);
  ({ email: adminEmail } = await newAccount(stack.api.deps.prisma));
  admin = await signIn(stack.api.url, adminEmail);
});
afterAll(async () => {
  await Promise.all([stack?.close(), site?.close()]);
});

const apiCall = async (key: string, method: string, path: string, body?: unknown) => stack.call(method, path, body, key);

describe('signing in', () => {
  it('accepts the right password only, and answers with the session (user, account, CSRF token)', async () => {
    const wrong = await request(stack.api.url, 'POST', '/sign-in', { body: { email: adminEmail, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, code: 'signed_out', error: 'Wrong e-mail or password.' });
    expect(sessionCookie(wrong.headers)).toBeUndefined();
    const unknown = await request(stack.api.url, 'POST', '/sign-in', { body: { email: 'nobody@example.test', password: TEST_PASSWORD } });
    expect(unknown.status).toBe(401);
    expect(admin.session).toMatchObject({ user: { email: adminEmail, role: 'admin' }, temporalUiUrl: 'http://127.0.0.1:8233', signUpOpen: false, oidc: { enabled: false } });
    expect(admin.csrfToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const me = await admin.call('GET', '/session');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: adminEmail });
  });

  it('over plain http in development the cookie is HttpOnly and SameSite=Lax, without Secure', async () => {
    const res = await request(stack.api.url, 'POST', '/sign-in', { body: { email: adminEmail, password: TEST_PASSWORD } });
    const line = res.headers.getSetCookie().find((c) => c.startsWith('pw_session='))!;
    expect(line).toMatch(/; path=\/;/);
    expect(line).toMatch(/; samesite=lax/);
    expect(line).toMatch(/; httponly/);
    expect(line).not.toMatch(/; secure/);
  });

  it('with an https AUTH_URL the cookie is __Host-, Secure, SameSite=None and HttpOnly (the spec)', async () => {
    const secureApi: TestApi = await startTestApi({ env: { AUTH_URL: 'https://dashboard.example.test', SIGN_IN_RATE_LIMIT_PER_MIN: '1000' } });
    try {
      const res = await request(secureApi.url, 'POST', '/sign-in', { body: { email: adminEmail, password: TEST_PASSWORD } });
      expect(res.status).toBe(200);
      const line = res.headers.getSetCookie().find((c) => c.startsWith('__Host-pw_session='))!;
      expect(line).toMatch(/; path=\/;/);
      expect(line).toMatch(/; secure/);
      expect(line).toMatch(/; samesite=none/);
      expect(line).toMatch(/; httponly/);
      expect(line).not.toMatch(/domain=/);
    } finally {
      await secureApi.close();
    }
  });

  it('rotates the session at sign-in: the cookie the browser had stops working', async () => {
    const first = await signIn(stack.api.url, adminEmail);
    const again = await request(stack.api.url, 'POST', '/sign-in', { body: { email: adminEmail, password: TEST_PASSWORD }, cookie: first.cookie });
    expect(again.status).toBe(200);
    expect(sessionCookie(again.headers)).not.toBe(first.cookie);
    expect((await first.call('GET', '/session')).status).toBe(401);
    expect((await request(stack.api.url, 'GET', '/session', { cookie: sessionCookie(again.headers) })).status).toBe(200);
  });

  it('a cookie with a forged signature is refused', async () => {
    const [name, value] = admin.cookie.split('=') as [string, string];
    const forged = `${name}=${value.slice(0, value.lastIndexOf('.'))}.AAAA${value.slice(value.lastIndexOf('.') + 5)}`;
    const res = await request(stack.api.url, 'GET', '/keys', { cookie: forged });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'signed_out' });
  });

  it('sign-out ends the session; a password change ends every session of the user', async () => {
    const { email } = await newAccount(stack.api.deps.prisma);
    const one = await signIn(stack.api.url, email);
    const two = await signIn(stack.api.url, email);
    expect((await one.call('POST', '/sign-out', {})).status).toBe(204);
    expect((await one.call('GET', '/keys')).status).toBe(401);
    expect((await two.call('GET', '/keys')).status).toBe(200);
    await setPassword(stack.api.deps.prisma, email, 'a brand new password');
    expect((await two.call('GET', '/keys')).status).toBe(401);
    expect((await request(stack.api.url, 'POST', '/sign-in', { body: { email, password: TEST_PASSWORD } })).status).toBe(401);
    expect((await signIn(stack.api.url, email, 'a brand new password')).session).toMatchObject({ user: { email } });
  });

  it('sign-up is closed by default', async () => {
    const res = await request(stack.api.url, 'POST', '/sign-up', { body: { email: `new-${randomUUID()}@example.test`, password: TEST_PASSWORD, accountName: 'New team' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'sign_up_closed' });
  });
});

describe('sign-up when open, and the served app', () => {
  it('with DASHBOARD_SIGNUP=true anyone may create an account, becoming its admin', async () => {
    const open = await startTestApi({ env: { DASHBOARD_SIGNUP: 'true', SIGN_IN_RATE_LIMIT_PER_MIN: '1000' } });
    try {
      const email = `founder-${randomUUID().slice(0, 8)}@example.test`;
      const res = await request(open.url, 'POST', '/sign-up', { body: { email, password: TEST_PASSWORD, accountName: 'Acme scraping' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ user: { email, role: 'admin' }, account: { name: 'Acme scraping' }, signUpOpen: true });
      expect(sessionCookie(res.headers)).toMatch(/^pw_session=/);
      const short = await request(open.url, 'POST', '/sign-up', { body: { email: `x-${email}`, password: 'short', accountName: 'X' } });
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({ details: [{ field: 'password', message: 'must be at least 10 characters' }] });
      const taken = await request(open.url, 'POST', '/sign-up', { body: { email, password: TEST_PASSWORD, accountName: 'Again' } });
      expect(taken.status).toBe(409);
    } finally {
      await open.close();
    }
  });

  it('serves the app under a strict CSP, answers 404 for a missing asset and 405 to other methods, and takes CSP reports', async () => {
    const page = await fetch(`${stack.api.url}/dashboard/jobs/anything`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; report-uri /dashboard/api/csp-report",
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/dashboard/assets/app.js"></script>');
    expect(html).not.toMatch(/<script>|<style>|style="/);
    const asset = await fetch(`${stack.api.url}/dashboard/assets/app.js`);
    expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    const missing = await fetch(`${stack.api.url}/dashboard/assets/nope.js`);
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, 'not_found']);
    expect((await fetch(`${stack.api.url}/dashboard/keys`, { method: 'PUT' })).status).toBe(405);
    const endpoint = await request(stack.api.url, 'GET', '/nothing-here');
    expect([endpoint.status, endpoint.body.code]).toEqual([404, 'not_found']);
    const report = await fetch(`${stack.api.url}/dashboard/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify({ 'csp-report': { 'violated-directive': 'script-src', 'blocked-uri': 'inline', 'document-uri': `${stack.api.url}/dashboard/keys` } }),
    });
    expect(report.status).toBe(204);
  });
});

describe('CSRF and origins', () => {
  it('refuses a state-changing request without the CSRF token, or with another session’s', async () => {
    const none = await admin.call('POST', '/keys', { name: 'no token' }, { csrf: false });
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ success: false, code: 'csrf_failed' });
    const other = await signIn(stack.api.url, (await newAccount(stack.api.deps.prisma)).email);
    const crossed = await request(stack.api.url, 'POST', '/keys', { body: { name: 'crossed' }, cookie: admin.cookie, csrf: other.csrfToken });
    expect(crossed.status).toBe(403);
    expect(await stack.api.deps.prisma.apiKey.count({ where: { name: { in: ['no token', 'crossed'] } } })).toBe(0);
  });

  it('refuses an Origin that is neither AUTH_URL nor in DASHBOARD_ORIGINS (one in CORS_ORIGIN included), and a form-encoded post', async () => {
    const evil = await admin.call('POST', '/keys', { name: 'evil' }, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatchObject({ code: 'origin_not_allowed' });
    // CORS_ORIGIN lets a browser page call the API with a key; it does not act as the signed-in user.
    const apiOrigin = await admin.call('POST', '/keys', { name: 'evil' }, { origin: 'http://allowed.example' });
    expect([apiOrigin.status, apiOrigin.body.code]).toEqual([403, 'origin_not_allowed']);
    const dashboardOrigin = await admin.call('POST', '/sign-out', {}, { origin: 'http://dashboard.example', csrf: false });
    expect([dashboardOrigin.status, dashboardOrigin.body.code]).toEqual([403, 'csrf_failed']); // past the origin check
    const form = await fetch(`${stack.api.url}/dashboard/api/keys`, { method: 'POST', headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: 'name=form' });
    expect(form.status).toBe(403);
    // Without an Origin (no browser would omit it): still refused, as only JSON bodies are read.
    const sameSiteForm = await fetch(`${stack.api.url}/dashboard/api/keys`, { method: 'POST', headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=form' });
    expect(sameSiteForm.status).toBe(415);
    expect(await stack.api.deps.prisma.apiKey.count({ where: { name: { in: ['evil', 'form'] } } })).toBe(0);
  });

  it('shares credentials with the origins in DASHBOARD_ORIGINS only, not with those in CORS_ORIGIN', async () => {
    const preflight = (origin: string) => fetch(`${stack.api.url}/dashboard/api/session`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-csrf-token' } });
    const allowed = await preflight('http://dashboard.example');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://dashboard.example');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/X-CSRF-Token/i);
    expect((await preflight('http://allowed.example')).headers.get('access-control-allow-origin')).toBeNull();
    for (const origin of ['https://evil.example', 'http://allowed.example']) {
      const read = await fetch(`${stack.api.url}/dashboard/api/session`, { headers: { origin, cookie: admin.cookie } });
      expect([origin, read.headers.get('access-control-allow-origin')]).toEqual([origin, null]);
    }
  });
});

describe('the dashboard API document', () => {
  it('GET /openapi.json lists every dashboard endpoint, signed out, with the schema of each answer', async () => {
    const res = await request(stack.api.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, { responses: Record<string, { content?: { 'application/json': { schema: unknown } } }> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/dashboard/api' }]);
    expect(doc.paths['/keys']!.get!.responses['200']!.content!['application/json'].schema).toEqual(keysAnswer);
    expect(doc.paths['/sign-in']!.post!.responses['200']!.content!['application/json'].schema).toEqual(sessionSchema);
    expect(Object.keys(doc.paths['/sign-out']!.post!.responses)).toEqual(['204', 'default']);
    expect(doc.paths['/jobs/{id}/cancel']!.post).toBeDefined();
    const operations = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    // One operation per dashboard endpoint this server registers (billing off: its one read).
    expect(operations).toBe(dashboardRoutes({} as RateLimiter).length);
  });
});

describe('API keys', () => {
  it('shows a new key once; it works on the API until revoked, then gets 401', async () => {
    const created = await admin.call('POST', '/keys', { name: 'ci key' });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect(key).toMatch(/^pw_[A-Za-z0-9_-]{32}$/);
    expect(created.body).toMatchObject({ name: 'ci key', prefix: key.slice(0, 9) });
    const list = await admin.call('GET', '/keys');
    expect(list.body.keys).toEqual([{ id: created.body.id, name: 'ci key', prefix: key.slice(0, 9), createdAt: expect.any(String), lastUsedAt: null, revokedAt: null }]);
    expect(JSON.stringify(list.body)).not.toContain(key);
    const missing = await apiCall(key, 'GET', `/v1/crawl/${randomUUID()}`);
    expect(missing.status).toBe(404);
    const revoked = await admin.call('POST', `/keys/${created.body.id as string}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const after = await apiCall(key, 'GET', `/v1/crawl/${randomUUID()}`);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('This API key has been revoked; create a new one.');
  });

  it('rejects a key name that is empty or blank, with details naming the field', async () => {
    for (const name of ['', '   ']) {
      const res = await admin.call('POST', '/keys', { name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', details: [{ field: 'name', message: name ? 'must not be blank' : 'must NOT have fewer than 1 characters' }] });
      expect((res.body.details as unknown[]).length).toBe(1);
    }
  });
});

describe('playground, jobs, usage and activity', () => {
  let keyId: string;
  let crawlId: string;

  beforeAll(async () => {
    keyId = (await admin.call('POST', '/keys', { name: 'playground' })).body.id as string;
  });

  it('scrapes through the same operation as POST /v1/scrape, and the page counts in usage and the activity log', async () => {
    const res = await admin.call('POST', '/playground/scrape', { apiKeyId: keyId, request: { url: `${site.url}/article`, formats: ['markdown'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { markdown: expect.stringContaining('# Growing tomatoes'), metadata: { title: 'Gardening Notes', statusCode: 200 } } });
    const bad = await admin.call('POST', '/playground/scrape', { apiKeyId: keyId, request: { url: `${site.url}/article`, formats: ['nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', details: [{ field: 'formats[0]' }] });
    const usage = await admin.call('GET', '/usage');
    const days = usage.body.days as { day: string; pages: number }[];
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), pages: 1 });
    expect(days.slice(0, -1).every((d) => d.pages === 0)).toBe(true);
    const scrapes = (r: { body: Record<string, unknown> }) => (r.body.entries as { path: string }[]).filter((e) => e.path === '/v1/scrape');
    const activity = await pollUntil(() => admin.call('GET', '/activity'), (r) => scrapes(r).length === 2, 'activity log rows', 20_000);
    expect(scrapes(activity)).toEqual([
      { at: expect.any(String), method: 'POST', path: '/v1/scrape', status: 400, durationMs: expect.any(Number), credits: 0, keyPrefix: expect.stringMatching(/^pw_/) },
      { at: expect.any(String), method: 'POST', path: '/v1/scrape', status: 200, durationMs: expect.any(Number), credits: 1, keyPrefix: expect.stringMatching(/^pw_/) },
    ]);
  });

  it('starts a crawl, lists it with progress, shows its detail, documents and Temporal link', async () => {
    const res = await admin.call('POST', '/playground/crawl', { apiKeyId: keyId, request: { url: `${site.url}/article`, limit: 1 } });
    expect(res.status).toBe(200);
    crawlId = res.body.id as string;
    const done = await pollUntil(() => admin.call('GET', `/jobs/${crawlId}`), (r) => (r.body.job as { status: string }).status === 'completed', 'crawl completes');
    expect(done.body.job).toMatchObject({ id: crawlId, kind: 'crawl', url: `${site.url}/article`, status: 'completed', total: 1, completed: 1, failed: 0, creditsUsed: 1, errors: [], robotsBlocked: [], temporalUrl: `http://127.0.0.1:8233/namespaces/default/workflows/crawl-${crawlId}` });
    const list = await admin.call('GET', '/jobs?kind=crawl');
    expect((list.body.jobs as { id: string }[]).map((j) => j.id)).toEqual([crawlId]);
    const docs = await admin.call('GET', `/jobs/${crawlId}/documents`);
    expect(docs.body.total).toBe(1);
    expect(docs.body.documents).toEqual([expect.objectContaining({ url: `${site.url}/article`, statusCode: 200, title: 'Gardening Notes', description: 'How to grow tomatoes on a balcony.', markdown: expect.stringContaining('# Growing tomatoes') })]);
    const usage = await admin.call('GET', '/usage');
    expect((usage.body.days as { pages: number }[]).at(-1)!.pages).toBe(2);
  });

  it('cancels a running crawl', async () => {
    const started = await admin.call('POST', '/playground/crawl', { apiKeyId: keyId, request: { url: `${site.url}/slow`, limit: 5 } });
    const res = await admin.call('POST', `/jobs/${started.body.id as string}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ id: started.body.id, status: 'cancelled' });
  });

  describe('another account', () => {
    let stranger: DashboardClient;
    let monitorId: string;

    beforeAll(async () => {
      monitorId = ((await admin.call('POST', '/monitors', { name: 'prices', apiKeyId: keyId, schedule: { text: 'every 1 hour' }, urls: [`${site.url}/article`] })).body.monitor as { id: string }).id;
      stranger = await signIn(stack.api.url, (await newAccount(stack.api.deps.prisma)).email);
    });

    it('sees none of it in lists', async () => {
      expect((await stranger.call('GET', '/jobs')).body).toEqual({ jobs: [] });
      expect((await stranger.call('GET', '/keys')).body).toEqual({ keys: [] });
      expect((await stranger.call('GET', '/monitors')).body).toEqual({ monitors: [] });
      expect((await stranger.call('GET', '/activity')).body).toEqual({ entries: [] });
      expect(((await stranger.call('GET', '/usage')).body.days as { pages: number }[]).every((d) => d.pages === 0)).toBe(true);
      expect(((await stranger.call('GET', '/team')).body.members as unknown[]).length).toBe(1);
    });

    it('gets 404 from every endpoint that names the other account’s things', async () => {
      const adminId = (admin.session.user as { id: string }).id;
      const attempts: [string, string, unknown?][] = [
        ['GET', `/jobs/${crawlId}`],
        ['GET', `/jobs/${crawlId}/documents`],
        ['POST', `/jobs/${crawlId}/cancel`, {}],
        ['POST', `/keys/${keyId}/revoke`, {}],
        ['POST', '/playground/scrape', { apiKeyId: keyId, request: { url: `${site.url}/article` } }],
        ['POST', '/monitors', { name: 'x', apiKeyId: keyId, schedule: { text: 'every 1 hour' }, urls: [`${site.url}/article`] }],
        ['POST', `/monitors/${monitorId}/pause`, {}],
        ['POST', `/monitors/${monitorId}/resume`, {}],
        ['POST', `/monitors/${monitorId}/run`, {}],
        ['GET', `/monitors/${monitorId}/checks`],
        ['DELETE', `/monitors/${monitorId}`],
        ['POST', `/team/members/${adminId}/role`, { role: 'member' }],
        ['DELETE', `/team/members/${adminId}`],
      ];
      for (const [method, path, body] of attempts) {
        const res = await stranger.call(method, path, body);
        expect([res.status, method, path]).toEqual([404, method, path]);
      }
      expect((await admin.call('GET', `/monitors/${monitorId}/checks`)).status).toBe(200);
    });
  });
});

describe('team', () => {
  it('an admin invites with a link that works once; the newcomer is a member who cannot change the team', async () => {
    const invite = await admin.call('POST', '/team/invites', { role: 'member' });
    expect(invite.status).toBe(201);
    const token = /\/dashboard\/invite\/([A-Za-z0-9_-]+)$/.exec(invite.body.url as string)![1]!;
    expect((await admin.call('GET', '/team')).body.invites).toEqual([{ id: invite.body.id, role: 'member', createdAt: expect.any(String), expiresAt: expect.any(String) }]);
    const email = `joiner-${randomUUID().slice(0, 8)}@example.test`;
    const joined = await request(stack.api.url, 'POST', '/invites/accept', { body: { token, email, password: TEST_PASSWORD } });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ user: { email, role: 'member' }, account: (admin.session as { account: unknown }).account });
    const twice = await request(stack.api.url, 'POST', '/invites/accept', { body: { token, email: `other-${email}`, password: TEST_PASSWORD } });
    expect(twice.status).toBe(404);
    const member = await signIn(stack.api.url, email);
    for (const [method, path, body] of [['POST', '/team/invites', { role: 'admin' }], ['POST', `/team/members/${(admin.session.user as { id: string }).id}/role`, { role: 'member' }]] as const) {
      const res = await member.call(method, path, body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden' });
    }
    expect(((await member.call('GET', '/team')).body.members as { email: string }[]).map((m) => m.email)).toEqual([adminEmail, email]);
    const promoted = await admin.call('POST', `/team/members/${(joined.body.user as { id: string }).id}/role`, { role: 'admin' });
    expect(promoted.body.member).toMatchObject({ email, role: 'admin' });
  });

  it("an invite used with an address that already has a user names no account, and is used up all the same", async () => {
    const elsewhere = await newAccount(stack.api.deps.prisma);
    const invite = await admin.call('POST', '/team/invites', { role: 'member' });
    const token = /\/dashboard\/invite\/([A-Za-z0-9_-]+)$/.exec(invite.body.url as string)![1]!;
    const taken = await request(stack.api.url, 'POST', '/invites/accept', { body: { token, email: elsewhere.email, password: TEST_PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ success: false, code: 'conflict', error: 'This invite cannot be accepted with that e-mail address, and the link is now used up. Ask the admin for a new invite, and use another address.' });
    const retried = await request(stack.api.url, 'POST', '/invites/accept', { body: { token, email: `fresh-${randomUUID().slice(0, 8)}@example.test`, password: TEST_PASSWORD } });
    expect(retried.status).toBe(404);
    expect(await stack.api.deps.prisma.user.count({ where: { email: elsewhere.email } })).toBe(1);
  });

  it('keeps at least one admin', async () => {
    const { email } = await newAccount(stack.api.deps.prisma);
    const solo = await signIn(stack.api.url, email);
    const res = await solo.call('POST', `/team/members/${(solo.session.user as { id: string }).id}/role`, { role: 'member' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('An account needs at least one admin: make someone else admin first.');
  });
});

describe('sign-in rate limit', () => {
  /** A source address of its own (loopback is 127/8), so per-address counts are this test's alone. */
  const fromAddress = () => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

  it('slows guesses per client address, and sooner per address and e-mail, without locking the owner out from elsewhere', async () => {
    const limited = await startTestApi({ env: { SIGN_IN_RATE_LIMIT_PER_MIN: '4' } });
    const [a, b] = [fromAddress(), fromAddress()];
    try {
      const { email } = await newAccount(stack.api.deps.prisma);
      const attempt = async (from: string, who: string, password = 'wrong password') => request(limited.url, 'POST', '/sign-in', { body: { email: who, password }, localAddress: from });
      // Half of 4 for one address and one e-mail: the third guess is refused.
      expect([(await attempt(a, email)).status, (await attempt(a, email)).status]).toEqual([401, 401]);
      const byPair = await attempt(a, email, TEST_PASSWORD);
      expect(byPair.status).toBe(429);
      expect(byPair.body).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('per client address and e-mail address') });
      expect(Number(byPair.headers.get('retry-after'))).toBeGreaterThan(0);
      // The owner, from another address, signs in at once.
      expect((await attempt(b, email, TEST_PASSWORD)).status).toBe(200);
      // The guessing address has had its four: refused for any other e-mail too.
      expect((await attempt(a, `other-${email}`)).status).toBe(401);
      const byAddress = await attempt(a, `third-${email}`);
      expect(byAddress.status).toBe(429);
      expect(byAddress.body.error).toEqual(expect.stringContaining('per client address'));
    } finally {
      await limited.close();
    }
  });

  it('reads the client address from X-Forwarded-For only with TRUST_PROXY', async () => {
    const [trusting, plain] = await Promise.all([
      startTestApi({ env: { SIGN_IN_RATE_LIMIT_PER_MIN: '2', TRUST_PROXY: '1' } }),
      startTestApi({ env: { SIGN_IN_RATE_LIMIT_PER_MIN: '2' } }),
    ]);
    try {
      const from = fromAddress();
      const attempt = (api: TestApi, forwardedFor: string) => request(api.url, 'POST', '/sign-in', { body: { email: `nobody-${randomUUID()}@example.test`, password: 'x' }, localAddress: from, forwardedFor });
      // Behind one proxy: three clients, three buckets, all served.
      const clients = [fromAddress(), fromAddress(), fromAddress()].map((address) => address.replace(/^127\./, '198.'));
      expect(await Promise.all(clients.map(async (c) => (await attempt(trusting, c)).status))).toEqual([401, 401, 401]);
      // Without TRUST_PROXY the header is anyone's to write: one socket address, one bucket.
      const statuses = [];
      for (const c of clients) statuses.push((await attempt(plain, c)).status);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await Promise.all([trusting.close(), plain.close()]);
    }
  });
});
