/**
 * Page conversion on a pool of worker threads (Piscina), so a large page's tens of milliseconds of
 * parsing and markdown never stall the worker's event loop: Temporal heartbeats, the other
 * activities' network I/O and Postgres writes keep running while pages convert
 * (bench/convert-stall.ts measures it).
 *
 * The thread entry is ./convert-thread with this module's own extension: `.ts` when run from
 * source (tsx, vitest), `.js` when run from tsc's dist/ output. Threads cannot load TypeScript by
 * themselves, so from source they also import tsx's loader.
 */
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { InvalidSelectorError, PageTooLargeError, UnreadablePdfError, UnsupportedContentTypeError } from '../core/html/errors.js';
import { processPage } from '../core/html/index.js';
import type { ConvertPage, ProcessPageInput } from '../core/html/types.js';
import type { ThreadError, ThreadReply } from './convert-thread.js';
import { watchConvertQueue } from '../telemetry/metrics.js';

/** processPage on the calling thread (tests, benches). */
export const convertInline: ConvertPage = async (input) => processPage(input);

export interface ConvertPool {
  /**
   * Converts one page on a thread. A Uint8Array body is moved, not copied: the caller's array is
   * detached (empty) once this is called, so read nothing from it afterwards. Throws what
   * processPage throws, and PageTooLargeError when the conversion outgrows the thread's heap.
   */
  convert: ConvertPage;
  /** Threads in the pool. */
  readonly size: number;
  /** Lets queued and running conversions finish, then stops the threads; later conversions reject. Idempotent. */
  close(): Promise<void>;
}

/**
 * Cores this process may use: the machine's (its CPU affinity), or fewer when its cgroup has a CPU
 * limit (a container's `cpus`, a Kubernetes `limits.cpu`), rounded up. Node 20's
 * availableParallelism() does not read the cgroup, so 16 threads would share one core's quota.
 * cgroup v2 (`cpu.max`: "max 100000" or "<quota> <period>") and v1 (`cpu.cfs_quota_us` / `cpu.cfs_period_us`).
 */
export function usableCores(read: (path: string) => string | undefined = readText, cores = availableParallelism()): number {
  const v2 = read('/sys/fs/cgroup/cpu.max')?.trim().split(/\s+/);
  const [quota, period] = v2 ? v2.map(Number) : [Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')), Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us'))];
  if (!(quota > 0) || !(period > 0)) return cores;
  return Math.max(1, Math.min(cores, Math.ceil(quota / period)));
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Threads by default (WORKER_CONVERT_THREADS unset): one per usable core, and no more than pages in
 * flight (more would sit idle).
 * Conversion is most of a page's CPU; the main thread (the Temporal SDK's polling, lane heartbeats,
 * every page's I/O, the batch stores) needs a fraction of a core and its heartbeats have seconds of
 * slack. bench:crawl on 2 cores, WORKER_CONCURRENCY 16: 220-230 pages/s with 2 threads against
 * 172-194 with 1 (cores - 1), at ~35 MiB more peak RSS (386 MiB). Each thread adds ~12 MiB idle.
 */
export function defaultConvertThreads(workerConcurrency: number, cores = usableCores()): number {
  return Math.max(1, Math.min(workerConcurrency, cores));
}

const ownExtension = extname(fileURLToPath(import.meta.url));
const threadFile = fileURLToPath(new URL(`./convert-thread${ownExtension}`, import.meta.url));

/**
 * Node options for the threads: none of our own (a thread inherits the process's) unless the thread
 * file is TypeScript and the process has no tsx loader. Passing the process's options explicitly
 * would make Worker refuse process-wide ones such as `--max-semi-space-size` or
 * `--max-old-space-size` (ERR_WORKER_INVALID_EXEC_ARGV), which V8 applies to every thread anyway.
 */
function threadExecArgv(): string[] | undefined {
  if (ownExtension !== '.ts' || process.execArgv.some((arg) => /[/\\]tsx[/\\]|^tsx$/.test(arg))) return undefined;
  // Resolved to a file URL so it loads whatever the thread's working directory is.
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  // Only the options that say how modules load (vitest's conditions, other loaders) go along.
  const moduleOptions = process.execArgv.filter((arg, i, all) => /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C)(=|$)/.test(arg) || /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C)$/.test(all[i - 1] ?? ''));
  return [...moduleOptions, '--import', loader];
}

/** Rebuilds the pipeline's own error classes (so `instanceof` and their fields work); others keep name, message and fields. */
function toError(e: ThreadError): Error {
  const f = e.fields;
  let err: Error;
  if (e.name === 'InvalidSelectorError') err = new InvalidSelectorError(String(f.selector), f.option === 'excludeTags' || f.option === 'attributesOptions' ? f.option : 'includeTags', String(f.reason));
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

export interface ConvertPoolOptions {
  /** Threads in the pool (defaultConvertThreads). */
  threads: number;
  /** V8 old generation of each thread, MiB (positive integer); default DEFAULT_THREAD_OLD_GENERATION_MB. */
  maxOldGenerationMb?: number;
  /** V8 young generation of each thread, MiB (positive integer); default DEFAULT_THREAD_YOUNG_GENERATION_MB. */
  maxYoungGenerationMb?: number;
}

/**
 * Heap limits of each thread. Without them a thread gets V8's defaults for the machine (from 16 GB
 * of RAM up: a 4 GiB old generation, 16 MiB semi-spaces) and V8 lets garbage pile up well past what
 * is live before collecting it. bench/worker-memory.ts, 2,000-page crawl, one thread: the thread's
 * heap peaked at 86-92 MiB without limits, 44-54 MiB with the young generation alone at 8 MiB, and
 * 27-32 MiB with both limits below, at the same worker CPU per page.
 * - Old generation 256 MiB. Converting takes roughly 40-50 MiB of heap per MB of HTML (a 5 MB
 *   article converts, a 10 MB one does not; without a limit a 10 MB page took a process to
 *   ~870 MiB RSS). A page that needs more fails alone with PageTooLargeError and Piscina replaces
 *   the thread; the worker process and its other pages carry on. A bounded heap is collected more
 *   often: converting 200 KB articles back to back used ~30 % more CPU than without a limit.
 * - Young generation 8 MiB (by default a thread's new space grows to 32 MiB here): ~30 MiB less
 *   RSS per thread, same CPU per page.
 * V8 flags given to the process (`--max-old-space-size`, `--max-semi-space-size`) override these.
 */
export const DEFAULT_THREAD_OLD_GENERATION_MB = 256;
export const DEFAULT_THREAD_YOUNG_GENERATION_MB = 8;

export function createConvertPool(options: ConvertPoolOptions): ConvertPool {
  const { threads, maxOldGenerationMb = DEFAULT_THREAD_OLD_GENERATION_MB, maxYoungGenerationMb = DEFAULT_THREAD_YOUNG_GENERATION_MB } = options;
  for (const [name, value] of [['threads', threads], ['maxOldGenerationMb', maxOldGenerationMb], ['maxYoungGenerationMb', maxYoungGenerationMb]] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`createConvertPool: ${name} must be a positive integer, got ${value}`);
  }
  const pool = new Piscina<ProcessPageInput, ThreadReply>({
    filename: threadFile,
    name: 'default',
    // A fixed pool, started now: the first page should not pay for a thread's start-up.
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    execArgv: threadExecArgv(),
    // A thread that reaches these ends (ERR_WORKER_OUT_OF_MEMORY) and Piscina starts another.
    resourceLimits: { maxOldGenerationSizeMb: maxOldGenerationMb, maxYoungGenerationSizeMb: maxYoungGenerationMb },
  });
  let closing: Promise<void> | undefined;
  const unwatch = watchConvertQueue(() => ({ value: pool.queueSize }));
  return {
    size: threads,
    async convert(input) {
      // Piscina would start fresh threads for a task run after close(); nothing would stop them.
      if (closing) throw new Error('The convert pool is closed');
      const { body, transferList } = bodyForThread(input.body);
      const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      const reply = await pool.run({ ...input, body }, { transferList }).catch((err: unknown) => {
        if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new PageTooLargeError(bytes, maxOldGenerationMb);
        throw err;
      });
      if (!reply.ok) throw toError(reply.error);
      return reply.page;
    },
    close: () =>
      (closing ??= (async () => {
        unwatch();
        await pool.close();
      })()),
  };
}
