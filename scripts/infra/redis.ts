/**
 * A private redis-server on loopback. Without `dataDir` nothing is persisted (tests); with it the
 * data survives restarts of `./scripts/stack up`. The handle can stop and start the same server
 * again on the same port, so tests can exercise what happens while Redis is unreachable.
 *
 * It always requires a password, new at each start and carried in `url` (`redis://:pw@host:port`):
 * another local user or process cannot read or write the service's state, worker announcements
 * included.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild, type Child } from './child.js';
import type { Restartable } from './supervise.js';
import { ServiceStartError, waitUntilReady } from './ready.js';

export interface RedisOptions {
  port: number;
  /** redis-server executable; default `redis-server` on PATH. */
  serverPath?: string;
  /** Persist here (RDB snapshot, saved on shutdown); omit for a throwaway server. */
  dataDir?: string;
  /** Default `<dataDir>/redis.log`, or `<tmpdir>/pagewright-redis-<port>.log`. */
  logFile?: string;
  pidDir?: string;
  /** Process name for logs and the pid file; default `redis`. */
  name?: string;
  /** Default 60000 ms. */
  timeoutMs?: number;
}

export interface RedisHandle extends Restartable {
  url: string;
  port: number;
  /** Start it again after stop() (same port, same data); no-op when running. */
  start(): Promise<void>;
  /** No-op when stopped. */
  stop(): Promise<void>;
}

/** AUTH then PING over a raw socket: true on +PONG. Avoids a client library's reconnect logic. */
export function redisPing(port: number, password: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('PING timed out')));
    socket.once('connect', () => socket.write(`AUTH ${password}\r\nPING\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      const lines = reply.split('\r\n');
      if (lines.length < 3) return; // both replies, each ending in CRLF
      socket.end();
      // "-LOADING ..." while a snapshot loads: up, not ready.
      if (lines[0] === '+OK' && lines[1] === '+PONG') resolve(true);
      else reject(new Error(`AUTH and PING answered ${lines.slice(0, 2).join(' / ')}`));
    });
    socket.once('error', reject);
  });
}

export async function startRedis(options: RedisOptions): Promise<RedisHandle> {
  const { port, dataDir } = options;
  const serverPath = options.serverPath ?? 'redis-server';
  const logFile = options.logFile ?? (dataDir ? join(dataDir, 'redis.log') : join(tmpdir(), `pagewright-redis-${port}.log`));
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const persistence = dataDir ? ['--dir', dataDir, '--save', '60 1', '--appendonly', 'no'] : ['--save', '', '--appendonly', 'no'];
  const password = randomBytes(24).toString('hex');
  // The password goes in a file only we can read, not on the command line (ps, the child's log).
  const confFile = join(dataDir ?? tmpdir(), `pagewright-redis-${port}.conf`);
  writeFileSync(confFile, `requirepass ${password}\n`, { mode: 0o600 });
  chmodSync(confFile, 0o600);
  const args = [confFile, '--port', String(port), '--bind', '127.0.0.1', ...persistence];
  const spawn = () => spawnChild({ name: options.name ?? 'redis', command: serverPath, args, logFile, pidDir: options.pidDir });
  let child: Child | undefined;

  const start = async () => {
    if (child?.running()) return;
    child = spawn();
    try {
      await waitUntilReady('Redis', () => redisPing(port, password), { timeoutMs: options.timeoutMs ?? 60_000, child });
    } catch (err) {
      await child.stop();
      throw err instanceof ServiceStartError ? err : new ServiceStartError('Redis', (err as Error).message, child);
    }
  };
  await start();
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    port,
    start,
    child: () => child!,
    // Same password and data directory: clients reconnect with the URL they have.
    respawn: () => (child = spawn()),
    stop: async () => {
      await child?.stop();
    },
  };
}
