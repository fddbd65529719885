/**
 * A private redis-server on loopback. Without `dataDir` nothing is persisted (tests); with it the
 * data survives restarts of `./scripts/stack up`. The handle can stop and start the same server
 * again on the same port, so tests can exercise what happens while Redis is unreachable.
 */
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild, type Child } from './child.js';
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

export interface RedisHandle {
  url: string;
  port: number;
  /** Start it again after stop() (same port, same data); no-op when running. */
  start(): Promise<void>;
  /** No-op when stopped. */
  stop(): Promise<void>;
}

/** One PING over a raw socket: true on +PONG. Avoids a client library's reconnect logic. */
export function redisPing(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('PING timed out')));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.end();
        // "-LOADING ..." while a snapshot loads: up, not ready.
        if (reply.startsWith('+PONG')) resolve(true);
        else reject(new Error(`PING answered ${reply.trim()}`));
      }
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
  const args = ['--port', String(port), '--bind', '127.0.0.1', ...persistence];
  let child: Child | undefined;

  const start = async () => {
    if (child?.running()) return;
    child = spawnChild({ name: options.name ?? 'redis', command: serverPath, args, logFile, pidDir: options.pidDir });
    try {
      await waitUntilReady('Redis', () => redisPing(port), { timeoutMs: options.timeoutMs ?? 60_000, child });
    } catch (err) {
      await child.stop();
      throw err instanceof ServiceStartError ? err : new ServiceStartError('Redis', (err as Error).message, child);
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop: async () => {
      await child?.stop();
    },
  };
}
