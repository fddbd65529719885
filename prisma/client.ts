/**
 * The one way the service opens its database: Prisma's generated client (prisma/generated, made by
 * `npx tsx scripts/prisma-generate.ts`) over the node-postgres driver adapter. Import database types
 * from here, not from prisma/generated.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/client.js';

export { Prisma, PrismaClient };
export type { Account, ApiKey, Job, JobUrl, Document, Monitor, MonitorCheck, MonitorCheckPage } from './generated/client.js';

/** One PrismaClient per process: it owns a pg pool (node-postgres defaults, 10 connections). Call `$disconnect()` on shutdown. */
export function createPrisma(databaseUrl: string): PrismaClient {
  // A frozen or unreachable server must fail a request (→ 503), not hold it forever.
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 }) });
}

// Status columns are text guarded by CHECK constraints in prisma/migrations; keep these lists in step
// (`job.status` and `job.kind`: jobStatuses and jobKinds in core/job-contracts.ts).

/** app_user.role and invite.role. */
export const userRoles = ['admin', 'member'] as const;
export type UserRole = (typeof userRoles)[number];

/** `job_url.status`: queued → claimed (leased by a page activity) → done | failed; dropped when cancelled. */
export const jobUrlStatuses = ['queued', 'claimed', 'done', 'failed', 'dropped'] as const;
export type JobUrlStatus = (typeof jobUrlStatuses)[number];

/** True for a unique-constraint violation (Prisma's P2002), e.g. a page stored twice for one crawl. */
export function isUniqueViolation(err: unknown): err is Prisma.PrismaClientKnownRequestError {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
