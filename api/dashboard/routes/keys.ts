/** API keys of the signed-in account: list, create (the full key is in this one answer), revoke. */
import { invalidBody, NotFoundError } from '../../../core/errors.js';
import { createKey, listKeys, revokeKey } from '../../keys-store.js';
import type { AppContext } from '../../route.js';
import { dashboardRoute, emptyBody, idParams } from '../define.js';
import { createdKeySchema, keysAnswer, revokedKeySchema } from '../schemas.js';
import type { DashboardSession } from '../session.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** An active key of the session's account, for work started from the dashboard; 404 otherwise. */
export async function ownActiveKey(ctx: AppContext, session: DashboardSession, apiKeyId: string): Promise<string> {
  const key = await ctx.state.deps.prisma.apiKey.findFirst({ where: { id: apiKeyId, accountId: session.account.id, revokedAt: null }, select: { id: true } });
  if (!key) throw new NotFoundError('No active API key with that id in this account: create one on the API keys page.');
  return key.id;
}

export const keyRoutes = [
  dashboardRoute({
    method: 'get',
    path: '/keys',
    access: 'member',
    response: keysAnswer,
    async handler(ctx, { session }) {
      const keys = await listKeys(ctx.state.deps.prisma, session.account.id);
      return { keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt.toISOString(), lastUsedAt: iso(k.lastUsedAt), revokedAt: iso(k.revokedAt) })) };
    },
  }),
  dashboardRoute({
    method: 'post',
    path: '/keys',
    access: 'member',
    status: 201,
    body: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 100 } } },
    response: createdKeySchema,
    async handler(ctx, { body, session }) {
      const { prisma, config } = ctx.state.deps;
      const name = body.name.trim();
      if (!name) throw invalidBody([{ field: 'name', message: 'must not be blank' }]);
      const { id, key, prefix } = await createKey(prisma, name, config.API_KEY_PEPPER, session.account.id);
      return { id, name, prefix, key };
    },
  }),
  dashboardRoute({
    method: 'post',
    path: '/keys/:id/revoke',
    access: 'member',
    params: idParams,
    body: emptyBody,
    response: revokedKeySchema,
    async handler(ctx, { params, session }) {
      const { prisma } = ctx.state.deps;
      const key = await prisma.apiKey.findFirst({ where: { id: params.id, accountId: session.account.id }, select: { id: true, revokedAt: true } });
      if (!key) throw new NotFoundError(`No API key with id ${params.id} in this account.`);
      if (!key.revokedAt) await revokeKey(prisma, key.id, session.account.id);
      const after = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { revokedAt: true } });
      return { id: key.id, revokedAt: iso(after.revokedAt) };
    },
  }),
];
