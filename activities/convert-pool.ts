/**
 * Page conversion on a pool of worker threads (Piscina), so a large page's tens of milliseconds of
 * parsing and turndown never stall the worker's event loop: Temporal heartbeats, the other
 * activities' network I/O and Postgres writes keep running while pages convert
 * (bench/convert-stall.ts measures it).
 *
 * The thread entry is ./convert-thread with this module's own extension: `.ts` when run from
 * source (tsx, vitest), `.js` when run from tsc's dist/ output. Threads cannot load TypeScript by
 * themselves, so from source they also import tsx's loader.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { InvalidSelectorError, UnreadablePdfError, UnsupportedContentTypeError } from '../core/html/errors.js';
import type { ProcessPageInput } from '../core/html/types.js';
import type { ConvertPage } from './convert.js';
import type { ThreadError, ThreadReply } from './convert-thread.js';

export interface ConvertPool {
  /**
   * Converts one page on a thread. A Uint8Array body is moved, not copied: the caller's array is
   * detached (empty) once this is called, so read nothing from it afterwards.
   */
  convert: ConvertPage;
  /** Threads in the pool. */
  readonly size: number;
  /** Lets queued and running conversions finish, then stops the threads; later conversions reject. Idempotent. */
  close(): Promise<void>;
}

/**
 * Threads by default: one per concurrent page activity (more would sit idle), but leave one core to
 * the main thread, which runs the Temporal SDK's polling, heartbeats and every activity's I/O.
 * On 2 cores that is 1 thread: conversions queue behind each other, the event loop stays free.
 */
export function defaultConvertThreads(workerConcurrency: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(workerConcurrency, cores - 1));
}

const ownExtension = extname(fileURLToPath(import.meta.url));
const threadFile = fileURLToPath(new URL(`./convert-thread${ownExtension}`, import.meta.url));

/** Node options for the threads: the parent's, plus tsx's loader when the thread file is TypeScript. */
function threadExecArgv(): string[] {
  const inherited = [...process.execArgv];
  if (ownExtension !== '.ts' || inherited.some((arg) => /[/\\]tsx[/\\]|^tsx$/.test(arg))) return inherited;
  // Resolved to a file URL so it loads whatever the thread's working directory is.
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [...inherited, '--import', loader];
}

/** Rebuilds the pipeline's own error classes (so `instanceof` and their fields work); others keep name, message and fields. */
function toError(e: ThreadError): Error {
  const f = e.fields;
  let err: Error;
  if (e.name === 'InvalidSelectorError') err = new InvalidSelectorError(String(f.selector), f.option === 'excludeTags' ? 'excludeTags' : 'includeTags', String(f.reason));
  else if (e.name === 'UnsupportedContentTypeError') err = new UnsupportedContentTypeError(String(f.contentType));
  else if (e.name === 'UnreadablePdfError') err = new UnreadablePdfError(String(f.reason));
  else err = Object.assign(new Error(e.message), f, { name: e.name });
  err.message = e.message;
  if (e.stack) err.stack = e.stack;
  return err;
}

/**
 * Bytes to send and what to transfer. A view that does not own its whole ArrayBuffer (Node's
 * shared Buffer pool for small buffers, a SharedArrayBuffer) is copied to a buffer of its own first:
 * transferring the slab would detach other buffers' bytes, and Node 21+ refuses untransferable ones.
 */
function bodyForThread(body: Uint8Array | string): { body: Uint8Array | string; transferList: ArrayBuffer[] } {
  if (typeof body === 'string') return { body, transferList: [] };
  const owned = body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
  const bytes = owned ? body : new Uint8Array(body);
  return { body: bytes, transferList: [bytes.buffer as ArrayBuffer] };
}

export function createConvertPool(options: { threads: number }): ConvertPool {
  if (!Number.isInteger(options.threads) || options.threads < 1) throw new RangeError(`createConvertPool: threads must be a positive integer, got ${options.threads}`);
  const pool = new Piscina<ProcessPageInput, ThreadReply>({
    filename: threadFile,
    name: 'default',
    // A fixed pool, started now: the first page should not pay for a thread's start-up.
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: Infinity,
    execArgv: threadExecArgv(),
  });
  let closing: Promise<void> | undefined;
  return {
    size: options.threads,
    async convert(input) {
      // Piscina would start fresh threads for a task run after close(); nothing would stop them.
      if (closing) throw new Error('The convert pool is closed');
      const { body, transferList } = bodyForThread(input.body);
      const reply = await pool.run({ ...input, body }, { transferList });
      if (!reply.ok) throw toError(reply.error);
      return reply.page;
    },
    close: () => (closing ??= pool.close()),
  };
}
