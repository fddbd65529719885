/**
 * API keys in PostgreSQL: create (the only moment the plaintext exists), find by hash, list, revoke.
 * Each key belongs to an account (`default` unless one is named). Used by the auth middleware, the
 * dashboard and the operators' `npm run keys` command.
 */
import { randomUUID } from 'node:crypto';
import { displayPrefix, generateApiKey, hashApiKey } from '../core/api-keys.js';
import type { PrismaClient } from '../prisma/client.js';

export interface KeyListing {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Refresh last_used_at at most this often per key, so authentication stays one indexed read. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The account keys made before accounts existed belong to (created by the accounts migration). */
export const DEFAULT_ACCOUNT_ID = 'default';

export async function createKey(prisma: PrismaClient, name: string, pepper: string, accountId = DEFAULT_ACCOUNT_ID): Promise<{ id: string; key: string; prefix: string }> {
  const key = generateApiKey();
  const id = randomUUID();
  const prefix = displayPrefix(key);
  await prisma.apiKey.create({ data: { id, accountId, name, prefix, hash: hashApiKey(key, pepper) } });
  return { id, key, prefix };
}

export async function findActiveKey(prisma: PrismaClient, key: string, pepper: string): Promise<{ id: string; accountId: string } | 'revoked' | undefined> {
  const row = await prisma.apiKey.findUnique({ where: { hash: hashApiKey(key, pepper) }, select: { id: true, accountId: true, revokedAt: true, lastUsedAt: true } });
  if (!row) return undefined;
  if (row.revokedAt) return 'revoked';
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Bookkeeping only: a failure here must not fail the request.
    prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  }
  return { id: row.id, accountId: row.accountId };
}

/** Every key, or one account's. */
export async function listKeys(prisma: PrismaClient, accountId?: string): Promise<KeyListing[]> {
  return prisma.apiKey.findMany({
    where: accountId ? { accountId } : {},
    orderBy: { createdAt: 'asc' },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Revoke by id or by displayed prefix (within one account when given); returns how many keys were revoked. */
export async function revokeKey(prisma: PrismaClient, idOrPrefix: string, accountId?: string): Promise<number> {
  const result = await prisma.apiKey.updateMany({
    where: { revokedAt: null, OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], ...(accountId ? { accountId } : {}) },
    data: { revokedAt: new Date() },
  });
  return result.count;
}

export async function countActiveKeys(prisma: PrismaClient): Promise<number> {
  return prisma.apiKey.count({ where: { revokedAt: null } });
}
