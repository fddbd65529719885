/**
 * What PostgreSQL does during a measured window, for the scale benches (bench/frontier.ts,
 * bench/scale-out.ts): its CPU from /proc (the postmaster, its live backends and the backends it has
 * reaped), transactions committed and WAL written (pg_stat_database, pg_current_wal_lsn), and what
 * its active backends wait on, sampled from pg_stat_activity every `intervalMs` (default 20 ms) on a
 * connection of its own. PostgreSQL 15 keeps no cumulative lock-wait time, so sampling is the
 * measure: backends seen waiting on `Lock` × the interval estimates the lock-wait time.
 */
import pg from 'pg';
import type { PostgresHandle } from '../scripts/infra/postgres.js';
import { cpuMs } from './crawl-measure.js';

export interface PgReading {
  at: number;
  /** CPU ms of every postgres process so far. */
  cpuMs: number;
  commits: number;
  /** WAL position, bytes. */
  walBytes: number;
}

export interface WaitSamples {
  samples: number;
  intervalMs: number;
  /** Backend-samples per `wait_event_type:wait_event` (`CPU` when active and not waiting), over the window. */
  byEvent: Map<string, number>;
  /** Backend-samples per statement running (its first 70 characters, whitespace folded): what a busy row was busy with. */
  byQuery: Map<string, number>;
}

export interface PgWatch {
  read(): Promise<PgReading>;
  /** Starts sampling pg_stat_activity; `stop()` returns what was seen. */
  sampleWaits(intervalMs?: number): { stop(): Promise<WaitSamples> };
  close(): Promise<void>;
}

export async function watchPostgres(url: string, postmasterPid: number): Promise<PgWatch> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sampler = new pg.Client({ connectionString: url });
  await sampler.connect();
  // A server stopped under a failed run must not crash the process through an unhandled 'error' event.
  for (const c of [client, sampler]) c.on('error', () => {});
  const lsn = (text: string) => {
    const [hi, lo] = text.split('/');
    return Number.parseInt(hi, 16) * 2 ** 32 + Number.parseInt(lo, 16);
  };
  return {
    async read() {
      const { rows } = await client.query<{ commits: string; lsn: string }>(
        'SELECT xact_commit::text AS commits, pg_current_wal_lsn()::text AS lsn FROM pg_stat_database WHERE datname = current_database()',
      );
      return { at: performance.now(), cpuMs: cpuMs(postmasterPid, true), commits: Number(rows[0].commits), walBytes: lsn(rows[0].lsn) };
    },
    sampleWaits(intervalMs = 20) {
      const byEvent = new Map<string, number>();
      const byQuery = new Map<string, number>();
      let samples = 0;
      let stopped = false;
      const loop = (async () => {
        while (!stopped) {
          const next = performance.now() + intervalMs;
          const { rows } = await sampler.query<{ event: string; query: string; n: number }>(
            `SELECT COALESCE(wait_event_type || ':' || wait_event, 'CPU') AS event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query, count(*)::int AS n
             FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1, 2`,
          );
          samples++;
          for (const r of rows) {
            byEvent.set(r.event, (byEvent.get(r.event) ?? 0) + r.n);
            byQuery.set(r.query, (byQuery.get(r.query) ?? 0) + r.n);
          }
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        }
      })();
      return {
        async stop() {
          stopped = true;
          await loop;
          return { samples, intervalMs, byEvent, byQuery };
        },
      };
    },
    async close() {
      await Promise.all([client.end(), sampler.end()]);
    },
  };
}

/** Backend-samples waiting on heavyweight locks (`Lock:*`: rows, transaction ids, tuples). */
export function lockSamples(w: WaitSamples): number {
  let n = 0;
  for (const [event, count] of w.byEvent) if (event.startsWith('Lock:')) n += count;
  return n;
}

/** The `top` most seen keys of `counts` and their shares (%) of all backend-samples. */
function topShares(counts: Map<string, number>, top: number): Array<[string, string]> {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, n]) => [key, `${((100 * n) / total).toFixed(0)}%`]);
}

/** The `top` most seen events, as "event share%" over all backend-samples. */
export function topWaits(w: WaitSamples, top = 4): string {
  const shares = topShares(w.byEvent, top);
  return shares.length ? shares.map(([event, share]) => `${event} ${share}`).join(', ') : 'none active';
}

/** The most seen statement and its share of all backend-samples. */
export function topQuery(w: WaitSamples): string {
  const [top] = topShares(w.byQuery, 1);
  return top ? `${top[1]} ${top[0]}` : 'none active';
}

/**
 * pg_stat_statements on a server just started by `start` (a preloaded library needs a restart: set in
 * the cluster's postgresql.auto.conf, then started again on the same data), planning time included.
 */
export async function startWithStatements(start: () => Promise<PostgresHandle>): Promise<PostgresHandle> {
  const first = await start();
  const admin = new pg.Client({ connectionString: first.url });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
  await admin.end();
  await first.stop();
  const handle = await start();
  const client = new pg.Client({ connectionString: handle.url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.query('ALTER SYSTEM SET pg_stat_statements.track_planning = on');
  // Statements inside functions too (the crawl's batch store is one: crawl_store_batch); their time is also in their caller's.
  await client.query("ALTER SYSTEM SET pg_stat_statements.track = 'all'");
  await client.query('SELECT pg_reload_conf()');
  await client.end();
  return handle;
}

export interface StatementCost {
  query: string;
  calls: number;
  /** Planning and execution, lock waits included. */
  ms: number;
}

export async function resetStatements(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SELECT pg_stat_statements_reset()');
  await client.end();
}

/** The `top` statements by PostgreSQL's time since the last reset, per `pages` (calls and ms per page). */
export async function topStatements(url: string, pages: number, top = 12): Promise<StatementCost[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ query: string; calls: string; ms: number }>(
    `SELECT regexp_replace(query, '[[:space:]]+', ' ', 'g') AS query, calls::text, total_exec_time + total_plan_time AS ms
     FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat%' ORDER BY ms DESC LIMIT $1`,
    [top],
  );
  await client.end();
  return rows.map((r) => ({ query: r.query.slice(0, 110), calls: Number(r.calls) / pages, ms: r.ms / pages }));
}

export function printStatements(statements: StatementCost[], indent = 4): void {
  for (const st of statements) console.log(`${' '.repeat(indent)}${st.ms.toFixed(3).padStart(8)} ms/page ${st.calls.toFixed(3).padStart(7)} calls/page  ${st.query}`);
}
