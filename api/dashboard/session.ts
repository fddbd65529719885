/**
 * Dashboard sessions (spec: "dashboard sessions use cookies issued with sameSite: none and
 * secure: true", behind AUTH_SECRET and AUTH_URL). The cookie holds a random token and its
 * HMAC-SHA256 under AUTH_SECRET; PostgreSQL holds only the token's SHA-256, so a session can be
 * ended everywhere (sign-out, password change) and a database reader cannot replay one.
 *
 * Cookie flags: `HttpOnly; Secure; SameSite=None` with the `__Host-` prefix in production or
 * whenever AUTH_URL is https. Development mode (NODE_ENV other than production and an http AUTH_URL)
 * drops Secure, which browsers require for SameSite=None, and uses SameSite=Lax instead, so the
 * dashboard works over plain http on loopback.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequiredFor } from '../../core/config.js';
import { SignedOutError } from '../../core/errors.js';
import type { PrismaClient, UserRole } from '../../prisma/client.js';
import { sha256 } from '../accounts-store.js';
import type { AppContext } from '../route.js';

export interface DashboardSession {
  id: string;
  csrfToken: string;
  user: { id: string; email: string; role: UserRole; accountId: string };
  account: { id: string; name: string };
}

type Config = RequiredFor<'api'>;

export function secureCookies(config: Config): boolean {
  return config.NODE_ENV === 'production' || config.AUTH_URL.startsWith('https:');
}

export const cookieName = (config: Config) => (secureCookies(config) ? '__Host-pw_session' : 'pw_session');

/** `<value>.<HMAC-SHA256 of value under secret>`: cookie values the browser cannot forge. */
export const signValue = (secret: string, value: string) => `${value}.${createHmac('sha256', secret).update(value).digest('base64url')}`;

/** The value inside a signed cookie value, if its signature holds. */
export function unsign(secret: string, signed: string | undefined): string | undefined {
  const dot = signed?.lastIndexOf('.') ?? -1;
  if (!signed || dot <= 0) return undefined;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed);
  const expected = Buffer.from(signValue(secret, value));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
}

function setCookie(ctx: AppContext, value: string, maxAgeMs: number): void {
  const { config } = ctx.state.deps;
  const secure = secureCookies(config);
  // koa's cookies refuse `secure` on a plain-http request; behind a TLS-terminating proxy the request is http.
  (ctx.cookies as unknown as { secure: boolean }).secure = secure;
  ctx.cookies.set(cookieName(config), value, {
    httpOnly: true,
    secure,
    sameSite: secure ? 'none' : 'lax',
    path: '/',
    maxAge: maxAgeMs,
    overwrite: true,
    signed: false,
  });
}

/** Start a session for the user (rotation: any session the request carried ends), set the cookie, return the token. */
export async function startSession(ctx: AppContext, userId: string): Promise<string> {
  const { prisma, config } = ctx.state.deps;
  const old = unsign(config.AUTH_SECRET, ctx.cookies.get(cookieName(config)));
  if (old) await prisma.session.deleteMany({ where: { id: sha256(old) } });
  const token = randomBytes(32).toString('base64url');
  const ttlMs = config.DASHBOARD_SESSION_TTL_HOURS * 3_600_000;
  await prisma.session.create({ data: { id: sha256(token), userId, csrfToken: randomBytes(24).toString('base64url'), expiresAt: new Date(Date.now() + ttlMs) } });
  setCookie(ctx, signValue(config.AUTH_SECRET, token), ttlMs);
  return token;
}

export async function endSession(ctx: AppContext): Promise<void> {
  const { prisma, config } = ctx.state.deps;
  const token = unsign(config.AUTH_SECRET, ctx.cookies.get(cookieName(config)));
  if (token) await prisma.session.deleteMany({ where: { id: sha256(token) } });
  setCookie(ctx, '', 0);
}

export async function findSession(prisma: PrismaClient, secret: string, cookie: string | undefined): Promise<DashboardSession | undefined> {
  const token = unsign(secret, cookie);
  return token ? findSessionByToken(prisma, token) : undefined;
}

export async function findSessionByToken(prisma: PrismaClient, token: string): Promise<DashboardSession | undefined> {
  const row = await prisma.session.findUnique({
    where: { id: sha256(token) },
    select: { id: true, csrfToken: true, expiresAt: true, user: { select: { id: true, email: true, role: true, accountId: true, account: { select: { id: true, name: true } } } } },
  });
  if (!row || row.expiresAt <= new Date()) return undefined;
  const { account, ...user } = row.user;
  return { id: row.id, csrfToken: row.csrfToken, user: { ...user, role: user.role as UserRole }, account };
}

export async function requireSession(ctx: AppContext): Promise<DashboardSession> {
  const { prisma, config } = ctx.state.deps;
  const session = await findSession(prisma, config.AUTH_SECRET, ctx.cookies.get(cookieName(config)));
  if (!session) throw new SignedOutError();
  return session;
}
