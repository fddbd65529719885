/**
 * Sign-in through any OpenID Connect provider the operator names (OIDC_ISSUER, OIDC_CLIENT_ID,
 * OIDC_CLIENT_SECRET), with openid-client (maintained, certified, no dependencies): authorization
 * code flow with PKCE, state and nonce. Between /oidc/start and /oidc/callback the checks travel in
 * a short-lived cookie signed with AUTH_SECRET. A person the provider vouches for is matched by
 * `<issuer> <sub>`, then by a verified e-mail; a new person joins the account `default` with
 * OIDC_DEFAULT_ROLE (the operator chose to trust that provider).
 */
import { randomUUID } from 'node:crypto';
import type { Router } from '@koa/router';
import * as oidc from 'openid-client';
import type { RequiredFor } from '../../../core/config.js';
import { ApiError } from '../../../core/errors.js';
import { normalEmail, wasRemoved } from '../../accounts-store.js';
import { DEFAULT_ACCOUNT_ID } from '../../keys-store.js';
import type { AppContext, AppState } from '../../route.js';
import { secureCookies, signValue, startSession, unsign } from '../session.js';

type Config = RequiredFor<'api'>;

export const oidcEnabled = (config: Config) => config.OIDC_ISSUER !== undefined;

const FLOW_COOKIE = 'pw_oidc';
const FLOW_TTL_MS = 10 * 60_000;

let discovered: { issuer: string; config: Promise<oidc.Configuration> } | undefined;

/** Discovery once per process (again after a failure). Plain http only for a loopback issuer (development, tests). */
function providerConfig(config: Config): Promise<oidc.Configuration> {
  const issuer = config.OIDC_ISSUER!;
  if (discovered?.issuer !== issuer) {
    const url = new URL(issuer);
    const loopback = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    const found = oidc.discovery(url, config.OIDC_CLIENT_ID!, config.OIDC_CLIENT_SECRET!, undefined, loopback ? { execute: [oidc.allowInsecureRequests] } : undefined);
    found.catch(() => (discovered = undefined));
    discovered = { issuer, config: found };
  }
  return discovered.config;
}

const redirectUri = (config: Config) => `${config.AUTH_URL.replace(/\/+$/, '')}/dashboard/api/oidc/callback`;

function setFlowCookie(ctx: AppContext, value: string, maxAge: number): void {
  const secure = secureCookies(ctx.state.deps.config);
  (ctx.cookies as unknown as { secure: boolean }).secure = secure;
  // Lax: the provider sends the browser back with a top-level GET, which Lax cookies accompany.
  ctx.cookies.set(FLOW_COOKIE, value, { httpOnly: true, secure, sameSite: 'lax', path: '/dashboard/api/oidc', maxAge, overwrite: true });
}

function readFlow(ctx: AppContext): { state: string; nonce: string; verifier: string } | undefined {
  const payload = unsign(ctx.state.deps.config.AUTH_SECRET, ctx.cookies.get(FLOW_COOKIE));
  if (!payload) return undefined;
  const flow = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { state: string; nonce: string; verifier: string; exp: number };
  return flow.exp > Date.now() ? flow : undefined;
}

/**
 * Who may come in through OpenID Connect without an invite (a person with no user yet): an address
 * the provider verified in OIDC_ALLOWED_DOMAINS, or a group of OIDC_GROUPS_CLAIM in
 * OIDC_ALLOWED_GROUPS. With neither set, nobody: they need an invite.
 */
export function admitted(config: RequiredFor<'api'>, email: string, claims: Record<string, unknown>): boolean {
  const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const domains = list(config.OIDC_ALLOWED_DOMAINS);
  if (claims.email_verified === true && domains.includes(email.slice(email.lastIndexOf('@') + 1))) return true;
  const groups = list(config.OIDC_ALLOWED_GROUPS);
  const claimed = claims[config.OIDC_GROUPS_CLAIM];
  return Array.isArray(claimed) && claimed.some((g) => typeof g === 'string' && groups.includes(g.toLowerCase()));
}

async function userFor(ctx: AppContext, issuer: string, claims: { sub: string; email?: unknown; email_verified?: unknown } & Record<string, unknown>): Promise<string> {
  const { prisma, config } = ctx.state.deps;
  const subject = `${issuer} ${claims.sub}`;
  const known = await prisma.user.findUnique({ where: { oidcSubject: subject }, select: { id: true } });
  if (known) return known.id;
  const email = typeof claims.email === 'string' ? normalEmail(claims.email) : undefined;
  if (!email) throw new ApiError(403, 'oidc_no_email', 'The identity provider did not share an e-mail address: allow the `email` scope for this client.');
  const byEmail = await prisma.user.findUnique({ where: { email }, select: { id: true } });
  if (byEmail) {
    if (claims.email_verified !== true) throw new ApiError(403, 'oidc_unverified_email', `A user with the e-mail ${email} exists, and the identity provider has not verified that address, so they are not linked.`);
    await prisma.user.update({ where: { id: byEmail.id }, data: { oidcSubject: subject } });
    return byEmail.id;
  }
  if (await wasRemoved(prisma, email, subject)) throw new ApiError(403, 'oidc_removed', `${email} was removed from the account: only an invite brings them back.`);
  if (!admitted(config, email, claims)) throw new ApiError(403, 'oidc_not_allowed', `${email} is not in OIDC_ALLOWED_DOMAINS or OIDC_ALLOWED_GROUPS: an invite is needed.`);
  const created = await prisma.user.create({ data: { id: randomUUID(), accountId: DEFAULT_ACCOUNT_ID, email, role: config.OIDC_DEFAULT_ROLE, oidcSubject: subject }, select: { id: true } });
  return created.id;
}

/** The provider sent the browser back: check the answer, find or make the person, start their session. */
async function finishSignIn(c: AppContext): Promise<void> {
  const { config } = c.state.deps;
  if (!oidcEnabled(config)) throw new ApiError(404, 'not_found', 'OpenID Connect sign-in is not configured on this server (OIDC_ISSUER).');
  const flow = readFlow(c);
  if (!flow) throw new ApiError(400, 'oidc_flow_expired', 'The sign-in took too long or started elsewhere: start again from the sign-in page.');
  setFlowCookie(c, '', 0);
  const provider = await providerConfig(config);
  const current = new URL(redirectUri(config));
  current.search = new URL(c.href).search;
  let tokens;
  try {
    tokens = await oidc.authorizationCodeGrant(provider, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
  } catch (err) {
    throw new ApiError(401, 'oidc_failed', `The identity provider's answer was refused: ${(err as Error).message}`);
  }
  const claims = tokens.claims();
  if (!claims) throw new ApiError(401, 'oidc_failed', 'The identity provider returned no ID token.');
  // Many providers put the e-mail in the UserInfo answer only, not in the ID token.
  const person = typeof claims.email === 'string' ? claims : { ...claims, ...(await oidc.fetchUserInfo(provider, tokens.access_token, claims.sub)) };
  await startSession(c, await userFor(c, provider.serverMetadata().issuer, person));
}

export function registerOidc(router: Router<AppState>): void {
  router.get('/oidc/start', async (ctx) => {
    const c = ctx as unknown as AppContext;
    const { config } = c.state.deps;
    if (!oidcEnabled(config)) throw new ApiError(404, 'not_found', 'OpenID Connect sign-in is not configured on this server (OIDC_ISSUER).');
    const provider = await providerConfig(config);
    const flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), exp: Date.now() + FLOW_TTL_MS };
    const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
    setFlowCookie(c, signValue(config.AUTH_SECRET, payload), FLOW_TTL_MS);
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: redirectUri(config),
      scope: config.OIDC_SCOPE,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    ctx.redirect(url.href);
  });

  router.get('/oidc/callback', async (ctx) => {
    const c = ctx as unknown as AppContext;
    try {
      await finishSignIn(c);
      ctx.redirect('/dashboard/keys');
    } catch (err) {
      // A person in a browser: back to the sign-in page with the reason's code, which the page words
      // itself (a link cannot put an attacker's words on it); the details are in the log.
      if (!(err instanceof ApiError)) throw err;
      c.state.deps.log.warn('OpenID Connect sign-in refused', { code: err.code, reason: err.message });
      ctx.redirect(`/dashboard/sign-in?error=${encodeURIComponent(err.code)}`);
    }
  });
}
