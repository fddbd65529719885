/**
 * Preloaded into the worker process by bench/worker-memory.ts (plain JavaScript: a worker thread
 * loads its `--import` modules before tsx's loader is in place there, so a .ts file fails to load):
 * `node --import tsx --import '<this file>?dir=<dir>[&workerOptions=<json>][&bundle=<file>]' worker/main.ts`.
 *
 * Node gives worker threads the parent's execArgv, so this also runs in every thread: the convert
 * pool's Piscina threads and the Temporal SDK's workflow thread. Each thread writes its V8 heap
 * figures (now, and peaks since start) to `<dir>/thread-<threadId>.json` every 200 ms (Piscina's
 * threads: whenever they go idle, see below).
 *
 * On the main thread it also records the process's RSS around the Temporal SDK's start-up calls
 * (`<dir>/stages.json`), and, for trying options without editing worker/main.ts, it can merge
 * `workerOptions` into every `Worker.create` call and make `bundleWorkflowCode` return a bundle
 * built beforehand (`bundle`), as a build step would. Without those two it changes nothing but
 * one unref'd timer per thread.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';

const MiB = 1024 * 1024;

/** Shapes (ThreadMemory, Stage): see bench/worker-memory.ts. */

const params = new URL(import.meta.url).searchParams;
const dir = params.get('dir');
const require = createRequire(import.meta.url);

/** Written whole, then renamed, so the bench never reads half a file. */
function writeJson(file, value) {
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}

/** Set once the thread blocks in Atomics.wait: only Piscina's threads do, between tasks. */
let waitsOnAtomics = false;

/** @returns {'main' | 'convert' | 'workflow' | 'other'} */
function role() {
  if (threadId === 0) return 'main';
  if (waitsOnAtomics) return 'convert';
  if (Object.keys(require.cache).some((f) => /workflow-worker-thread/.test(f))) return 'workflow';
  return 'other';
}

function cjsModules() {
  /** @type {Record<string, number>} */
  const out = {};
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)/.exec(file);
    const name = m ? m[1] : '(project)';
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** @param {string} dir */
function sampleThread(dir) {
  let peakHeapTotal = 0;
  let peakHeapUsed = 0;
  let peakExternal = 0;
  const sample = () => {
    const h = getHeapStatistics();
    peakHeapTotal = Math.max(peakHeapTotal, h.total_heap_size / MiB);
    peakHeapUsed = Math.max(peakHeapUsed, h.used_heap_size / MiB);
    peakExternal = Math.max(peakExternal, h.external_memory / MiB);
    const m = {
      threadId,
      role: role(),
      heapTotal: h.total_heap_size / MiB,
      heapUsed: h.used_heap_size / MiB,
      malloced: h.malloced_memory / MiB,
      external: h.external_memory / MiB,
      heapLimit: h.heap_size_limit / MiB,
      spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size / MiB])),
      peakHeapTotal,
      peakHeapUsed,
      peakExternal,
      cjsModules: cjsModules(),
    };
    writeJson(`${dir}/thread-${threadId}.json`, m);
  };
  setInterval(sample, 200).unref();
  sample();
  // A Piscina thread blocks its event loop in Atomics.wait while it has no task, so its timers do
  // not run: it samples on its way into each wait instead (at most every 200 ms).
  const wait = Atomics.wait;
  let last = 0;
  Atomics.wait = (...args) => {
    waitsOnAtomics = true;
    if (performance.now() - last >= 200) {
      last = performance.now();
      sample();
    }
    return wait(...args);
  };
}

/** Main thread: RSS around the SDK's start-up calls, and the option overrides. */
/** @param {string} dir */
function instrumentMainThread(dir) {
  const t0 = performance.now();
  const stages = [];
  /** @param {string} label */
  const mark = (label) => {
    const h = getHeapStatistics();
    stages.push({ label, ms: performance.now() - t0, rssMiB: process.memoryUsage.rss() / MiB, heapTotal: h.total_heap_size / MiB, heapUsed: h.used_heap_size / MiB });
    writeJson(`${dir}/stages.json`, stages);
  };
  mark('process start (node, and tsx when used)');
  // The SDK's CommonJS modules, patched before worker/main.ts imports them (its ESM view reads them then).
  const sdk = require('@temporalio/worker');
  const bundler = require('@temporalio/worker/lib/workflow/bundler');
  mark('@temporalio/worker loaded (webpack, native bridge)');

  /** @type {<A extends unknown[], R>(label: string, fn: (...args: A) => Promise<R>) => (...args: A) => Promise<R>} */
  const wrap = (label, fn) =>
    async (...args) => {
      mark(`before ${label}`);
      const result = await fn(...args);
      mark(`after ${label}`);
      return result;
    };
  const prebuilt = params.get('bundle');
  const originalBundle = bundler.bundleWorkflowCode;
  bundler.bundleWorkflowCode = wrap('bundleWorkflowCode', prebuilt ? async () => ({ code: readFileSync(prebuilt, 'utf8') }) : originalBundle);
  const overrides = JSON.parse(params.get('workerOptions') ?? '{}');
  const create = sdk.Worker.create.bind(sdk.Worker);
  sdk.Worker.create = wrap('Worker.create', (options) => create({ ...options, ...overrides }));
  const connect = sdk.NativeConnection.connect.bind(sdk.NativeConnection);
  sdk.NativeConnection.connect = wrap('NativeConnection.connect', connect);
}

if (dir) {
  mkdirSync(dir, { recursive: true });
  if (threadId === 0) instrumentMainThread(dir);
  sampleThread(dir);
}
