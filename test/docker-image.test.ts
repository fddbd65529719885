/**
 * The Dockerfile builds an image that can run what compose and the Helm chart start in it: every
 * file the entrypoints import (or load beside themselves) is copied in, and every package they
 * import is a production dependency (the image prunes the others). No Docker engine runs here, so
 * this follows the import graph with esbuild instead of building the image.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { processScripts, projectFiles } from '../scripts/infra/project-files.js';
import { repoRoot } from '../scripts/stack-config.js';

const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };

/** What the Dockerfile copies into the image: the sources of each COPY line (its last word is the destination). */
const copied = [...dockerfile.matchAll(/^COPY (.+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/).slice(0, -1));
const inImage = (file: string) => copied.some((src) => file === src || file.startsWith(`${src.replace(/\/$/, '')}/`));

/** The last word of a package.json script: its entry file. */
const scriptEntry = (name: string) => pkg.scripts[name]!.trim().split(/\s+/).at(-1)!;

/**
 * What runs in the image: the three processes (package.json start scripts), the key and user
 * commands operators run there, the migrations, the build steps of the Dockerfile itself (`tsx
 * <file>`), and the convert thread, which worker/convert-pool.ts loads by file name.
 */
const entries = [
  ...Object.values(processScripts).map(scriptEntry),
  scriptEntry('keys'),
  scriptEntry('users'),
  projectFiles.migrate,
  ...[...dockerfile.matchAll(/tsx (scripts\/\S+\.ts)/g)].map((m) => m[1]!),
  'worker/convert-thread.ts',
];

async function importGraph() {
  const result = await build({ entryPoints: entries.map((e) => join(repoRoot, e)), bundle: true, platform: 'node', format: 'esm', packages: 'external', metafile: true, write: false, outdir: '/unused', logLevel: 'silent' });
  return result.metafile;
}

describe('the Docker image', () => {
  it('copies every file the entrypoints import', async () => {
    expect(entries).toEqual(expect.arrayContaining(['api/main.ts', 'worker/main.ts', 'browser-service/main.ts', 'scripts/migrate.ts', 'scripts/bundle-workflows.ts', 'scripts/build-dashboard.ts']));
    const files = Object.keys((await importGraph()).inputs).filter((f) => !f.startsWith('node_modules/'));
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((f) => !inImage(f))).toEqual([]);
  });

  it('copies what that code loads beside itself (new URL(<path>, import.meta.url): the workflows, the dashboard, filter lists)', async () => {
    const loaded = Object.keys((await importGraph()).inputs)
      .filter((f) => !f.startsWith('node_modules/'))
      .flatMap((f) => [...readFileSync(join(repoRoot, f), 'utf8').matchAll(/new URL\(\s*['`]([^'`$]+)['`]\s*,\s*import\.meta\.url\s*\)/g)].map((m) => relative(repoRoot, join(repoRoot, dirname(f), m[1]!))));
    expect(loaded).toEqual(expect.arrayContaining(['workflows/index.ts', 'dashboard/dist']));
    // '' is the repository root itself (scripts/stack-config.ts repoRoot): the image's WORKDIR.
    expect(loaded.filter((f) => f !== '' && !inImage(f))).toEqual([]);
    // dashboard/dist is built in the image (git-ignored, so not copied): the API serves it.
    expect(dockerfile).toMatch(/tsx scripts\/build-dashboard\.ts[\s\S]*npm prune --omit=dev/);
  });

  it('needs only production dependencies at run time (dev dependencies are pruned)', async () => {
    const imported = new Set<string>();
    for (const input of Object.values((await importGraph()).inputs)) {
      for (const i of input.imports) if (i.external) imported.add(i.path);
    }
    const packages = [...imported].filter((p) => !p.startsWith('node:') && !builtinModules.includes(p)).map((p) => p.split('/').slice(0, p.startsWith('@') ? 2 : 1).join('/'));
    expect(packages.length).toBeGreaterThan(20);
    expect([...new Set(packages)].filter((p) => !(p in pkg.dependencies)).sort()).toEqual([]);
  });
});
