/** Signing in and out, signing up (when open), accepting an invite, and the session object. */
import type { FromSchema } from 'json-schema-to-ts';
import { ApiError, RateLimitedError, SignedOutError } from '../../../core/errors.js';
import { acceptInvite, checkPassword, createAccountWithAdmin, normalEmail } from '../../accounts-store.js';
import { rateLimitLabels, type RateLimiter } from '../../rate-limit.js';
import type { AppContext } from '../../route.js';
import { dashboardRoute, emptyBody } from '../define.js';
import { sessionSchema, signedOutSchema } from '../schemas.js';
import { cookieName, endSession, findSession, findSessionByToken, startSession, type DashboardSession } from '../session.js';
import { oidcEnabled } from './oidc.js';

const email = { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' } as const;
const password = { type: 'string', minLength: 1, maxLength: 200 } as const;

function publicSettings(ctx: AppContext): FromSchema<typeof signedOutSchema> {
  const { config } = ctx.state.deps;
  return { signUpOpen: config.DASHBOARD_SIGNUP, oidc: { enabled: oidcEnabled(config), label: config.OIDC_LABEL } };
}

export function sessionBody(ctx: AppContext, session: DashboardSession) {
  const { config } = ctx.state.deps;
  return {
    user: { id: session.user.id, email: session.user.email, role: session.user.role },
    account: session.account,
    csrfToken: session.csrfToken,
    temporalUiUrl: config.TEMPORAL_UI_URL ?? null,
    ...publicSettings(ctx),
  };
}

/** Start a session for the user and answer with it. */
export async function signedIn(ctx: AppContext, userId: string) {
  const session = await findSessionByToken(ctx.state.deps.prisma, await startSession(ctx, userId));
  if (!session) throw new Error('The session just started cannot be read back');
  return sessionBody(ctx, session);
}

/**
 * Per client address (TRUST_PROXY says which), and per client address and e-mail together at half
 * the rate. Never per e-mail alone: anyone could then lock a known user out.
 */
async function limitSignIn(limiter: RateLimiter, ctx: AppContext, address: string): Promise<void> {
  const ip = ctx.state.clientIp;
  for (const [name, subject, per] of [['signIn', `ip:${ip}`, 'client address'], ['signInAccount', `ip:${ip} email:${address}`, 'client address and e-mail address']] as const) {
    const decision = await limiter.check(name, subject);
    if (decision && !decision.allowed) throw new RateLimitedError(rateLimitLabels[name], decision.limit, decision.retryAfterSeconds, decision.resetSeconds, per);
  }
}

export function authRoutes(limiter: RateLimiter) {
  return [
    dashboardRoute({
      method: 'get',
      path: '/session',
      access: 'public',
      response: sessionSchema,
      async handler(ctx) {
        const { prisma, config } = ctx.state.deps;
        const session = await findSession(prisma, config.AUTH_SECRET, ctx.cookies.get(cookieName(config)));
        if (!session) throw new ApiError(401, 'signed_out', 'Not signed in.', undefined, undefined, publicSettings(ctx));
        return sessionBody(ctx, session);
      },
    }),
    dashboardRoute({
      method: 'post',
      path: '/sign-in',
      access: 'public',
      body: { type: 'object', additionalProperties: false, required: ['email', 'password'], properties: { email, password } },
      response: sessionSchema,
      async handler(ctx, { body }) {
        const address = normalEmail(body.email);
        await limitSignIn(limiter, ctx, address);
        const user = await ctx.state.deps.prisma.user.findUnique({ where: { email: address }, select: { id: true, passwordHash: true } });
        if (!(await checkPassword(user?.passwordHash, body.password)) || !user) throw new SignedOutError('Wrong e-mail or password.');
        return signedIn(ctx, user.id);
      },
    }),
    dashboardRoute({
      method: 'post',
      path: '/sign-up',
      access: 'public',
      status: 201,
      body: { type: 'object', additionalProperties: false, required: ['email', 'password', 'accountName'], properties: { email, password, accountName: { type: 'string', minLength: 1, maxLength: 100 } } },
      response: sessionSchema,
      async handler(ctx, { body }) {
        if (!ctx.state.deps.config.DASHBOARD_SIGNUP) throw new ApiError(403, 'sign_up_closed', 'Sign-up is closed on this server: ask an admin for an invite link.');
        await limitSignIn(limiter, ctx, normalEmail(body.email));
        const user = await createAccountWithAdmin(ctx.state.deps.prisma, body);
        return signedIn(ctx, user.id);
      },
    }),
    dashboardRoute({
      method: 'post',
      path: '/invites/accept',
      access: 'public',
      status: 201,
      body: { type: 'object', additionalProperties: false, required: ['token', 'email', 'password'], properties: { token: { type: 'string', minLength: 1, maxLength: 200 }, email, password } },
      response: sessionSchema,
      async handler(ctx, { body }) {
        await limitSignIn(limiter, ctx, normalEmail(body.email));
        const user = await acceptInvite(ctx.state.deps.prisma, body.token, body.email, body.password);
        return signedIn(ctx, user.id);
      },
    }),
    dashboardRoute({
      method: 'post',
      path: '/sign-out',
      access: 'member',
      body: emptyBody,
      async handler(ctx) {
        await endSession(ctx);
        return undefined;
      },
    }),
  ];
}
