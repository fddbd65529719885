/**
 * Builds the documentation set of the extraction benchmark from documentation Debian installs
 * locally, with the main content labelled by us: for each generator, the element that holds a
 * page's own content (what a reader came for), less the parts of it that are page chrome.
 *
 *   apt-get install python3-doc rust-doc postgresql-doc-15
 *   apt-get download nodejs-doc && dpkg-deb -x nodejs-doc_*.deb /   # not `apt-get install`: see below
 *   npx tsx bench/extraction/docs-set.ts /tmp/docs-set
 *
 * Five generators, so no one template decides the figure: Sphinx (Python), rustdoc (Rust's
 * standard library), mdBook (the Rust books), DocBook (PostgreSQL) and Node's own generator. Each
 * contributes up to PER_SOURCE pages picked by a hash of their path (stable across runs), of at
 * most MAX_BYTES, whose labelled text has at least MIN_TEXT characters (redirect stubs and indexes
 * fall out). Writes manifest.json, pages/<id>.html (copies) and gold/<id>.txt.
 *
 * Debian's nodejs-doc (Node 18's) depends on Debian's own nodejs: `apt-get install nodejs-doc` on a
 * machine whose Node.js 20 came from NodeSource's package removes that Node.js and npm (seen on
 * 2026-12-04). Unpacking the package's files, as above, leaves the installed Node.js alone.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseHtml } from '../../core/html/dom.js';
import { elementText, type DocsManifestEntry } from './datasets.js';

const PER_SOURCE = 30;
const MAX_BYTES = 400_000;
const MIN_TEXT = 400;

interface Source {
  name: string;
  root: string;
  /** Which files under root are content pages, by path relative to root. */
  include: RegExp;
  exclude?: RegExp;
  /** The page's main content, labelled by us. */
  main: string;
  /** Chrome inside `main` that is not content. */
  drop: string[];
  /** Public address of the same page, for links and metadata. */
  url: (rel: string) => string;
}

const SOURCES: Source[] = [
  {
    name: 'python', root: '/usr/share/doc/python3.11/html', include: /^(library|reference|tutorial|howto|c-api|using|faq)\/[^/]+\.html$/,
    exclude: /(genindex|search|modindex)/, main: 'div[role=main]', drop: ['a.headerlink'],
    url: (rel) => `https://docs.python.org/3.11/${rel}`,
  },
  {
    name: 'rustdoc', root: '/usr/share/doc/rust-doc/html', include: /^(std|core|alloc)\/.*(struct|trait|enum|fn|macro|index)[^/]*\.html$/,
    // Thousands of near-identical SIMD intrinsic pages would otherwise be most of the sample.
    // Version and source links sit between the items they describe: part of the documentation.
    exclude: /\/arch\//, main: '#main-content', drop: [],
    url: (rel) => `https://doc.rust-lang.org/1.63.0/${rel}`,
  },
  {
    name: 'mdbook', root: '/usr/share/doc/rust-doc/html', include: /^(book|reference|rust-by-example|nomicon|edition-guide|rustc|cargo)\/.+\.html$/,
    exclude: /(print|toc|404)\.html$/, main: 'main', drop: [],
    url: (rel) => `https://doc.rust-lang.org/1.63.0/${rel}`,
  },
  {
    name: 'postgresql', root: '/usr/share/doc/postgresql-doc-15/html', include: /^[^/]+\.html$/, exclude: /^(index|bookindex)\.html$/,
    main: 'body', drop: ['.navheader', '.navfooter'],
    url: (rel) => `https://www.postgresql.org/docs/15/${rel}`,
  },
  {
    name: 'node', root: '/usr/share/doc/nodejs/api', include: /^[^/]+\.html$/, exclude: /^(all|index)\.html$/,
    main: '#apicontent', drop: [],
    url: (rel) => `https://nodejs.org/docs/latest-v18.x/api/${rel}`,
  },
];

function listFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(root, full));
    else if (entry.isFile()) out.push(relative(root, full));
  }
  return out;
}

const rank = (s: string): string => createHash('sha256').update(s).digest('hex');

function label(source: Source, html: string): string | undefined {
  const doc = parseHtml(html);
  const main = doc.querySelector(source.main);
  if (!main) return undefined;
  for (const selector of source.drop) for (const el of Array.from(main.querySelectorAll(selector))) el.remove();
  const text = elementText(main);
  return text.length >= MIN_TEXT ? text : undefined;
}

const out = process.argv[2];
if (!out) {
  console.error('usage: npx tsx bench/extraction/docs-set.ts <output folder>');
  process.exit(2);
}
mkdirSync(join(out, 'pages'), { recursive: true });
mkdirSync(join(out, 'gold'), { recursive: true });
const manifest: DocsManifestEntry[] = [];
for (const source of SOURCES) {
  if (!existsSync(source.root)) {
    console.error(`${source.name}: ${source.root} is missing (see the top of bench/extraction/docs-set.ts for how to install it)`);
    process.exit(1);
  }
  const files = listFiles(source.root)
    .filter((rel) => source.include.test(rel) && !source.exclude?.test(rel))
    .filter((rel) => statSync(join(source.root, rel)).size <= MAX_BYTES)
    .sort((a, b) => rank(a).localeCompare(rank(b)));
  let taken = 0;
  for (const rel of files) {
    if (taken === PER_SOURCE) break;
    const gold = label(source, readFileSync(join(source.root, rel), 'utf8'));
    if (!gold) continue;
    const id = `${source.name}-${rel.replace(/[^A-Za-z0-9.]+/g, '_')}`;
    copyFileSync(join(source.root, rel), join(out, 'pages', `${id}.html`));
    writeFileSync(join(out, 'gold', `${id}.txt`), gold);
    manifest.push({ id, file: `pages/${id}.html`, url: source.url(rel), gold: `gold/${id}.txt` });
    taken++;
  }
  console.log(`${source.name}: ${taken} pages`);
}
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1));
console.log(`${manifest.length} pages in ${out}`);
