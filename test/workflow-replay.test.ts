/**
 * Deploying new workflow code must not break crawls already running: histories recorded with
 * earlier versions replay with today's code without a determinism error. Each file under
 * test/fixtures/histories is a real history from the version named in its entry below.
 */
import { readFileSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { bundleWorkflows } from '../worker.js';

const histories = [
  // A 61-page crawl recorded before the window refilled only when half empty (commit dfc29c5):
  // it claims again with 31 pages in flight, which today's rule would not.
  { file: 'crawl-61-pages-refill-every-slot.json', workflowId: 'crawl-before-claim-half-window' },
];

describe('workflow replay', () => {
  it.each(histories)('replays $file with the current workflow code', async ({ file, workflowId }) => {
    const json: unknown = JSON.parse(readFileSync(new URL(`./fixtures/histories/${file}`, import.meta.url), 'utf8'));
    const workflowBundle = await bundleWorkflows();
    await expect(Worker.runReplayHistory({ workflowBundle }, historyFromJSON(json), workflowId)).resolves.toBeUndefined();
  }, 120_000);
});
