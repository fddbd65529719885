/**
 * In-process wake-ups between the lanes of one crawl on one worker: a lane that admitted links wakes
 * the lanes that sat idle waiting for work. Lanes on other workers find the links on their next look
 * at the frontier (every 250 ms while idle).
 */
const waiting = new Map<string, Set<() => void>>();

export function onCrawlProgress(crawlId: string): void {
  const wakers = waiting.get(crawlId);
  if (!wakers) return;
  waiting.delete(crawlId);
  for (const wake of wakers) wake();
}

/** Resolves after `ms`, or earlier when a lane of the crawl on this worker makes progress, or the signal aborts. */
export function waitForCrawlProgress(crawlId: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let wakers = waiting.get(crawlId);
    if (!wakers) waiting.set(crawlId, (wakers = new Set()));
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      waiting.get(crawlId)?.delete(done);
      if (waiting.get(crawlId)?.size === 0) waiting.delete(crawlId);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    wakers.add(done);
  });
}
