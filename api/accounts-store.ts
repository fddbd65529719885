/**
 * Accounts, users and invites in PostgreSQL: the operations the dashboard, `npm run users` and
 * `./scripts/stack up` share. Passwords are hashed with argon2id (@node-rs/argon2: a maintained
 * binding with prebuilt binaries, nothing to compile); invite tokens are stored as SHA-256 only.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { ConflictError, invalidBody, NotFoundError } from '../core/errors.js';
import { Prisma, type PrismaClient, type UserRole } from '../prisma/client.js';
import { DEFAULT_ACCOUNT_ID } from './keys-store.js';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane). `algorithm: 2` is the library's const enum Algorithm.Argon2id. */
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2);

/** A hash to verify against when the e-mail is unknown, so both answers take the same time. */
let decoy: Promise<string> | undefined;

export async function checkPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  const target = stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
  const ok = await verify(target, password).catch(() => false);
  return ok && !!stored;
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

export const normalEmail = (email: string) => email.trim().toLowerCase();

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface Member {
  id: string;
  email: string;
  role: UserRole;
  accountId: string;
  createdAt: Date;
}

const memberFields = { id: true, email: true, role: true, accountId: true, createdAt: true } as const;

function checkPassword400(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw invalidBody([{ field: 'password', message: problem }]);
}

/** A new user in an existing account; 409 when the e-mail is taken. */
export async function createUser(prisma: PrismaClient, input: { accountId?: string; email: string; password?: string; role: UserRole; oidcSubject?: string }): Promise<Member> {
  if (input.password !== undefined) checkPassword400(input.password);
  const email = normalEmail(input.email);
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) throw new ConflictError(`A user with the e-mail ${email} already exists.`);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const row = await prisma.user.create({
    data: { id: randomUUID(), accountId: input.accountId ?? DEFAULT_ACCOUNT_ID, email, passwordHash, role: input.role, oidcSubject: input.oidcSubject ?? null },
    select: memberFields,
  });
  return row as Member;
}

/** Sign-up: a new account with its first admin. */
export async function createAccountWithAdmin(prisma: PrismaClient, input: { accountName: string; email: string; password: string }): Promise<Member> {
  checkPassword400(input.password);
  const accountId = randomUUID();
  await prisma.account.create({ data: { id: accountId, name: input.accountName.trim() } });
  try {
    return await createUser(prisma, { accountId, email: input.email, password: input.password, role: 'admin' });
  } catch (err) {
    await prisma.account.delete({ where: { id: accountId } });
    throw err;
  }
}

/** New password; every session of the user ends. Returns false when there is no such user. */
export async function setPassword(prisma: PrismaClient, email: string, password: string): Promise<boolean> {
  checkPassword400(password);
  const user = await prisma.user.findUnique({ where: { email: normalEmail(email) }, select: { id: true } });
  if (!user) return false;
  const passwordHash = await hashPassword(password);
  await prisma.$transaction([prisma.user.update({ where: { id: user.id }, data: { passwordHash } }), prisma.session.deleteMany({ where: { userId: user.id } })]);
  return true;
}

export async function listMembers(prisma: PrismaClient, accountId: string): Promise<Member[]> {
  return (await prisma.user.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' }, select: memberFields })) as Member[];
}

async function memberOf(prisma: PrismaClient, accountId: string, userId: string): Promise<Member> {
  const row = await prisma.user.findFirst({ where: { id: userId, accountId }, select: memberFields });
  if (!row) throw new NotFoundError(`No member with id ${userId} in this account.`);
  return row as Member;
}

/** An account keeps at least one admin. */
async function keepAnAdmin(prisma: PrismaClient, accountId: string, leaving: string): Promise<void> {
  const others = await prisma.user.count({ where: { accountId, role: 'admin', id: { not: leaving } } });
  if (others === 0) throw new ConflictError('An account needs at least one admin: make someone else admin first.');
}

export async function setRole(prisma: PrismaClient, accountId: string, userId: string, role: UserRole): Promise<Member> {
  const member = await memberOf(prisma, accountId, userId);
  if (member.role === 'admin' && role !== 'admin') await keepAnAdmin(prisma, accountId, userId);
  return (await prisma.user.update({ where: { id: userId }, data: { role }, select: memberFields })) as Member;
}

/** Removes the user, and remembers them so that OpenID Connect does not let them back in (until re-invited). */
export async function removeMember(prisma: PrismaClient, accountId: string, userId: string): Promise<void> {
  const member = await memberOf(prisma, accountId, userId);
  if (member.role === 'admin') await keepAnAdmin(prisma, accountId, userId);
  const { email, oidcSubject } = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, oidcSubject: true } });
  await prisma.$transaction([
    prisma.removedMember.create({ data: { id: randomUUID(), accountId, email, oidcSubject } }),
    prisma.user.delete({ where: { id: userId } }),
  ]);
}

/** Whether the person was removed from an account and not invited back since. */
export async function wasRemoved(prisma: PrismaClient, email: string, oidcSubject: string): Promise<boolean> {
  return (await prisma.removedMember.count({ where: { OR: [{ email }, { oidcSubject }] } })) > 0;
}

export async function createInvite(prisma: PrismaClient, accountId: string, role: UserRole, createdBy: string, ttlHours: number): Promise<{ id: string; token: string }> {
  const token = randomBytes(24).toString('base64url');
  const id = randomUUID();
  await prisma.invite.create({ data: { id, accountId, role, createdBy, tokenHash: sha256(token), expiresAt: new Date(Date.now() + ttlHours * 3_600_000) } });
  return { id, token };
}

export async function listInvites(prisma: PrismaClient, accountId: string) {
  return prisma.invite.findMany({
    where: { accountId, acceptedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, role: true, createdAt: true, expiresAt: true },
  });
}

export async function revokeInvite(prisma: PrismaClient, accountId: string, id: string): Promise<void> {
  const { count } = await prisma.invite.deleteMany({ where: { id, accountId, acceptedAt: null } });
  if (count === 0) throw new NotFoundError(`No open invite with id ${id}.`);
}

/** Join the invite's account; the invite works once. */
/**
 * Accepting an invite uses it up, whatever follows: a link cannot be replayed to try address after
 * address. An address that already has a user (in any account) gets an answer that names no
 * account and no user; rate limits (sign-in's) bound how fast anyone can probe.
 */
export async function acceptInvite(prisma: PrismaClient, token: string, email: string, password: string): Promise<Member> {
  checkPassword400(password);
  const now = new Date();
  const { count } = await prisma.invite.updateMany({ where: { tokenHash: sha256(token), acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
  if (count === 0) throw new NotFoundError('This invite link is not valid: it was used, revoked or has expired. Ask for a new one.');
  const invite = await prisma.invite.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
  try {
    const member = await createUser(prisma, { accountId: invite.accountId, email, password, role: invite.role as UserRole });
    // Invited back: a removal no longer keeps them out.
    await prisma.removedMember.deleteMany({ where: { email: member.email } });
    return member;
  } catch (err) {
    if (!(err instanceof ConflictError) && !(err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002')) throw err;
    throw new ConflictError('This invite cannot be accepted with that e-mail address, and the link is now used up. Ask the admin for a new invite, and use another address.');
  }
}
