/**
 * Builds the dashboard's browser app into dashboard/dist (or the folder given): assets/app.js and
 * assets/app.css (esbuild, minified, no source maps, ES2020) and index.html, which loads them from
 * /dashboard/assets/ (dashboard/CONTRACT.md). The CSP allows no inline script or style, so
 * index.html has neither.
 *
 *   npx tsx scripts/build-dashboard.ts [outDir]
 *
 * The same sources give the same bytes: no timestamps, no hashes in names, and the assets folder
 * emptied before writing so nothing stale is left behind.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ASSETS_URL = '/dashboard/assets';

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Pagewright dashboard</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${ASSETS_URL}/app.css">
    <script type="module" src="${ASSETS_URL}/app.js"></script>
  </head>
  <body>
    <div id="app"></div>
    <noscript>The dashboard needs JavaScript.</noscript>
  </body>
</html>
`;

export interface DashboardBuild {
  outDir: string;
  /** Each file written, with its size in bytes. */
  files: { path: string; bytes: number }[];
}

export async function buildDashboard(outDir = join(root, 'dashboard', 'dist')): Promise<DashboardBuild> {
  const out = resolve(outDir);
  const assets = join(out, 'assets');

  // Built in memory first: a failed build leaves the previous one in place, whole.
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: join(root, 'dashboard', 'src', 'main.tsx') },
    outdir: assets,
    write: false,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'dashboard', 'tsconfig.json'),
    legalComments: 'eof',
    logLevel: 'silent',
  });
  rmSync(assets, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  writeFileSync(join(out, 'index.html'), indexHtml);

  const files = [join(assets, 'app.js'), join(assets, 'app.css'), join(out, 'index.html')].map((path) => ({
    path,
    bytes: statSync(path).size,
  }));
  return { outDir: out, files };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const result = await buildDashboard(process.argv[2]);
    const sizes = result.files.map((file) => `${relative(result.outDir, file.path)} ${(file.bytes / 1024).toFixed(1)} KiB`);
    console.log(`dashboard built in ${relative(process.cwd(), result.outDir) || '.'}: ${sizes.join(', ')}`);
  } catch (error) {
    // esbuild's failure lists every error with its file and line.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
