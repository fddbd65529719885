/**
 * The extraction benchmark's datasets, read from folders given on the command line (no third-party
 * page is kept in this repository):
 *
 * - `trafilatura`: trafilatura's evaluation set, the `tests` folder of its repository:
 *   `evaldata.json` (per page: the snippets its extraction must and must not contain) with the pages
 *   under `cache/` and `eval/`. Scored by snippets.
 * - `readability`: Mozilla Readability's test pages, `test/test-pages` of its repository: per folder
 *   `source.html` and `expected.html` (Readability's own output, so that baseline is favoured here).
 *   Scored by shingles against the expected page's text.
 * - `docs`: documentation pages labelled by us (bench/extraction/docs-set.ts builds it). Shingles.
 * - `articles`: Zyte's (scrapinghub's) article-extraction-benchmark, its repository's folder: 181
 *   news and blog pages (`html/*.html.gz`) with human-written article bodies (`ground-truth.json`).
 *   Scored by its own rule (score.ts `articleScore`). Every page is held out: the benchmark that
 *   scores the result, never looked at while tuning.
 * - `wcxb`: the Web Content eXtraction Benchmark (WCXB, CC-BY-4.0), its repository's folder: 2,008
 *   pages of seven kinds (articles, documentation, forums, products, collections, listings, service
 *   pages), each with a human-reviewed main text. One dataset per kind (`wcxb/article`, …); its own
 *   `dev` split is the development part and its `test` split is held out. Shingles.
 *
 * - `fundus`: the test pages of fundus (flairNLP/fundus, MIT), a news scraper with a parser written
 *   by hand for each publisher: `tests/resources/parser/test_data` of its repository, per country a
 *   folder of saved article pages (`<Publisher>_<date>.html.gz`, their addresses in `meta.info`)
 *   and per publisher a JSON of what each parser version extracts. The reference is the body as
 *   those parsers cut it (standfirst, subheadings, paragraphs), without the headline, as Zyte's
 *   bodies are. `fundus/en` holds the English pages, `fundus/other` the rest but Chinese, Japanese
 *   and Korean, whose words no space separates (shingles of such text mean nothing). Shingles.
 *
 * Every page is put in the development or the held-out part by a hash of its name, about 30 % held
 * out; tuning looks at development pages only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ELEMENT_NODE, parseHtml, TEXT_NODE } from '../../core/html/dom.js';

export type Gold = { kind: 'snippets'; want: string[]; unwanted: string[] } | { kind: 'text'; text: string } | { kind: 'article'; text: string };

export interface Page {
  dataset: string;
  id: string;
  path: string;
  url: string;
  gold: Gold;
  heldOut: boolean;
}

const HELD_OUT_SHARE = 0.3;

function isHeldOut(dataset: string, id: string): boolean {
  const h = createHash('sha256').update(`${dataset}\0${id}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < HELD_OUT_SHARE;
}

const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'button', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'ins', 'kbd', 'label', 'mark',
  'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

/** The readable text of an element: text nodes in order, block boundaries as line breaks. */
export function elementText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) parts.push(child.nodeValue ?? '');
      else if (child.nodeType === ELEMENT_NODE) {
        const tag = (child as Element).localName;
        if (SKIP.has(tag)) continue;
        const block = !INLINE.has(tag);
        if (block) parts.push('\n');
        walk(child);
        if (block) parts.push('\n');
      }
    }
  };
  walk(root);
  return parts.join('').replace(/[ \t\u00a0]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
}

export function htmlText(html: string): string {
  const doc = parseHtml(html);
  return elementText(doc.body ?? doc.documentElement);
}

interface TrafilaturaItem {
  file: string;
  with: string[];
  without: string[];
}

export function trafilaturaSet(dir: string): Page[] {
  const data = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8')) as Record<string, TrafilaturaItem>;
  return Object.entries(data).map(([url, item]) => {
    const path = ['cache', 'eval'].map((sub) => join(dir, sub, item.file)).find((p) => existsSync(p));
    if (!path) throw new Error(`trafilatura set: ${item.file} is in neither cache/ nor eval/ under ${dir}`);
    return {
      dataset: 'trafilatura', id: item.file, path, url,
      gold: { kind: 'snippets', want: item.with, unwanted: item.without }, heldOut: isHeldOut('trafilatura', item.file),
    };
  });
}

/**
 * The address a saved page names for itself (its canonical link, else og:url), as a scrape would
 * have it: the URL-dependent rules (`isDocumentUrl`) read every page at a stand-in address as a hub.
 */
function ownAddress(html: string): string | undefined {
  const doc = parseHtml(html);
  const href = doc.querySelector('link[rel~="canonical"]')?.getAttribute('href') ?? doc.querySelector('meta[property="og:url"]')?.getAttribute('content');
  try {
    const url = new URL(href ?? '');
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function readabilitySet(dir: string): Page[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'expected.html')))
    .map((d) => ({
      dataset: 'readability', id: d.name, path: join(dir, d.name, 'source.html'),
      url: ownAddress(readFileSync(join(dir, d.name, 'source.html'), 'utf8')) ?? `http://fakehost/test/${d.name}/`,
      gold: { kind: 'text', text: htmlText(readFileSync(join(dir, d.name, 'expected.html'), 'utf8')) }, heldOut: isHeldOut('readability', d.name),
    }));
}

export interface DocsManifestEntry {
  id: string;
  file: string;
  url: string;
  gold: string;
}

/** The folder bench/extraction/docs-set.ts wrote: manifest.json, pages/ and gold/. */
export function docsSet(dir: string): Page[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as DocsManifestEntry[];
  return manifest.map((e) => ({
    dataset: 'docs', id: e.id, path: join(dir, e.file), url: e.url,
    gold: { kind: 'text', text: readFileSync(join(dir, e.gold), 'utf8') }, heldOut: isHeldOut('docs', e.id),
  }));
}

/** `gz` unzipped to `path` unless it is there already; returns `path`. */
function unzipOnce(gz: string, path: string): string {
  if (!existsSync(path)) writeFileSync(path, gunzipSync(readFileSync(gz)));
  return path;
}

/** The article-extraction-benchmark's folder: every page held out, unzipped into `cacheDir` once. */
export function articlesSet(dir: string, cacheDir: string): Page[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody?: string; url: string }>;
  const out = join(cacheDir, 'articles');
  mkdirSync(out, { recursive: true });
  return Object.entries(truth).map(([id, item]) => {
    const path = unzipOnce(join(dir, 'html', `${id}.html.gz`), join(out, `${id}.html`));
    return { dataset: 'articles', id, path, url: item.url, gold: { kind: 'article', text: item.articleBody ?? '' }, heldOut: true };
  });
}

interface WcxbTruth {
  url?: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth: { main_content?: string };
}

/** WCXB's folder: `dev` pages for development, `test` pages held out, unzipped into `cacheDir` once. */
export function wcxbSet(dir: string, cacheDir: string): Page[] {
  return ['dev', 'test'].flatMap((split) => {
    const out = join(cacheDir, 'wcxb', split);
    mkdirSync(out, { recursive: true });
    return readdirSync(join(dir, split, 'ground-truth')).filter((f) => f.endsWith('.json')).map((f): Page => {
      const id = f.slice(0, -'.json'.length);
      const truth = JSON.parse(readFileSync(join(dir, split, 'ground-truth', f), 'utf8')) as WcxbTruth;
      const path = unzipOnce(join(dir, split, 'html', `${id}.html.gz`), join(out, `${id}.html`));
      const kind = truth._internal?.page_type?.primary ?? 'unknown';
      // Six pages record an empty URL: they are read at the address they name for themselves, as Readability's are.
      const url = truth.url || (ownAddress(readFileSync(path, 'utf8')) ?? `https://wcxb.invalid/${id}`);
      return { dataset: `wcxb/${kind}`, id: `${split}-${id}`, path, url, gold: { kind: 'text', text: truth.ground_truth.main_content ?? '' }, heldOut: split === 'test' };
    });
  });
}

/**
 * L3S-GN1 (Kohlschütter et al., WSDM 2010; research use): 621 English news articles from Google
 * News, 2008, every text block labelled by hand. `annotated/` wraps each block in a span whose
 * class says what it is; the main content here is the headline (`x-nc-sel1`) and the full text
 * (`x-nc-sel2`), not captions (sel3), related links (sel4) or comments (sel5). Pages are read from
 * `original/`, their URLs from `url-mapping.txt`.
 */
export function l3sSet(dir: string): Page[] {
  const urls = new Map(readFileSync(join(dir, 'url-mapping.txt'), 'utf8').split('\n').map((line) => line.match(/^<urn:uuid:([^>]+)>\s+(\S+)/)).filter((m) => m !== null).map((m) => [m[1], m[2]]));
  return readdirSync(join(dir, 'annotated')).filter((f) => f.endsWith('.html')).map((f): Page => {
    const id = f.slice(0, -'.html'.length);
    const doc = parseHtml(readFileSync(join(dir, 'annotated', f), 'utf8'));
    const blocks = [...doc.querySelectorAll('.x-nc-sel1, .x-nc-sel2')].filter((el) => !el.parentElement?.closest('.x-nc-sel1, .x-nc-sel2'));
    const text = blocks.map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()).join('\n');
    return { dataset: 'l3s-gn1', id, path: join(dir, 'original', f), url: urls.get(id) ?? `https://l3s.invalid/${id}`, gold: { kind: 'text', text }, heldOut: isHeldOut('l3s-gn1', id) };
  });
}

interface FundusCase {
  body?: { summary?: string[]; sections?: { headline?: string[]; paragraphs?: string[] }[] };
}

/** Languages whose words no space separates: their pages are left out of the shingle scores. */
const UNSPACED = /^(?:ja|ko|zh)/;
const ENGLISH_GROUPS = new Set(['us', 'uk', 'ca', 'au', 'za', 'na', 'ind', 'my', 'ls', 'tz', 'il']);
const UNSPACED_GROUPS = new Set(['cn', 'jp', 'kr', 'tw']);

/**
 * fundus's test pages (see the top of this file). A publisher's parser versions follow each other in
 * time and each has one saved page, so the n-th oldest page goes with the n-th version.
 */
export function fundusSet(dir: string, cacheDir: string): Page[] {
  const root = join(dir, 'tests', 'resources', 'parser', 'test_data');
  return readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== '__pycache__').flatMap((group) => {
    const folder = join(root, group.name);
    const meta = JSON.parse(readFileSync(join(folder, 'meta.info'), 'utf8')) as Record<string, { url: string }>;
    const out = join(cacheDir, 'fundus', group.name);
    mkdirSync(out, { recursive: true });
    const files = readdirSync(folder);
    return files.filter((f) => f.endsWith('.json')).flatMap((json) => {
      const publisher = json.slice(0, -'.json'.length);
      const cases = JSON.parse(readFileSync(join(folder, json), 'utf8')) as Record<string, FundusCase>;
      const versions = Object.keys(cases).sort((a, b) => versionOrder(a, b));
      const pages = files.filter((f) => f.startsWith(`${publisher}_`) && f.endsWith('.html.gz') && /^\d{4}_\d{2}_\d{2}$/.test(f.slice(publisher.length + 1, -'.html.gz'.length))).sort();
      if (pages.length !== versions.length) throw new Error(`fundus: ${group.name}/${publisher} has ${pages.length} pages for ${versions.length} parser versions`);
      return pages.flatMap((file, i): Page[] => {
        const id = `${group.name}/${file.slice(0, -'.html.gz'.length)}`;
        const path = unzipOnce(join(folder, file), join(out, file.slice(0, -'.gz'.length)));
        const lang = /<html[^>]*\slang="([^"]*)"/i.exec(readFileSync(path, 'latin1').slice(0, 5000))?.[1].toLowerCase() ?? '';
        if (UNSPACED.test(lang) || (!lang && UNSPACED_GROUPS.has(group.name))) return [];
        const english = lang ? lang.startsWith('en') : ENGLISH_GROUPS.has(group.name);
        const body = cases[versions[i]].body;
        const text = [...(body?.summary ?? []), ...(body?.sections ?? []).flatMap((s) => [...(s.headline ?? []), ...(s.paragraphs ?? [])])].join('\n');
        const dataset = english ? 'fundus/en' : 'fundus/other';
        return [{ dataset, id, path, url: meta[file]?.url ?? `https://fundus.invalid/${id}`, gold: { kind: 'text', text }, heldOut: isHeldOut('fundus', id) }];
      });
    });
  });
}

/** `V1` < `V1_1` < `V2` < `V10`. */
function versionOrder(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^V/, '').split('_').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
  return 0;
}
