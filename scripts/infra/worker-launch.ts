/**
 * How a worker process is started, in one place for `up`, the benches and the Docker setup (whose
 * docker-compose.yml repeats these values): Node flags and environment that keep its memory down
 * (measured with bench/worker-memory.ts on a 2,000-page crawl at WORKER_CONCURRENCY 16), and a
 * workflow bundle built beforehand (scripts/bundle-workflows.ts).
 */

/**
 * A young generation of 4 MiB instead of 32 (V8's default for a 64-bit heap this size), and a heap
 * that grows 30 % before collecting rather than up to 4x: peak RSS 489 → 364 MiB at a few per cent
 * more CPU. `--heap-growing-percent` is refused in NODE_OPTIONS, so these go on the command line.
 */
export const WORKER_NODE_ARGS = ['--max-semi-space-size=4', '--heap-growing-percent=30'] as const;

/** glibc malloc: two arenas, and freed memory returned to the system sooner (peak −20 to −50 MiB). */
export const WORKER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
} as const;
