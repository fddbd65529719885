/** Readiness waiting shared by every service the stack starts, and free-port allocation. */
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeExit, logTail, type Child } from './child.js';

/** Where a process logs: a Child, or just a file. */
export interface LogRef {
  logFile: string;
  /** Only show output after this byte (the current run's part of an appended log). */
  logOffset?: number;
}

/** A service of the stack did not come up. `service` names the part; the message carries the log tail. */
export class ServiceStartError extends Error {
  readonly logFile?: string;
  constructor(
    readonly service: string,
    readonly reason: string,
    log?: LogRef,
  ) {
    const tail = log ? `\n--- last lines of ${log.logFile} ---\n${logTail(log.logFile, 30, log.logOffset)}\n---` : '';
    super(`${service} failed to start: ${reason}${tail}`);
    this.logFile = log?.logFile;
    this.name = 'ServiceStartError';
  }
}

export interface WaitOptions {
  timeoutMs: number;
  /** Poll period in ms; default 200. */
  intervalMs?: number;
  /** Fail at once, with its log, if this process exits while we wait. */
  child?: Child;
}

/**
 * Poll `check` until it resolves true. A throw counts as "not yet" and its message is kept for the
 * timeout error, which is often the most useful clue ("connection refused", "namespace not found").
 */
export async function waitUntilReady(service: string, check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastProblem = 'not ready';
  for (;;) {
    if (options.child && !options.child.running()) {
      const exit = await options.child.exited;
      const reason = exit.error ? describeExit(exit) : `${describeExit(exit)} before it was ready`;
      throw new ServiceStartError(service, reason, options.child);
    }
    try {
      if (await check()) return;
    } catch (err) {
      lastProblem = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() >= deadline) {
      throw new ServiceStartError(service, `not ready after ${options.timeoutMs} ms (last check: ${lastProblem})`, options.child);
    }
    await sleep(options.intervalMs ?? 200);
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it; a race is possible but rare). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port assigned'))));
    });
  });
}

/** Throw a ServiceStartError when something already listens on `port` (a second stack, another app). */
export function assertPortFree(service: string, port: number, settingName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new ServiceStartError(service, `port ${port} is in use (${err.code}); free it or set ${settingName}`)),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}
