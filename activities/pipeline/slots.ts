/**
 * A worker's page slots (WORKER_CONCURRENCY): every crawl lane on the worker takes one per page it
 * fetches and converts, first come first served, so lanes of several crawls share the worker fairly
 * and the worker never has more pages in flight than its setting says.
 */
export class PageSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`PageSlots: size must be a positive integer, got ${size}`);
    this.free = size;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason as Error);
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  get inUse(): number {
    return this.size - this.free;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // A waiter takes the slot over directly; otherwise it goes back to the pool.
      if (next) next();
      else this.free++;
    };
  }
}
