/**
 * The loop of the jobs that read a list of pages in one long activity (extract jobs, llms.txt):
 * each URL not done yet gets a worker page slot, its work (which writes the page's rows, credit and
 * tokens in one transaction), and a heartbeat saying how far the job got. A retried activity is
 * given the URLs already done and skips them, so no page is read twice once it is stored.
 */
import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';

/** Well within the workflows' heartbeat timeout (30 s): a worker that died is noticed that soon. */
const HEARTBEAT_MS = 5_000;

export async function eachNewPage(deps: ActivityDeps, urls: string[], done: Set<string>, work: (url: string, signal: AbortSignal) => Promise<void>): Promise<void> {
  const context = Context.current();
  const signal = context.cancellationSignal;
  let finished = urls.filter((url) => done.has(url)).length;
  const onePage = async (url: string) => {
    const release = await deps.pageSlots.acquire(signal);
    try {
      await work(url, signal);
    } finally {
      release();
    }
    context.heartbeat({ pages: ++finished, of: urls.length });
  };
  // A page (fetch and LLM) can take longer than the heartbeat timeout: the activity says it is alive meanwhile.
  const alive = setInterval(() => context.heartbeat({ pages: finished, of: urls.length }), HEARTBEAT_MS);
  try {
    await Promise.all(urls.filter((url) => !done.has(url)).map(onePage));
  } finally {
    clearInterval(alive);
  }
}
