/**
 * Deploying new workflow code must not break crawls already running: histories recorded with
 * earlier versions replay with today's code without a determinism error. Each file under
 * test/fixtures/histories is a real history from the version named in its entry below.
 */
import { readFileSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { bundleWorkflows } from '../worker/main.js';

const histories = [
  // A 61-page crawl recorded before the window refilled only when half empty (commit dfc29c5):
  // it claims again with 31 pages in flight, which today's rule would not.
  { file: 'crawl-61-pages-refill-every-slot.json', workflowId: 'crawl-before-claim-half-window' },
  // A 30-page crawl with webhooks, recorded with one page activity per page (commit 989c7ca), before
  // page lanes: its first run, a run resumed after continue-as-new, and the last run (cut while it
  // sent crawl.completed); and a 200-page crawl cut mid-way.
  { file: 'crawl-per-page-hooks-first-run.json', workflowId: 'crawl-per-page-first' },
  { file: 'crawl-per-page-hooks-resumed-run.json', workflowId: 'crawl-per-page-resumed' },
  { file: 'crawl-per-page-hooks-last-run.json', workflowId: 'crawl-per-page-last' },
  { file: 'crawl-per-page-midway.json', workflowId: 'crawl-per-page-midway' },
  // Page lanes (commit fa608ed), lanes rotating every 300 ms: a first run with webhooks that continued
  // as new and the last run of that crawl; a crawl cancelled mid-way; a crawl with a 2.5 s delay
  // whose lanes hand back and wait on timers.
  { file: 'crawl-lanes-hooks-first-run.json', workflowId: 'crawl-lanes-first' },
  { file: 'crawl-lanes-hooks-last-run.json', workflowId: 'crawl-lanes-last' },
  { file: 'crawl-lanes-cancelled.json', workflowId: 'crawl-lanes-cancelled' },
  { file: 'crawl-lanes-delay-waits.json', workflowId: 'crawl-lanes-delay' },
];

describe('workflow replay', () => {
  it.each(histories)('replays $file with the current workflow code', async ({ file, workflowId }) => {
    const json: unknown = JSON.parse(readFileSync(new URL(`./fixtures/histories/${file}`, import.meta.url), 'utf8'));
    const workflowBundle = await bundleWorkflows();
    await expect(Worker.runReplayHistory({ workflowBundle }, historyFromJSON(json), workflowId)).resolves.toBeUndefined();
  }, 120_000);
});
