/**
 * Bundles the workflows into one file for WORKFLOW_BUNDLE_PATH, so a worker loads them instead of
 * running webpack at start (a faster start and ~90 MiB less resident memory: webpack, swc and the
 * bundle's sources never load in the worker; bench/worker-memory.ts).
 *
 *   npx tsx scripts/bundle-workflows.ts <out.js>
 *
 * Build it from the same code the worker runs: `./scripts/stack up` and the benches rebuild it at
 * every start, the Docker image at build time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleWorkflows } from '../worker/main.js';

export async function writeWorkflowBundle(out: string): Promise<string> {
  const path = resolve(out);
  const { code } = await bundleWorkflows();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, code);
  return path;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: npx tsx scripts/bundle-workflows.ts <out.js>');
    process.exit(2);
  }
  console.log(await writeWorkflowBundle(out));
}
