/**
 * The crawl benchmark's site: `n` generated pages of ~8.5 KB under a folder (`/site/`), served by
 * a bare node:http server in a process of its own, so serving never competes with a crawler's
 * event loop. Page 0 is the folder itself; page i links to its children 2i+1 and 2i+2 (a binary
 * tree, so every page is reachable from the seed), to its parent, and to three more pages chosen
 * by formula (a graph: crawlers must deduplicate). Site chrome also links outside the folder and
 * off the site, so both crawlers filter links as on a real site. Deterministic: every run serves
 * byte-identical pages.
 *
 *   node --import tsx bench/crawl-site.ts <folder>:<pages> [<folder>:<pages> ...]
 *
 * Started through `startSite` (fork, IPC): the child reports its port once listening, answers
 * `{ type: 'hits' }` with the requests counted per folder since the last `{ type: 'reset' }`, and
 * exits when its parent goes away. Folders whose name starts with `/etag` send an ETag with each
 * page and answer a matching If-None-Match with 304 (bench/recheck.ts).
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Target page size in bytes (UTF-8). */
export const PAGE_BYTES = 8_500;

const words = (
  'crawl index page query cache worker queue durable server request response header body token '
  + 'markdown document storage network latency throughput schedule retry timeout backoff signal '
  + 'history event activity workflow deploy cluster replica shard commit rollback migration schema '
  + 'the a of to and in is for on with as by that it from at this be are was or an which not'
).split(' ');

/** Small linear congruential generator, seeded per page. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function sentence(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words[Math.floor(r() * words.length)]);
  const text = out.join(' ');
  return text[0].toUpperCase() + text.slice(1);
}

/** Path of page `i` in `folder` (`/site/`): the folder itself for 0, else `/site/page-<i>`. */
export function pagePath(folder: string, i: number): string {
  return i === 0 ? folder : `${folder}page-${i}`;
}

/** Links from page i to other pages of the site: children, parent and three more. */
function siteLinks(i: number, n: number): number[] {
  const out = [2 * i + 1, 2 * i + 2].filter((c) => c < n);
  if (i > 0) out.push(Math.floor((i - 1) / 2));
  for (const k of [7, 31, 127]) out.push((i * k + 13) % n);
  return out;
}

export function sitePage(folder: string, i: number, n: number): string {
  const r = rng(i * 7919 + folder.length);
  const title = `${sentence(r, 4)} (${i})`;
  const links = siteLinks(i, n).map((j) => `<li><a href="${pagePath(folder, j)}">${sentence(r, 3)}</a></li>`).join('');
  const top = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="${sentence(r, 12)}">
<link rel="stylesheet" href="/static/site.css"><script>window.dataLayer = window.dataLayer || [];</script>
</head><body>
<header><a href="/">Home</a><nav><ul><li><a href="/about">About</a></li><li><a href="/blog/">Blog</a></li><li><a href="/docs/start">Docs</a></li><li><a href="https://example.org/partner">Partner</a></li></ul></nav></header>
<main><article><h1>${title}</h1>
<nav class="toc"><ul><li><a href="#s0">Overview</a></li><li><a href="#s1">Details</a></li></ul></nav>
`;
  const bottom = `<h2>Related pages</h2><ul>${links}</ul>
</article></main>
<aside><h3>Elsewhere</h3><ul><li><a href="https://example.com/reference/${i}">Reference</a></li><li><a href="mailto:team@example.com">Mail us</a></li></ul></aside>
<footer><p>&copy; Example Docs</p><a href="/privacy">Privacy</a></footer>
</body></html>
`;
  let body = '';
  for (let s = 0; top.length + body.length + bottom.length < PAGE_BYTES; s++) {
    body += `<h2 id="s${s}">${sentence(r, 5)}</h2>\n`;
    body += `<p>${sentence(r, 18)} <strong>${sentence(r, 2)}</strong> ${sentence(r, 14)}, <em>${sentence(r, 3)}</em> ${sentence(r, 12)}.</p>\n`;
    body += `<p>${sentence(r, 22)} <code>retry_${s}()</code> ${sentence(r, 16)}.</p>\n`;
    if (s % 3 === 1) body += `<ul><li>${sentence(r, 7)}</li><li>${sentence(r, 9)}</li><li>${sentence(r, 6)}</li></ul>\n`;
    if (s % 3 === 2) body += `<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>${sentence(r, 2)}</td><td>${Math.floor(r() * 1000)}</td></tr><tr><td>${sentence(r, 2)}</td><td>${Math.floor(r() * 1000)}</td></tr></tbody></table>\n`;
  }
  return top + body + bottom;
}

/** Serves the given folders (`/site/` → page count) until killed; counts every request by path. */
async function serve(folders: Array<[string, number]>): Promise<void> {
  const pages = new Map<string, Buffer>();
  for (const [folder, n] of folders) for (let i = 0; i < n; i++) pages.set(pagePath(folder, i), Buffer.from(sitePage(folder, i, n)));
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = pages.get(path);
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    // Folders named /etag.../ send validators and honour them (bench/recheck.ts); the pages never change.
    if (path.startsWith('/etag')) {
      const etag = `"${page.byteLength.toString(16)}-${path.length}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.byteLength, etag }).end(page);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.byteLength }).end(page);
  });
  // Crawlers keep connections open between pages; the default 5 s keep-alive would drop idle ones mid-crawl.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  process.on('message', (msg: { type?: string }) => {
    if (msg.type === 'reset') hits.clear();
    if (msg.type !== 'hits') return;
    const out: Hits = {};
    for (const [folder] of folders) out[folder] = { total: 0, distinct: 0, max: 0 };
    for (const [path, count] of hits) {
      const folder = folders.find(([f]) => path.startsWith(f))?.[0];
      if (!folder) continue;
      out[folder].total += count;
      out[folder].distinct++;
      out[folder].max = Math.max(out[folder].max, count);
    }
    process.send?.({ type: 'hits', hits: out });
  });
  // The parent's end is ours: no orphaned server.
  process.on('disconnect', () => process.exit(0));
  const port = (server.address() as AddressInfo).port;
  // Run by hand (no IPC channel): say where it listens.
  if (process.send) process.send({ type: 'ready', port });
  else console.log(`crawl-site: http://127.0.0.1:${port}${folders.map(([f, n]) => ` ${f} (${n} pages)`).join(',')}`);
}

/** Per folder: requests, distinct paths requested, and the most requests for one path. */
export type Hits = Record<string, { total: number; distinct: number; max: number }>;

export interface SiteProcess {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  pid: number;
  /** Requests per folder since the last reset: all of them, distinct paths, the most for one path. */
  hits(): Promise<Hits>;
  /** Resolves once the site has dropped its counts (a hits round trip after the reset message). */
  resetHits(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the site in a child process (`node --import tsx`), ready once it listens. */
export async function startSite(folders: Record<string, number>, timeoutMs = 60_000): Promise<SiteProcess> {
  const child = fork(fileURLToPath(import.meta.url), Object.entries(folders).map(([f, n]) => `${f}:${n}`), {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fixture site did not start within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`the fixture site exited (${code}) before listening`)));
    child.on('message', (msg: { type?: string; port?: number }) => {
      if (msg.type !== 'ready' || !msg.port) return;
      clearTimeout(timer);
      resolve(msg.port);
    });
  });
  const hits = () =>
    new Promise<Hits>((resolve) => {
      const onMessage = (msg: { type?: string; hits?: Hits }) => {
        if (msg.type !== 'hits' || !msg.hits) return;
        child.off('message', onMessage);
        resolve(msg.hits);
      };
      child.on('message', onMessage);
      child.send({ type: 'hits' });
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    hits,
    async resetHits() {
      child.send({ type: 'reset' });
      await hits();
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const folders = process.argv.slice(2).map((arg) => {
    const [folder, n] = arg.split(':');
    if (!folder.startsWith('/') || !folder.endsWith('/') || !(Number(n) > 0)) throw new Error(`crawl-site: expected <folder>:<pages> like /site/:2000, got ${arg}`);
    return [folder, Number(n)] as [string, number];
  });
  await serve(folders);
}
