/**
 * The activity log behind the dashboard: one row per API request made with a key (route pattern,
 * status, duration, credits), kept ACTIVITY_RETENTION_DAYS (the expire-data Schedule deletes older
 * rows). Rows are buffered and written together at most every FLUSH_MS (or at FLUSH_ROWS), off
 * every request's path: one multi-row insert instead of a write per request (README "Scrape path").
 * A failed write is logged and forgotten; close() writes what is left.
 */
import type { Logger } from '../core/log.js';
import type { Prisma, PrismaClient } from '../prisma/client.js';
import type { AppContext, RouteSpec } from './route.js';

const FLUSH_MS = 500;
const FLUSH_ROWS = 500;

export class ActivityLog {
  private rows: Prisma.RequestLogCreateManyInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly log: Logger,
  ) {}

  add(row: Prisma.RequestLogCreateManyInput): void {
    this.rows.push(row);
    if (this.rows.length >= FLUSH_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.rows;
    this.rows = [];
    if (!batch.length) return this.writing;
    this.writing = this.writing.then(() =>
      this.prisma.requestLog.createMany({ data: batch }).then(
        () => undefined,
        (err: Error) => this.log.warn('activity log write failed', { rows: batch.length, error: err.message }),
      ),
    );
    return this.writing;
  }

  close(): Promise<void> {
    return this.flush();
  }
}

export function logRequest(ctx: AppContext, auth: { apiKeyId: string; accountId: string }, route: Pick<RouteSpec, 'method' | 'path' | 'credits'>, status: number, durationMs: number): void {
  const credits = status >= 200 && status < 300 ? (route.credits ?? 0) : 0;
  ctx.state.deps.activityLog.add({ accountId: auth.accountId, apiKeyId: auth.apiKeyId, method: route.method.toUpperCase(), path: route.path, status, durationMs: Math.round(durationMs), credits, createdAt: new Date() });
}
