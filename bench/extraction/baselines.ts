/**
 * The open-source extractors we measure against, installed into a throwaway folder on first use
 * (pinned, from PyPI, npm and crates.io) and run as their own processes on a list of pages:
 * trafilatura (Python, the leader on the public benchmarks for years), Mozilla Readability.js on
 * jsdom, and rs-trafilatura (a Rust port of trafilatura with a page-type classifier and a profile
 * per type, the best open-source figure on the article-extraction-benchmark's own table today).
 * Their outputs are deterministic, so they are kept per page content hash and version in the same
 * folder; `--fresh` on the bench's command line clears them.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBody } from '../../core/html/decode.js';
import type { Page } from './datasets.js';

export const TRAFILATURA_VERSION = '2.3.1';
/** jusText (a trafilatura fallback) imports lxml's cleaner, which lxml 6 moved to this package. */
const LXML_HTML_CLEAN_VERSION = '0.4.6';
export const READABILITY_VERSION = '0.6.0';
/** The newest jsdom that runs on Node 20. */
const JSDOM_VERSION = '26.1.0';
export const RS_TRAFILATURA_VERSION = '0.2.2';

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

/**
 * rs-trafilatura's `extract_stdin` (HTML on stdin, JSON with `main_content` out), built by cargo
 * into the folder. It needs Rust's toolchain: without cargo the bench stops and says so.
 */
function installRsTrafilatura(dir: string): string {
  const root = join(dir, 'rs-trafilatura');
  const bin = join(root, 'bin', 'extract_stdin');
  const stamp = join(root, `.rs-trafilatura-${RS_TRAFILATURA_VERSION}`);
  if (!existsSync(stamp)) {
    try {
      sh('cargo', ['--version']);
    } catch {
      throw new Error('rs-trafilatura is built with Rust\'s cargo, which this machine does not have: install Rust (https://rustup.rs), or leave rs-trafilatura out of --systems');
    }
    console.error(`building rs-trafilatura ${RS_TRAFILATURA_VERSION} into ${root} (cargo install, a minute or two)`);
    rmSync(root, { recursive: true, force: true });
    sh('cargo', ['install', '--quiet', 'rs-trafilatura', '--version', RS_TRAFILATURA_VERSION, '--root', root, '--bin', 'extract_stdin']);
    writeFileSync(stamp, '');
  }
  return bin;
}

/**
 * The pages through `extract_stdin` (run-rs-trafilatura.py). Its CLI reads stdin as UTF-8, so it
 * gets each page as our pipeline decodes it (trafilatura decodes bytes itself), written to a folder.
 */
function rsTrafilatura(dir: string, bin: string, pages: readonly Page[]): Record<string, Extraction> {
  const folder = join(dir, 'rs-trafilatura', 'input');
  mkdirSync(folder, { recursive: true });
  const input = pages.map((p) => {
    const path = join(folder, `${createHash('sha256').update(p.id).digest('hex')}.html`);
    writeFileSync(path, decodeBody(readFileSync(p.path), undefined, true).text);
    return { id: p.id, path, url: p.url };
  });
  return JSON.parse(sh('python3', [join(here, 'run-rs-trafilatura.py'), bin], { input: JSON.stringify(input) })) as Record<string, Extraction>;
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
    {
      name: 'rs-trafilatura', version: RS_TRAFILATURA_VERSION,
      run: (pages) => cached(dir, 'rs-trafilatura', RS_TRAFILATURA_VERSION, pages, (todo) => rsTrafilatura(dir, installRsTrafilatura(dir), todo)),
    },
  ];
}
