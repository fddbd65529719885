import { hostname } from 'node:os';
import type { ActivityDeps } from './deps.js';

export function healthActivities({ prisma }: Pick<ActivityDeps, 'prisma'>) {
  return {
    /** Proves this worker can reach PostgreSQL; returns who answered (Temporal's default identity form) and the database clock. */
    async workerHealth(): Promise<{ worker: string; databaseTime: string }> {
      const rows = await prisma.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
      return { worker: `${process.pid}@${hostname()}`, databaseTime: rows[0]!.now.toISOString() };
    },
  };
}
