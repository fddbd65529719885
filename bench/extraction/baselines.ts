/**
 * The open-source extractors we measure against, installed into a throwaway folder on first use
 * (pinned, from PyPI and npm) and run as their own processes on a list of pages:
 * trafilatura (Python, the leader on the public benchmarks) and Mozilla Readability.js on jsdom.
 * Their outputs are deterministic, so they are kept per page content hash and version in the same
 * folder; `--fresh` on the bench's command line clears them.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from './datasets.js';

export const TRAFILATURA_VERSION = '2.3.1';
/** jusText (a trafilatura fallback) imports lxml's cleaner, which lxml 6 moved to this package. */
const LXML_HTML_CLEAN_VERSION = '0.4.6';
export const READABILITY_VERSION = '0.6.0';
/** The newest jsdom that runs on Node 20. */
const JSDOM_VERSION = '26.1.0';

export interface Extraction {
  text: string;
  /** CPU milliseconds the extractor spent on the page. */
  ms: number;
}

export interface Baseline {
  name: string;
  version: string;
  run(pages: readonly Page[]): Map<string, Extraction>;
}

const here = import.meta.dirname;

function sh(cmd: string, args: string[], options: { cwd?: string; input?: string } = {}): string {
  return execFileSync(cmd, args, { ...options, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'inherit'] });
}

function installTrafilatura(dir: string): string {
  const python = join(dir, 'venv', 'bin', 'python');
  const stamp = join(dir, 'venv', `.trafilatura-${TRAFILATURA_VERSION}`);
  if (!existsSync(stamp)) {
    console.error(`installing trafilatura ${TRAFILATURA_VERSION} into ${dir}/venv`);
    rmSync(join(dir, 'venv'), { recursive: true, force: true });
    sh('python3', ['-m', 'venv', join(dir, 'venv')]);
    sh(join(dir, 'venv', 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', `trafilatura==${TRAFILATURA_VERSION}`, `lxml_html_clean==${LXML_HTML_CLEAN_VERSION}`]);
    writeFileSync(stamp, '');
  }
  return python;
}

function installReadability(dir: string): string {
  const folder = join(dir, 'readability');
  const stamp = join(folder, `.readability-${READABILITY_VERSION}-jsdom-${JSDOM_VERSION}`);
  if (!existsSync(stamp)) {
    console.error(`installing @mozilla/readability ${READABILITY_VERSION} and jsdom ${JSDOM_VERSION} into ${folder}`);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `@mozilla/readability@${READABILITY_VERSION}`, `jsdom@${JSDOM_VERSION}`], { cwd: folder });
    writeFileSync(stamp, '');
  }
  writeFileSync(join(folder, 'run.mjs'), readFileSync(join(here, 'run-readability.mjs')));
  return folder;
}

/** The installed @mozilla/readability's entry, for running it in-process on our own DOM. */
export function readabilityModule(dir: string): string {
  return join(installReadability(dir), 'node_modules', '@mozilla', 'readability', 'index.js');
}

/** Runs `runner` on the pages whose output is not cached yet, then answers from the cache. */
function cached(dir: string, name: string, version: string, pages: readonly Page[], runner: (todo: Page[]) => Record<string, Extraction>): Map<string, Extraction> {
  const folder = join(dir, 'outputs', `${name}-${version}`);
  mkdirSync(folder, { recursive: true });
  const keyOf = (p: Page) => join(folder, `${createHash('sha256').update(readFileSync(p.path)).update(p.url).digest('hex')}.json`);
  const todo = pages.filter((p) => !existsSync(keyOf(p)));
  if (todo.length > 0) {
    console.error(`${name}: extracting ${todo.length} pages`);
    const fresh = runner(todo);
    for (const p of todo) writeFileSync(keyOf(p), JSON.stringify(fresh[p.id] ?? { text: '', ms: 0 }));
  }
  return new Map(pages.map((p) => [p.id, JSON.parse(readFileSync(keyOf(p), 'utf8')) as Extraction]));
}

const list = (pages: readonly Page[]) => JSON.stringify(pages.map((p) => ({ id: p.id, path: p.path, url: p.url })));

export function baselines(dir: string): Baseline[] {
  return [
    {
      name: 'trafilatura', version: TRAFILATURA_VERSION,
      run: (pages) => cached(dir, 'trafilatura', TRAFILATURA_VERSION, pages, (todo) =>
        JSON.parse(sh(installTrafilatura(dir), [join(here, 'run-trafilatura.py')], { input: list(todo) }))),
    },
    {
      name: 'readability.js', version: READABILITY_VERSION,
      run: (pages) => cached(dir, 'readability', `${READABILITY_VERSION}-jsdom-${JSDOM_VERSION}`, pages, (todo) => {
        const folder = installReadability(dir);
        // jsdom holds on to memory across documents: a fresh process per chunk keeps the heap small.
        const results: Record<string, Extraction> = {};
        for (let i = 0; i < todo.length; i += 50) {
          const input = list(todo.slice(i, i + 50));
          Object.assign(results, JSON.parse(sh(process.execPath, ['--max-old-space-size=4096', join(folder, 'run.mjs')], { cwd: folder, input })));
        }
        return results;
      }),
    },
  ];
}
