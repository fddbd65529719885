/**
 * The one way the service opens its database: Prisma's generated client (prisma/generated, made by
 * `npx tsx scripts/prisma-generate.ts`) over the node-postgres driver adapter. Import database types
 * from here, not from prisma/generated.
 */
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/client.js';

export { Prisma, PrismaClient };
export type { Account, ApiKey, Job, JobUrl, Document, Monitor, MonitorCheck, MonitorCheckPage } from './generated/client.js';

const pools = new WeakMap<PrismaClient, pg.Pool>();

/** One PrismaClient per process: it owns a pg pool (node-postgres defaults, 10 connections), ended by `$disconnect()` on shutdown. */
export function createPrisma(databaseUrl: string): PrismaClient {
  // A frozen or unreachable server must fail a request (→ 503), not hold it forever.
  const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  // An idle connection the server closed (a restart) leaves the pool, and the next query opens another;
  // without a listener its 'error' event would end the process before Prisma's own listener is attached.
  pool.on('error', () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  // The pool is ours, so ours to end: Prisma's adapter would end it only if Prisma itself had connected,
  // and a process that ran nothing but rawRows would keep its idle connections open.
  const disconnect = prisma.$disconnect.bind(prisma);
  prisma.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  pools.set(prisma, pool);
  return prisma;
}

/**
 * A raw statement run by node-postgres on the client's own pool, past Prisma's query interpreter:
 * for the hot statements (a crawl lane's claims and batch stores, a scrape's document), which Prisma
 * takes 2-4 times the CPU to send (bench:frontier, README "How far one PostgreSQL frontier goes").
 * The statement is written as for `$queryRaw`; rows come as node-postgres reads them (bigint as a
 * string, jsonb parsed, timestamptz as a Date) and errors are node-postgres's, not Prisma's.
 *
 * `prepared`: sent as a named prepared statement (named by its text), parsed and planned once per
 * connection instead of on every call; for statements whose text does not vary with their values.
 */
export async function rawRows<T extends object>(prisma: PrismaClient, statement: Prisma.Sql, options: { prepared?: boolean } = {}): Promise<T[]> {
  const pool = pools.get(prisma);
  if (!pool) throw new Error('rawRows needs a client made by createPrisma');
  const name = options.prepared ? `pw_${createHash('sha1').update(statement.text).digest('hex').slice(0, 20)}` : undefined;
  return (await pool.query<T>({ text: statement.text, values: statement.values, ...(name ? { name } : {}) })).rows;
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
