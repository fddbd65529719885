/**
 * How a worker process is started: its Node flags (package.json's `start:worker`, which `up`, the
 * benches, the Docker image and docker-compose.yml all run) and its environment (here; compose
 * repeats it), chosen to keep its memory down
 * (measured with bench/worker-memory.ts on a 2,000-page crawl at WORKER_CONCURRENCY 16), and a
 * workflow bundle built beforehand (scripts/bundle-workflows.ts).
 */

/**
 * Semi-spaces of 2 MiB instead of 16 (V8's default for a 64-bit heap this size), and a heap that
 * grows 30 % before collecting rather than up to 4x: peak RSS 489 → 364 MiB at a few per cent more
 * CPU with 4 MiB semi-spaces; 2 MiB took crawls from 381-410 MiB at peak to 352-366, and they ran
 * faster (426-451 pages/s against 390-409, 3.9-4.0 ms of CPU per page against 4.2-4.3: less is
 * live at each scavenge), a scrape's CPU the same. `--heap-growing-percent` is refused in
 * NODE_OPTIONS, so these go on the command line. They apply to every thread: a convert thread's
 * own young-generation limit (worker/convert-pool.ts) gives way to them.
 *
 * One V8 helper thread instead of four (`--v8-pool-size=1`): the helpers run the garbage
 * collector's parallel and concurrent work for every isolate (main thread and convert threads),
 * and four of them on two cores already busy converting spent their time waiting on each other.
 * Converting 20 KB pages on the pool: 3.4 ms of CPU per page instead of 4.2, and faster (1.8 ms of
 * wall time per page instead of 2.3); a scrape's CPU ~0.7 ms lower, crawls as fast or faster, the
 * same peak memory (bench/scrape.ts, bench/crawl.ts).
 */

/** glibc malloc: two arenas, and freed memory returned to the system sooner (peak −20 to −50 MiB). */
export const WORKER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
} as const;
