/**
 * Child processes of the stack: output to a log file (optionally echoed with a name prefix), a pid
 * file for crash recovery, and a stop() that escalates to SIGKILL. Every live child is signalled
 * when this process exits, so none outlives its parent in the normal and Ctrl-C cases; pid files
 * cover a parent that was killed outright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { removePidFile, terminate, writePidFile } from './pid-files.js';

export interface ChildSpec {
  /** Short name: log prefix, pid-file name, and how errors refer to the process. */
  name: string;
  command: string;
  args: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Output is appended here. */
  logFile: string;
  /** Where `<name>.pid` is written, if anywhere. */
  pidDir?: string;
  /** Run as this user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** Signal for a clean stop; default SIGTERM. */
  stopSignal?: NodeJS.Signals;
  /** Also copy each output line, prefixed with the name, to this stream. */
  echo?: NodeJS.WritableStream;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be spawned at all (e.g. ENOENT). */
  error?: Error;
}

export interface Child {
  readonly name: string;
  readonly pid: number | undefined;
  readonly logFile: string;
  /** Size of the log file before this run: what follows is this run's output. */
  readonly logOffset: number;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<ChildExit>;
  running(): boolean;
  /** Stop signal, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<{ proc: ChildProcess; signal: NodeJS.Signals }>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: signal now, the children finish shutting down by themselves.
  process.on('exit', () => {
    for (const { proc, signal } of live) proc.kill(signal);
  });
}

/**
 * On SIGINT/SIGTERM, signal every live child, then let the default action (or the caller's own
 * handlers, when there are any) end the process. For hosts like vitest that do not own shutdown.
 */
export function installSignalCleanup(): void {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      for (const { proc, signal } of live) proc.kill(signal);
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    });
  }
}

/** What this run of `child` wrote to its log (the file is appended to across runs under one name). */
export function runOutput(child: Pick<Child, 'logFile' | 'logOffset'>): string {
  return readFileSync(child.logFile).subarray(child.logOffset).toString('utf8');
}

/** The last `lines` lines of a log file from byte `from` on (this run's part), for error messages. */
export function logTail(file: string, lines = 30, from = 0): string {
  try {
    const text = readFileSync(file).subarray(from).toString('utf8').trimEnd();
    return text ? text.split('\n').slice(-lines).join('\n') : '(empty)';
  } catch {
    return '(no log output)';
  }
}

export function describeExit(exit: ChildExit): string {
  if (exit.error) return `could not be started: ${exit.error.message}`;
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

export function spawnChild(spec: ChildSpec): Child {
  installExitHook();
  mkdirSync(dirname(spec.logFile), { recursive: true });
  const log = openSync(spec.logFile, 'a');
  const logOffset = fstatSync(log).size;
  // Logs are appended across runs; mark where this run starts.
  writeSync(log, `--- ${new Date().toISOString()} starting ${spec.name}: ${spec.command} ${spec.args.join(' ')}\n`);
  const stopSignal = spec.stopSignal ?? 'SIGTERM';
  // Without echo the child writes straight to the log file, so it never blocks on a dead parent's pipe.
  const out = spec.echo ? 'pipe' : log;
  const proc = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    uid: spec.uid,
    gid: spec.gid,
    stdio: ['ignore', out, out],
  });
  const entry = { proc, signal: stopSignal };
  live.add(entry);
  if (spec.echo) {
    const echo = spec.echo;
    for (const stream of [proc.stdout, proc.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        writeSync(log, `${line}\n`);
        echo.write(`${spec.name.padEnd(8)}| ${line}\n`);
      });
    }
  }
  if (spec.pidDir && proc.pid !== undefined) {
    writePidFile(spec.pidDir, spec.name, { pid: proc.pid, command: spec.command, stopSignal });
  }
  const exited = new Promise<ChildExit>((resolve) => {
    proc.once('error', (error) => {
      writeSync(log, `[stack] ${spec.command}: ${error.message}\n`);
      resolve({ code: null, signal: null, error });
    });
    proc.once('close', (code, signal) => resolve({ code, signal }));
  }).then((exit) => {
    live.delete(entry);
    if (spec.pidDir) removePidFile(spec.pidDir, spec.name);
    closeSync(log);
    return exit;
  });
  const running = () => proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined && live.has(entry);
  return {
    name: spec.name,
    pid: proc.pid,
    logFile: spec.logFile,
    logOffset,
    exited,
    running,
    async stop(graceMs = 10_000) {
      if (running() && proc.pid !== undefined) await terminate({ pid: proc.pid, command: spec.command, stopSignal }, graceMs);
      await exited;
    },
  };
}
