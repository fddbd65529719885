/**
 * Each process started the way the Helm chart and docker-compose.yml start it, `npm run --silent
 * <script>`, answers the chart's startup, liveness and readiness probes (their paths read from the
 * rendered chart), and stops cleanly on the SIGTERM a container stop sends to npm, its main
 * process: npm forwards it, and the script's `exec` makes node the one that receives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { processScripts } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { repoRoot } from '../scripts/stack-config.js';
import { testEnv } from './helpers/env.js';
import { ciValues, containerOf, fullname, helmTemplate, object, type Container } from './helpers/deploy.js';
import { uniqueTaskQueue } from './helpers/worker.js';

/** npm beside the node running the tests (the machine's or ./scripts/stack's), else on PATH. */
const npm = existsSync(join(dirname(process.execPath), 'npm')) ? join(dirname(process.execPath), 'npm') : 'npm';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
const started: Started[] = [];
/** Kill the whole process group: npm, and a node left behind if a script lost its `exec`. */
afterEach(() => {
  for (const s of started.splice(0)) {
    try {
      process.kill(-s.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function startScript(script: string, env: Record<string, string>): Started {
  // npm as in the image: no update check, no log files; a HOME of its own.
  const home = mkdtempSync(join(tmpdir(), 'npm-home-'));
  const child = spawn(npm, ['run', '--silent', script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: home, NPM_CONFIG_UPDATE_NOTIFIER: 'false', NPM_CONFIG_LOGS_MAX: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, so afterEach can end everything npm started.
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const s = { child, output: () => output, exited };
  started.push(s);
  return s;
}

async function waitFor(s: Started, check: () => Promise<boolean> | boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`exited before ${what}:\n${s.output().slice(-3000)}`);
    // Refused connections while the process starts count as "not yet".
    const ok = await Promise.resolve()
      .then(check)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${what} within ${timeoutMs} ms:\n${s.output().slice(-3000)}`);
}

const get = (url: string) => fetch(url, { signal: AbortSignal.timeout(5000) });

/** The chart's probe paths for one Deployment: startup, liveness, readiness. */
function probePaths(part: string): string[] {
  const c: Container = containerOf(object(helmTemplate([ciValues.minimal]), 'Deployment', `${fullname}-${part}`));
  return [c.startupProbe, c.livenessProbe, c.readinessProbe].map((p) => p!.httpGet!.path);
}

async function expectProbes(port: number, paths: string[]): Promise<void> {
  for (const path of paths) {
    const res = await get(`http://127.0.0.1:${port}${path}`);
    expect(res.status, path).toBe(200);
  }
}

async function stopWithSigterm(s: Started): Promise<void> {
  s.child.kill('SIGTERM');
  expect(await s.exited).toEqual({ code: 0, signal: null });
}

describe('the processes as the chart starts them', () => {
  it(`api (npm run ${processScripts.api}): /health and /ready answer, and SIGTERM stops it cleanly`, async () => {
    const paths = probePaths('api');
    expect(paths).toEqual(['/health', '/health', '/ready']);
    const port = await freePort();
    const api = startScript(processScripts.api, testEnv({ API_HOST: '127.0.0.1', API_PORT: String(port), AUTH_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info' }));
    await waitFor(api, async () => (await get(`http://127.0.0.1:${port}/health`)).ok, 'GET /health answering');
    await expectProbes(port, paths);
    expect(await (await get(`http://127.0.0.1:${port}/ready`)).json()).toMatchObject({ success: true, status: 'ready', checks: { database: 'up', keyValueStore: 'up' } });
    await stopWithSigterm(api);
  });

  it(`worker (npm run ${processScripts.worker}): /health on the scrape endpoint answers without a token, and SIGTERM stops it cleanly`, async () => {
    const paths = probePaths('worker');
    expect(paths).toEqual(['/health', '/health', '/health']);
    const port = await freePort();
    const worker = startScript(processScripts.worker, testEnv({ WORKER_SCRAPE_HOST: '127.0.0.1', WORKER_SCRAPE_PORT: String(port), TEMPORAL_TASK_QUEUE: uniqueTaskQueue('probes'), LOG_LEVEL: 'info' }));
    await waitFor(worker, async () => (await get(`http://127.0.0.1:${port}/health`)).ok, 'GET /health answering');
    await expectProbes(port, paths);
    const health = await get(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Everything else on that port still wants the scrape token or is not there.
    expect((await fetch(`http://127.0.0.1:${port}/scrape`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await get(`http://127.0.0.1:${port}/nothing`)).status).toBe(404);
    await waitFor(worker, () => worker.output().includes('worker polling'), 'the worker polling');
    await stopWithSigterm(worker);
    expect(worker.output()).toContain('worker stopped');
  });

  it(`browser service (npm run ${processScripts.browser}): /health answers with the pool's figures, and SIGTERM stops it cleanly`, async () => {
    const paths = probePaths('browser');
    expect(paths).toEqual(['/health', '/health', '/health']);
    const port = await freePort();
    const browser = startScript(processScripts.browser, { NODE_ENV: 'test', PORT: String(port), BROWSER_SERVICE_HOST: '127.0.0.1', BROWSER_ENGINE_TOKEN: 'probe-token-0123456789', CHROMIUM_PATH: inject('chromiumPath'), LOG_LEVEL: 'info' });
    await waitFor(browser, async () => (await get(`http://127.0.0.1:${port}/health`)).ok, 'GET /health answering');
    await expectProbes(port, paths);
    expect(await (await get(`http://127.0.0.1:${port}/health`)).json()).toMatchObject({ success: true, status: 'ok' });
    await stopWithSigterm(browser);
    expect(browser.output()).toContain('browser service draining');
  });
});
