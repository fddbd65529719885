/**
 * The Temporal SDK's log, in the worker's own JSON log (core/log.ts), with outages said once.
 *
 * The SDK's native core warns each time it retries a call the server did not answer. With the
 * server gone (the local dev server SIGKILLed) that was several lines a second, forever, and
 * nothing once it came back. Here the first such warning is checked with a probe (one call, no
 * retries): if the server does not answer either, one line says Temporal is unreachable, further
 * retry warnings are dropped, and the probe asks again every few seconds; its first answer is one
 * line saying Temporal is back. A warning the probe contradicts (a retry begun just before the
 * server returned) is dropped too. The warning that a worker has no workflows is by design for the
 * pages task queue (lanes are activities only) and is logged at debug. Every other SDK message
 * passes through.
 */
import { Connection, type ConnectionOptions } from '@temporalio/client';
import type { LogLevel, LogMetadata, Logger as SdkLogger } from '@temporalio/common';
import type { Logger } from '../core/log.js';

/**
 * Core's warning for a call retried because the server did not answer: gRPC `Unavailable`
 * (connection refused, no route), or a failure of the connection itself (a tonic transport error:
 * `code: Unknown, message: "transport error"`, a broken pipe, when the server died under a poll).
 */
export function isUnreachableRetry(meta: LogMetadata | undefined): boolean {
  return meta?.target === 'temporalio_client::retry' && typeof meta.error === 'string' && /code: Unavailable|tonic::transport::Error/.test(meta.error);
}

export interface TemporalLogOptions {
  log: Logger;
  /** Resolves when the Temporal server answers; rejects (promptly) when it does not. */
  probe: () => Promise<unknown>;
  /** Wait between probes while the server is unreachable, ms; default 2000. */
  probeEveryMs?: number;
}

export interface TemporalLog {
  /** For `Runtime.install({ logger })`. */
  readonly logger: SdkLogger;
  /** For `Runtime.install({ telemetryOptions: { logging } })`: Core's messages come to `logger` instead of straight to stderr. */
  readonly logging: { filter: { core: LogLevel; other: LogLevel }; forward: Record<string, never> };
  /** `up`, `checking` (a retry warning is being checked) or `unreachable`. */
  state(): 'up' | 'checking' | 'unreachable';
  /** Stop probing. */
  close(): void;
}

const levels = { TRACE: 'debug', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/** The SDK's warning for a worker created without workflows: the pages worker, on purpose (worker/main.ts). */
const NO_WORKFLOWS = 'No workflows registered, not polling for workflow tasks';

/** LogMetadata may hold bigints (JSON.stringify throws on them) and symbol keys (dropped anyway). */
function fields(meta: LogMetadata | undefined): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  return Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
}

export function temporalLog(options: TemporalLogOptions): TemporalLog {
  const { log } = options;
  const probeEveryMs = options.probeEveryMs ?? 2000;
  let state: 'up' | 'checking' | 'unreachable' = 'up';
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const answers = () => options.probe().then(() => true, () => false);
  const probeAgain = () => {
    if (closed) return;
    timer = setTimeout(() => {
      void answers().then((ok) => {
        if (!ok) return probeAgain();
        state = 'up';
        log.info('Temporal is reachable again', { unreachableForMs: Date.now() - since });
      });
    }, probeEveryMs);
  };
  const check = (error: unknown) => {
    state = 'checking';
    void answers().then((ok) => {
      if (ok) {
        state = 'up';
        return;
      }
      state = 'unreachable';
      since = Date.now();
      log.warn('Temporal is unreachable; the worker keeps retrying, and says here when it is back', { error });
      probeAgain();
    });
  };

  const write = (level: LogLevel, message: string, meta?: LogMetadata) => {
    if (isUnreachableRetry(meta)) {
      if (state === 'up') check(meta?.error);
      return;
    }
    log[message === NO_WORKFLOWS ? 'debug' : levels[level]](message, fields(meta));
  };
  const logger: SdkLogger = {
    log: write,
    trace: (m, meta) => write('TRACE', m, meta),
    debug: (m, meta) => write('DEBUG', m, meta),
    info: (m, meta) => write('INFO', m, meta),
    warn: (m, meta) => write('WARN', m, meta),
    error: (m, meta) => write('ERROR', m, meta),
  };
  return {
    logger,
    // The SDK's default levels (Core warnings, its dependencies' errors), forwarded rather than printed.
    logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} },
    state: () => state,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/**
 * `probe` for temporalLog: one `getSystemInfo` on a connection of its own (opened at the first
 * probe), without the client's retries, given `timeoutMs` at most.
 */
export function serverProbe(connectionOptions: ConnectionOptions, timeoutMs = 1000): { probe: () => Promise<unknown>; close: () => Promise<void> } {
  const connection = Connection.lazy({ ...connectionOptions, interceptors: [] });
  return {
    probe: () => connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({})),
    close: () => connection.close(),
  };
}
