/**
 * The official Python SDK (firecrawl-py) driven from tests: each call runs test/sdk/sdk_call.py in
 * the SDK venv (STACK_SDK_PYTHON, installed by `./scripts/stack setup|test` from
 * test/sdk/requirements.txt) as a child process, on the client the test names (the v1 clients or
 * the default v2 ones, sync or async), and returns what the SDK returned, as JSON.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { repoRoot } from '../../scripts/stack-config.js';

const driver = join(repoRoot, 'test', 'sdk', 'sdk_call.py');
const requirements = join(repoRoot, 'test', 'sdk', 'requirements.txt');

/**
 * The SDK's clients: V1FirecrawlApp (requests) and AsyncV1FirecrawlApp (aiohttp) call the v1 API;
 * Firecrawl (requests) and AsyncFirecrawl (httpx), the package's default clients, the v2 API.
 */
export type PythonSdkClient = 'V1FirecrawlApp' | 'AsyncV1FirecrawlApp' | 'Firecrawl' | 'AsyncFirecrawl';

/**
 * What a call gave: its return value, or the exception it raised with its HTTP status, the SDK's
 * error code (v2 clients) and the error response's JSON body (null when there was none).
 */
export type PyOutcome = { ok: true; result: unknown } | { ok: false; error: string; type: string; status: number | null; code: string | null; body: unknown };

/** An SDK call that raised: its message, exception class, HTTP status and body, plus the SDK's log lines. */
export class PythonSdkError extends Error {
  constructor(
    /** `Firecrawl.scrape`, `V1FirecrawlApp.scrape_url` and the like. */
    readonly call: string,
    readonly outcome: Extract<PyOutcome, { ok: false }>,
    readonly log: string,
  ) {
    super(`${call} raised ${outcome.type} (HTTP ${outcome.status ?? 'none'}): ${outcome.error}${log ? `\nSDK log:\n${log}` : ''}`);
  }
}

function run(python: string, args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The pinned SDK version (test/sdk/requirements.txt). */
export const pinnedSdkVersion = (): string => {
  const pin = /^firecrawl-py==(.+)$/m.exec(readFileSync(requirements, 'utf8'));
  if (!pin) throw new Error(`${requirements} pins no firecrawl-py version`);
  return pin[1]!.trim();
};

/**
 * The SDK venv's python, after checking it runs and has the pinned SDK. Throws, saying what to do,
 * when it does not: these tests fail rather than skip.
 */
export async function sdkPython(): Promise<string> {
  const python = inject('sdkPythonPath');
  const fix = 'run ./scripts/stack setup (it installs test/sdk/requirements.txt into .stack/sdk-venv), or set STACK_SDK_PYTHON';
  try {
    accessSync(python, constants.X_OK);
  } catch {
    throw new Error(`The Python SDK venv is missing: STACK_SDK_PYTHON=${python} is not an executable; ${fix}`);
  }
  const probe = await run(python, ['-c', "import importlib.metadata as m, firecrawl; print(m.version('firecrawl-py'))"], '');
  const want = pinnedSdkVersion();
  if (probe.code !== 0 || probe.stdout.trim() !== want) {
    throw new Error(`${python} does not have firecrawl-py ${want} (exit ${probe.code}, printed ${JSON.stringify(probe.stdout.trim())}): ${probe.stderr.trim()}; ${fix}`);
  }
  return python;
}

export interface PythonSdk {
  /**
   * Call `<client>.<method>(*args, **kwargs)`; resolves with its return value as JSON (models by
   * their snake_case field names, None left out), rejects with a PythonSdkError if it raised.
   * `scrape_options` and `pagination_config` objects, and any `{ $model: 'JsonFormat', ... }`, are
   * handed to the SDK as its models (test/sdk/sdk_call.py).
   */
  call<T = Record<string, unknown>>(method: string, args?: unknown[], kwargs?: Record<string, unknown>): Promise<T>;
}

/** A client of the SDK for these calls, after checking the venv has the pinned SDK. */
export async function pythonSdk(apiUrl: string, apiKey: string, client: PythonSdkClient): Promise<PythonSdk> {
  const python = await sdkPython();
  return {
    async call<T>(method: string, args: unknown[] = [], kwargs: Record<string, unknown> = {}) {
      const { code, stdout, stderr } = await run(python, [driver], JSON.stringify({ apiUrl, apiKey, client, method, args, kwargs }));
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) throw new Error(`${driver} ${client}.${method} exited ${code}: ${stderr.trim() || stdout.trim()}`);
      const outcome = JSON.parse(line) as PyOutcome;
      if (!outcome.ok) throw new PythonSdkError(`${client}.${method}`, outcome, stderr.trim());
      // What the SDK logged on its way (a paging request that failed, say) explains a wrong count.
      if (stderr.trim()) process.stderr.write(`${client}.${method} logged:\n${stderr.trim()}\n`);
      return outcome.result as T;
    },
  };
}

/** The PythonSdkError of a call that should raise; anything else (a return value, another failure) fails the test. */
export async function raised(call: Promise<unknown>): Promise<PythonSdkError> {
  const err = await call.then(
    (value) => new Error(`the SDK returned ${JSON.stringify(value).slice(0, 300)}`),
    (e: unknown) => e,
  );
  if (!(err instanceof PythonSdkError)) throw err;
  return err;
}
