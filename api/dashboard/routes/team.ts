/** Members, roles and invites. Everyone sees the team; only admins change it. */
import { createInvite, listInvites, listMembers, removeMember, revokeInvite, setRole } from '../../accounts-store.js';
import { ForbiddenError } from '../../../core/errors.js';
import type { UserRole } from '../../../prisma/client.js';
import { dashboardRoute, idParams } from '../define.js';
import { createdInviteSchema, memberAnswer, roleSchema, teamAnswer } from '../schemas.js';

export const teamRoutes = [
  dashboardRoute({
    method: 'get',
    path: '/team',
    access: 'member',
    response: teamAnswer,
    async handler(ctx, { session }) {
      const { prisma } = ctx.state.deps;
      const [members, invites] = await Promise.all([listMembers(prisma, session.account.id), session.user.role === 'admin' ? listInvites(prisma, session.account.id) : []]);
      return {
        members: members.map((m) => ({ id: m.id, email: m.email, role: m.role, createdAt: m.createdAt.toISOString() })),
        // invite.role is text; its CHECK constraint holds it to userRoles (prisma/client.ts).
        invites: invites.map((i) => ({ id: i.id, role: i.role as UserRole, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() })),
      };
    },
  }),
  dashboardRoute({
    method: 'post',
    path: '/team/invites',
    access: 'admin',
    status: 201,
    body: { type: 'object', additionalProperties: false, required: ['role'], properties: { role: roleSchema } },
    response: createdInviteSchema,
    async handler(ctx, { body, session }) {
      const { prisma, config } = ctx.state.deps;
      const { id, token } = await createInvite(prisma, session.account.id, body.role, session.user.id, config.DASHBOARD_INVITE_TTL_HOURS);
      return { id, url: `${config.AUTH_URL.replace(/\/+$/, '')}/dashboard/invite/${token}` };
    },
  }),
  dashboardRoute({
    method: 'delete',
    path: '/team/invites/:id',
    access: 'admin',
    params: idParams,
    async handler(ctx, { params, session }) {
      await revokeInvite(ctx.state.deps.prisma, session.account.id, params.id);
      return undefined;
    },
  }),
  dashboardRoute({
    method: 'post',
    path: '/team/members/:id/role',
    access: 'admin',
    params: idParams,
    body: { type: 'object', additionalProperties: false, required: ['role'], properties: { role: roleSchema } },
    response: memberAnswer,
    async handler(ctx, { params, body, session }) {
      const m = await setRole(ctx.state.deps.prisma, session.account.id, params.id, body.role);
      return { member: { id: m.id, email: m.email, role: m.role, createdAt: m.createdAt.toISOString() } };
    },
  }),
  dashboardRoute({
    method: 'delete',
    path: '/team/members/:id',
    access: 'admin',
    params: idParams,
    async handler(ctx, { params, session }) {
      if (params.id === session.user.id) throw new ForbiddenError('You cannot remove yourself: ask another admin.');
      await removeMember(ctx.state.deps.prisma, session.account.id, params.id);
      return undefined;
    },
  }),
];
