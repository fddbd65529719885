/**
 * Keeps one of `up`'s processes running (the api, worker and browser service, and PostgreSQL, Redis
 * and Temporal): when it exits without being asked to, log which process,
 * how it ended and the tail of its log, wait (exponential backoff), start it again. stop() ends the
 * process or cancels a pending restart, and an exit it caused is never reported as a crash.
 */
import { relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeExit, logTail, type Child, type ChildExit } from './child.js';

export interface BackoffOptions {
  /** Wait before the first restart after a healthy run, ms; default 1000. */
  initialDelayMs: number;
  /** The wait doubles up to this, ms; default 30000. */
  maxDelayMs: number;
  /** A run that lasted this long was healthy: the next crash waits initialDelayMs again. ms; default 60000. */
  healthyAfterMs: number;
  /** This many crashes in a row, none after a healthy run, is a crash loop: logged as one and retried every maxDelayMs. Default 5. */
  crashLoopAfter: number;
}

/**
 * A server of the stack that can be started again as it was (same command, port and data), so a
 * supervisor can restart it: `supervise(server.child(), { restart: server.respawn, ... })`.
 */
export interface Restartable {
  /** The current run. */
  child(): Child;
  /** Start it again, without waiting for it to be ready; becomes the current run. */
  respawn(): Child;
}

export const defaultBackoff: BackoffOptions = { initialDelayMs: 1000, maxDelayMs: 30_000, healthyAfterMs: 60_000, crashLoopAfter: 5 };

export interface SuperviseOptions extends Partial<BackoffOptions> {
  /** Starts the process again (the first run is handed to supervise() already started). */
  restart: () => Child;
  /** One line (or a few) for the operator. */
  log: (text: string) => void;
  /** Lines of the log file's tail to show with a crash; default 10. */
  tailLines?: number;
  /** Clock for uptimes, ms; tests pass their own to make runs "long" without waiting. */
  now?: () => number;
  /** When `first` was started, on that clock; default: when supervise() is called. */
  startedAt?: number;
}

export interface Restart {
  exit: ChildExit;
  /** How long the run that ended lasted, ms. */
  uptimeMs: number;
  /** Crashes in a row, counting this one, with no healthy run between (1 after a healthy run). */
  inARow: number;
  /** Wait before starting it again, ms. */
  delayMs: number;
}

export interface Supervisor {
  readonly name: string;
  /** The current run: the live process, or the one that ended while a restart waits. */
  child(): Child;
  /** Every unexpected exit so far, oldest first. */
  readonly restarts: readonly Restart[];
  /** Stop the process or cancel the pending restart; resolves when nothing of it is left. */
  stop(): Promise<void>;
}

/** The wait before restarting after the `inARow`-th crash in a row: doubling, capped, the cap once in a crash loop. */
export function restartDelay(inARow: number, backoff: BackoffOptions): number {
  if (inARow >= backoff.crashLoopAfter) return backoff.maxDelayMs;
  return Math.min(backoff.initialDelayMs * 2 ** (inARow - 1), backoff.maxDelayMs);
}

const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`);

export function supervise(first: Child, options: SuperviseOptions): Supervisor {
  const { name } = first;
  const backoff = { ...defaultBackoff, ...options };
  const { initialDelayMs, maxDelayMs, crashLoopAfter } = backoff;
  if (!(initialDelayMs > 0 && maxDelayMs >= initialDelayMs && crashLoopAfter >= 1)) {
    throw new RangeError(`supervise(${name}): needs 0 < initialDelayMs <= maxDelayMs and crashLoopAfter >= 1 (got ${initialDelayMs}, ${maxDelayMs}, ${crashLoopAfter})`);
  }
  const now = options.now ?? Date.now;
  const restarts: Restart[] = [];
  const cancel = new AbortController();
  let current = first;
  let stopping = false;

  const report = (r: Restart, child: Child) => {
    const log = relative(process.cwd(), child.logFile);
    const tail = logTail(child.logFile, options.tailLines ?? 10, child.logOffset).replace(/^/gm, '  | ');
    options.log(`${name} ${describeExit(r.exit)} after ${duration(r.uptimeMs)}; restarting it in ${duration(r.delayMs)} (log: ${log})\n${tail}`);
    if (r.inARow >= backoff.crashLoopAfter) {
      options.log(
        `${name} keeps crashing: ${r.inARow} times in a row within ${duration(backoff.healthyAfterMs)} of starting. ` +
          `Retrying every ${duration(backoff.maxDelayMs)} until it stays up; the cause is in ${log}`,
      );
    }
  };

  const loop = (async () => {
    let startedAt = options.startedAt ?? now();
    let inARow = 0;
    for (;;) {
      const exit = await current.exited;
      if (stopping) return;
      const uptimeMs = now() - startedAt;
      inARow = uptimeMs < backoff.healthyAfterMs ? inARow + 1 : 1;
      const restart = { exit, uptimeMs, inARow, delayMs: restartDelay(inARow, backoff) };
      restarts.push(restart);
      report(restart, current);
      try {
        await sleep(restart.delayMs, undefined, { signal: cancel.signal });
      } catch {
        return; // stop() during the wait
      }
      current = options.restart();
      startedAt = now();
      options.log(`${name} restarted (pid ${current.pid ?? 'none'})`);
    }
  })().catch((err: unknown) => {
    // Only options.restart() can throw (e.g. its entry file is gone): nothing left to supervise.
    options.log(`${name} is not restarted any more: ${err instanceof Error ? err.message : String(err)}`);
  });

  return {
    name,
    child: () => current,
    restarts,
    async stop() {
      stopping = true;
      cancel.abort();
      await current.stop();
      await loop;
    },
  };
}
