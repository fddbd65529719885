/**
 * A private PostgreSQL server: its own data directory, loopback TCP only, trust authentication
 * (nothing but local processes can reach it), its own Unix socket directory so it never collides
 * with a system cluster. As root it runs as the `postgres` system user, since postgres refuses root.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { spawnChild } from './child.js';
import type { Restartable } from './supervise.js';
import { ServiceStartError, waitUntilReady } from './ready.js';

const run = promisify(execFile);

export interface PostgresOptions {
  /** Cluster directory; initdb runs on first use. */
  dataDir: string;
  port: number;
  /** Directory with initdb and postgres (e.g. /usr/lib/postgresql/15/bin). */
  binDir: string;
  /** Database created if missing and used in `url`; default `pagewright`. */
  database?: string;
  /** Default `<dataDir>.log`. */
  logFile?: string;
  pidDir?: string;
  /** Throwaway cluster: skip fsync (tests). Never for data you keep. */
  ephemeral?: boolean;
  /** Default 60000 ms. */
  timeoutMs?: number;
}

export interface PostgresHandle extends Restartable {
  /** Connection string for `database`, as user `postgres`. */
  url: string;
  /** Connection string for the `postgres` maintenance database (for creating other databases). */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

/** uid/gid to run as: ours, or the `postgres` user when we are root. */
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    throw new ServiceStartError('PostgreSQL', "running as root, but there is no 'postgres' system user to run the server as (create one: useradd --system postgres)");
  }
}

/** The postgres user must be able to walk down to the data directory (mkdtemp makes 0700 dirs). */
function assertReachable(dir: string): void {
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new ServiceStartError('PostgreSQL', `${d} is not searchable by the postgres user (mode ${(statSync(d).mode & 0o777).toString(8)}); chmod o+x it`);
    }
  }
}

export async function startPostgres(options: PostgresOptions): Promise<PostgresHandle> {
  const { dataDir, port, binDir } = options;
  const database = options.database ?? 'pagewright';
  const logFile = options.logFile ?? `${dataDir}.log`;
  const socketDir = `${dataDir}-socket`;
  const user = await runAs();
  for (const bin of ['initdb', 'postgres']) {
    if (!existsSync(join(binDir, bin))) throw new ServiceStartError('PostgreSQL', `${join(binDir, bin)} not found (set STACK_PG_BIN_DIR)`);
  }
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(socketDir, { recursive: true });
  if (user.uid !== undefined && user.gid !== undefined) {
    assertReachable(dataDir);
    chownSync(dataDir, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const args = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', ...(options.ephemeral ? ['--no-sync'] : [])];
    try {
      await run(join(binDir, 'initdb'), args, { ...user });
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new ServiceStartError('PostgreSQL', `initdb failed: ${e.stderr?.trim() || e.message}`);
    }
  }
  // Unix socket paths are limited to ~107 bytes; past that, TCP alone (all we use) is fine.
  const socketSetting = `${socketDir}/.s.PGSQL.${port}`.length < 100 ? socketDir : '';
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: socketSetting, max_connections: '200' };
  const fast = options.ephemeral ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {};
  const args = ['-D', dataDir, '-p', String(port), ...Object.entries({ ...settings, ...fast }).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  // SIGINT is PostgreSQL's "fast" shutdown; SIGTERM would wait for every client to disconnect.
  const spawn = () => spawnChild({ name: 'postgres', command: join(binDir, 'postgres'), args, logFile, pidDir: options.pidDir, stopSignal: 'SIGINT', ...user });
  let child = spawn();

  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const query = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  };
  try {
    await waitUntilReady('PostgreSQL', async () => (await query('select 1')).rowCount === 1, { timeoutMs: options.timeoutMs ?? 60_000, child });
    const exists = await query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await query(`create database "${database.replaceAll('"', '""')}"`);
  } catch (err) {
    await child.stop();
    throw err instanceof ServiceStartError ? err : new ServiceStartError('PostgreSQL', (err as Error).message, child);
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    adminUrl,
    port,
    child: () => child,
    // After a crash PostgreSQL replays its WAL at start; a stale postmaster.pid does not stop it.
    respawn: () => (child = spawn()),
    stop: () => child.stop(),
  };
}
