/**
 * The account's webhook signing secret (core/webhook-signature.ts). Everyone sees when it last
 * changed; admins reveal it (it is derived, never stored) or rotate it, after which deliveries are
 * signed with the new one only.
 */
import { accountWebhookSecret } from '../../../core/webhook-signature.js';
import type { AppContext } from '../../route.js';
import { dashboardRoute, emptyBody } from '../define.js';
import { webhookSecretSchema, webhookSecretStateSchema } from '../schemas.js';

async function current(ctx: AppContext, accountId: string) {
  const row = await ctx.state.deps.prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { webhookSecretVersion: true, webhookSecretRotatedAt: true } });
  return { version: row.webhookSecretVersion, rotatedAt: row.webhookSecretRotatedAt?.toISOString() ?? null };
}

const withSecret = (ctx: AppContext, accountId: string, state: { version: number; rotatedAt: string | null }) => ({
  ...state,
  secret: accountWebhookSecret(ctx.state.deps.config.WEBHOOK_SIGNING_SECRET, accountId, state.version),
});

export const webhookSecretRoutes = [
  dashboardRoute({
    method: 'get',
    path: '/webhook-secret',
    access: 'member',
    response: webhookSecretStateSchema,
    handler: (ctx, { session }) => current(ctx, session.account.id),
  }),
  dashboardRoute({
    method: 'post',
    path: '/webhook-secret/reveal',
    access: 'admin',
    body: emptyBody,
    response: webhookSecretSchema,
    handler: async (ctx, { session }) => withSecret(ctx, session.account.id, await current(ctx, session.account.id)),
  }),
  dashboardRoute({
    method: 'post',
    path: '/webhook-secret/rotate',
    access: 'admin',
    body: emptyBody,
    response: webhookSecretSchema,
    async handler(ctx, { session }) {
      const row = await ctx.state.deps.prisma.account.update({
        where: { id: session.account.id },
        data: { webhookSecretVersion: { increment: 1 }, webhookSecretRotatedAt: new Date() },
        select: { webhookSecretVersion: true, webhookSecretRotatedAt: true },
      });
      return withSecret(ctx, session.account.id, { version: row.webhookSecretVersion, rotatedAt: row.webhookSecretRotatedAt!.toISOString() });
    },
  }),
];
