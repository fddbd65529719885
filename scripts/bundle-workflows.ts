/**
 * Bundles the workflows into one file for WORKFLOW_BUNDLE_PATH, so a worker loads them instead of
 * running webpack at start (a faster start and ~90 MiB less resident memory: webpack, swc and the
 * bundle's sources never load in the worker; bench/worker-memory.ts).
 *
 *   npx tsx scripts/bundle-workflows.ts [--tracing] <out.js>
 *
 * `--tracing`: with the workflow interceptors of traces, for workers with OTEL_EXPORTER_OTLP_ENDPOINT
 * set (README "Traces"); a worker with tracing on given a bundle without them bundles its own at start.
 *
 * Build it from the same code the worker runs: `./scripts/stack up` and the benches rebuild it at
 * every start, the Docker image at build time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleWorkflows } from '../worker/main.js';

export async function writeWorkflowBundle(out: string, options: { tracing?: boolean } = {}): Promise<string> {
  const path = resolve(out);
  const { code } = await bundleWorkflows(options);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, code);
  return path;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const tracing = args[0] === '--tracing';
  const out = args[tracing ? 1 : 0];
  if (!out) {
    console.error('usage: npx tsx scripts/bundle-workflows.ts [--tracing] <out.js>');
    process.exit(2);
  }
  console.log(await writeWorkflowBundle(out, { tracing }));
}
