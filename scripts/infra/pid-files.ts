/**
 * Pid files let the next `up` / `stop` clean up after a parent that died without stopping its
 * children (SIGKILL, OOM, a closed terminal). Each file records the command too, so a recycled pid
 * belonging to some unrelated process is never signalled.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PidRecord {
  pid: number;
  /** Executable that was started; matched against /proc/<pid>/cmdline before signalling. */
  command: string;
  /** Signal that stops it cleanly (PostgreSQL wants SIGINT for a fast shutdown). */
  stopSignal: NodeJS.Signals;
}

/** A zombie has exited; only its parent (init, for orphans, which may reap lazily) has not collected it. */
function isZombie(pid: number): boolean {
  try {
    // Format: "pid (comm) state ..."; comm may contain spaces, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** True when `pid` is alive and, where /proc exists, still runs `command`. */
export function isRunning(record: Pick<PidRecord, 'pid' | 'command'>): boolean {
  if (!isAlive(record.pid)) return false;
  const cmdline = `/proc/${record.pid}/cmdline`;
  if (!existsSync(cmdline)) return true;
  try {
    return readFileSync(cmdline, 'utf8').includes(basename(record.command));
  } catch {
    return false;
  }
}

export function writePidFile(dir: string, name: string, record: PidRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.pid`), JSON.stringify(record));
}

export function readPidFile(dir: string, name: string): PidRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, `${name}.pid`), 'utf8')) as PidRecord;
  } catch {
    return undefined;
  }
}

export function removePidFile(dir: string, name: string): void {
  rmSync(join(dir, `${name}.pid`), { force: true });
}

/** Send the stop signal, wait up to `graceMs`, then SIGKILL. Resolves once the process is gone. */
export async function terminate(record: PidRecord, graceMs = 10_000): Promise<void> {
  if (!isRunning(record)) return;
  process.kill(record.pid, record.stopSignal);
  const deadline = Date.now() + graceMs;
  while (isAlive(record.pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(record.pid)) process.kill(record.pid, 'SIGKILL');
  while (isAlive(record.pid)) await sleep(50);
}

/** Stop every process recorded in `dir` that is still running, remove the files; returns their names. */
export async function reapStale(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const reaped: string[] = [];
  // Newest first: the services were started after the databases they use, so they go first.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.pid'))
    .map((f) => ({ f, mtime: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
    .map(({ f }) => f);
  for (const file of files) {
    const name = file.slice(0, -'.pid'.length);
    const record = readPidFile(dir, name);
    if (record && isRunning(record)) {
      await terminate(record);
      reaped.push(`${name} (pid ${record.pid})`);
    }
    removePidFile(dir, name);
  }
  return reaped;
}
