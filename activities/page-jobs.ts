/**
 * The loop of the jobs that read a list of pages in one long activity (extract jobs, llms.txt):
 * each URL not done yet gets a worker page slot, its work (which writes the page's rows, credit and
 * tokens in one transaction), and a heartbeat saying how far the job got. A retried activity is
 * given the URLs already done and skips them, so no page is read twice once it is stored.
 */
import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';

export async function eachNewPage(deps: ActivityDeps, urls: string[], done: Set<string>, work: (url: string, signal: AbortSignal) => Promise<void>): Promise<void> {
  const signal = Context.current().cancellationSignal;
  let finished = urls.filter((url) => done.has(url)).length;
  await Promise.all(
    urls
      .filter((url) => !done.has(url))
      .map(async (url) => {
        const release = await deps.pageSlots.acquire(signal);
        try {
          await work(url, signal);
        } finally {
          release();
        }
        Context.current().heartbeat({ pages: ++finished, of: urls.length });
      }),
  );
}
