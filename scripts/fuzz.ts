/**
 * Fuzz the API from its own OpenAPI document (GET /api-reference) with schemathesis, against a
 * throwaway stack (scripts/fuzz/target.ts) in a private network namespace.
 *
 *   npx tsx scripts/fuzz.ts                 CI size: 150 generated cases per operation (3–5 min)
 *   npx tsx scripts/fuzz.ts --full          2,000 per operation, and at least 2,000 requests each
 *   options: --examples N  --min-requests N  --seed N  --parallel N  --out DIR
 *
 * Why schemathesis (pinned below, installed into .stack/venv beside the Temporal CLI): it derives
 * valid and deliberately invalid requests from every schema keyword (boundaries, wrong types,
 * unknown fields, bad formats), sends requests without or with wrong credentials, probes
 * undeclared methods, and checks answers against the document; writing that generator again in
 * TypeScript would be most of the work for less coverage. What it cannot do is reach 2,000
 * requests for operations with almost no input (GET /health), so a seeded top-up
 * (scripts/fuzz/top-up.ts) sends the rest, with random credentials, query strings and headers.
 * A hook (scripts/fuzz/hooks.py) swaps realistic target URLs into half the bodies, so requests
 * also travel through Temporal and the worker instead of stopping at the API's URL checks.
 * Then the dashboard's JSON endpoints, from a document built from their own schemas
 * (api/dashboard/openapi.ts), signed in as an admin with the CSRF token: no 5xx (schemathesis's
 * not_a_server_error and the recorder), every error in the envelope (the recorder), and every
 * successful answer matching the schema its route declares (response_schema_conformance).
 *
 * No request may reach the internet: generated URLs name random hosts and random public
 * addresses. The whole run (databases, worker, Chromium, API and fuzzer) happens inside
 * `unshare --net`, where only loopback exists, checked before anything starts; and the service
 * resolves names only through DNS_SERVERS, pointed at a closed loopback port. Needs root (or
 * CAP_SYS_ADMIN) for the namespace; without one the run refuses to start.
 *
 * Verdict (exit 0 only if all hold; details in <out>/summary.json and <out>/schemathesis-*.log):
 * every operation got at least --min-requests requests; the API's own recorder
 * (scripts/fuzz/recorder.ts) saw no 5xx, no error outside the envelope, no undocumented status or
 * content type, no body off its schema, and no request running past HANG_MS; schemathesis reported
 * no failure. Excluded schemathesis checks, and why: not_a_server_error (it counts the documented
 * 502 scrape_failed of an unreachable target as a server error; the recorder checks 5xx instead,
 * allowing exactly that one), positive_data_acceptance (valid scrapes of unreachable hosts rightly
 * fail), use_after_free and ensure_resource_availability (DELETE /v1/crawl/{id} cancels; the crawl
 * stays readable, by design).
 */
import { execFileSync, spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { installSignalCleanup } from './infra/child.js';
import { dashboardRoutes } from '../api/dashboard/index.js';
import { dashboardDocument } from '../api/dashboard/openapi.js';
import type { RateLimiter } from '../api/rate-limit.js';
import { DASHBOARD, OTHER, type Operation } from './fuzz/recorder.js';
import { startFuzzTarget, type FuzzTarget } from './fuzz/target.js';
import { topUp } from './fuzz/top-up.js';
import { inheritedEnv, repoRoot } from './stack-config.js';

export const SCHEMATHESIS_VERSION = '4.32.5';
/** A request running longer than this is a hang: the longest legitimate one is a 90 s scrape plus hand-off. */
const HANG_MS = 95_000;
const EXCLUDED_CHECKS = ['not_a_server_error', 'positive_data_acceptance', 'use_after_free', 'ensure_resource_availability'];

/**
 * Findings in code this runner does not own, reported with a suggested fix and tolerated until
 * fixed. Matched narrowly (operation and schemathesis code, or recorder problem), so anything else
 * still fails the run; each is listed in the summary under `known`.
 */
const KNOWN: { operationId: string; schemathesis?: string; recorder?: RegExp; why: string }[] = [
  {
    operationId: 'apiReference',
    schemathesis: 'ST105',
    recorder: /^content type text\/html is not documented/,
    why: 'GET /api-reference answers text/html to browsers (?format=html) but documents only application/json: a route response has one content type (api/route.ts ResponseSpec)',
  },
  ...(['map', 'mapV2'] as const).map((operationId) => ({
    operationId,
    schemathesis: 'ST103',
    recorder: /^(status 502 is not documented for POST \/v[12]\/map|server error 502)$/,
    why: 'POST /v1/map (and /v2/map) answers a 502 scrape_failed ("The scrape failed: ...") when the site cannot be reached: api/temporal-errors.ts maps every failed workflow to ScrapeFailedError',
  })),
  ...(['startBatchScrape', 'startBatchScrapeV2'] as const).map((operationId) => ({
    operationId,
    schemathesis: 'ST201',
    why: 'a body with more `urls` than maxItems (10,000) is larger than API_BODY_LIMIT_BYTES (1 MiB), so it gets the documented 413 payload_too_large before validation; schemathesis counts only 4xx codes other than 413 as a rejection',
  })),
  ...['createMonitor', 'updateMonitor'].map((operationId) => ({
    operationId,
    schemathesis: 'ST201',
    why: 'as for startBatchScrape: a scrape target with more `urls` than maxItems (10,000) is larger than API_BODY_LIMIT_BYTES, so it gets the documented 413 before validation',
  })),
  {
    operationId: 'startCrawl',
    schemathesis: 'ST201',
    // Seen with seed 20261126 (schemathesis case o6njYw): a 2.6 MB body answered 413 payload_too_large.
    why: 'a body whose strings break their maxLength (scrapeOptions.headers values, actions[].script) can exceed API_BODY_LIMIT_BYTES (1 MiB): the documented 413 comes before validation; schemathesis counts only 4xx codes other than 413 as a rejection',
  },
];
const knownFailure = (operationId: string, code: string) => KNOWN.some((k) => k.operationId === operationId && k.schemathesis === code);
const knownViolation = (operationId: string, problem: string) => KNOWN.some((k) => k.operationId === operationId && k.recorder?.test(problem));

const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    examples: { type: 'string' },
    'min-requests': { type: 'string' },
    seed: { type: 'string', default: '20261122' },
    parallel: { type: 'string', default: '2' },
    out: { type: 'string' },
    inside: { type: 'boolean', default: false },
  },
});
const examples = Number(args.examples ?? (args.full ? 2000 : 150));
const minRequests = Number(args['min-requests'] ?? examples);
const seed = Number(args.seed);
const log = (line: string) => console.log(`[fuzz] ${line}`);

/** The pinned schemathesis in .stack/venv, installed (and the venv created) when missing. */
function ensureSchemathesis(): string {
  const venv = join(repoRoot, '.stack', 'venv');
  const bin = join(venv, 'bin', 'schemathesis');
  try {
    if (execFileSync(bin, ['--version'], { encoding: 'utf8' }).includes(SCHEMATHESIS_VERSION)) return bin;
  } catch {
    // not installed yet
  }
  if (!existsSync(join(venv, 'bin', 'pip'))) execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  log(`installing schemathesis==${SCHEMATHESIS_VERSION} into ${venv}`);
  execFileSync(join(venv, 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], { stdio: 'inherit' });
  return bin;
}

/** Outside: re-run this script inside a new network namespace and pass its exit code on. */
async function outside(): Promise<number> {
  ensureSchemathesis();
  const out = resolve(args.out ?? mkdtempSync(join(tmpdir(), 'pagewright-fuzz-')));
  mkdirSync(out, { recursive: true });
  chmodSync(out, 0o755); // PostgreSQL (the postgres user) keeps its data under it
  const forwarded = process.argv.slice(2).filter((a, i, all) => a !== '--out' && all[i - 1] !== '--out' && !a.startsWith('--out='));
  const child = spawn('unshare', ['--net', '--', process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--inside', '--out', out, ...forwarded], { cwd: repoRoot, stdio: 'inherit' });
  const code = await new Promise<number>((done) => {
    child.once('error', (err) => {
      console.error(`[fuzz] cannot create a private network namespace (unshare --net): ${err.message}. Run as root; the fuzzer must not reach the internet.`);
      done(2);
    });
    child.once('exit', (c, signal) => done(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0 && code !== 1) console.error('[fuzz] unshare --net failed: the fuzz run needs root (CAP_SYS_ADMIN) for a network namespace of its own.');
  return code;
}

/** Only loopback, and nothing outside answers: the run stops here otherwise. */
async function assertIsolated(): Promise<void> {
  execFileSync('ip', ['link', 'set', 'lo', 'up']);
  const interfaces = Object.keys(networkInterfaces());
  if (interfaces.join() !== 'lo') throw new Error(`not isolated: network interfaces ${interfaces.join(', ')}`);
  const outcome = await new Promise<string>((done) => {
    const socket = connect({ host: '1.1.1.1', port: 443, timeout: 3000 });
    socket.once('connect', () => done('connected'));
    socket.once('timeout', () => done('timeout'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    setTimeout(() => socket.destroy(), 3500).unref();
  });
  if (outcome !== 'ENETUNREACH') throw new Error(`not isolated: a connection to 1.1.1.1:443 gave ${outcome}, expected ENETUNREACH`);
  const resolved = await lookup('example.com').then((a) => a.address, () => undefined);
  if (resolved) throw new Error(`not isolated: example.com resolved to ${resolved}`);
}

interface SchemathesisResult {
  operationId: string;
  exitCode: number | null;
  seconds: number;
  testCases?: number;
  failures: { code: string; title: string; count: number; operations: string[] }[];
  errors: unknown[];
}

/** What one schemathesis run covers: the API's document and one of its operations, or the dashboard's whole document. */
interface Run {
  name: string;
  schema: string;
  url: string;
  headers: string[];
  operationId?: string;
  examples: number;
  checks: string[];
  hooks: boolean;
}

function apiRun(target: FuzzTarget, op: Operation): Run {
  return {
    name: op.operationId, schema: `${target.apiUrl}/api-reference?format=json`, url: target.apiUrl, headers: [`Authorization: Bearer ${target.apiKey}`],
    operationId: op.operationId, examples, checks: ['--checks', 'all', '--exclude-checks', EXCLUDED_CHECKS.join(',')], hooks: true,
  };
}

/** Left out of the dashboard's run: sign-out (it would end the fuzzer's session) and the playground (its scrapes are the API's own, fuzzed there). */
const DASHBOARD_SKIPPED = [/^\/sign-out$/, /^\/playground/];

/**
 * The dashboard's JSON endpoints (their document, api/dashboard/openapi.ts), signed in as an admin
 * with the CSRF token: schemathesis checks for server errors and answers against their declared
 * schemas, the recorder for 5xx and the error envelope.
 */

function dashboardRun(target: FuzzTarget, out: string): Run {
  const schema = join(out, 'dashboard-openapi.json');
  const fuzzed = dashboardRoutes({} as RateLimiter).filter((r) => !DASHBOARD_SKIPPED.some((s) => s.test(r.path)));
  writeFileSync(schema, JSON.stringify(dashboardDocument(fuzzed), null, 2));
  return {
    name: DASHBOARD, schema, url: `${target.apiUrl}/dashboard/api`, headers: [`Cookie: ${target.dashboard.cookie}`, `X-CSRF-Token: ${target.dashboard.csrfToken}`],
    examples: Math.min(examples, 50), checks: ['--checks', 'not_a_server_error,response_schema_conformance'], hooks: false,
  };
}

function runSchemathesis(bin: string, run: Run, out: string, runSeed: number): Promise<SchemathesisResult> {
  const report = join(out, `schemathesis-${run.name}.json`);
  const logFile = join(out, `schemathesis-${run.name}.log`);
  const argv = [
    '--no-color', 'run', run.schema,
    '--url', run.url,
    ...(run.operationId ? ['--include-operation-id', run.operationId] : []),
    '--max-examples', String(run.examples),
    '--phases', 'examples,coverage,fuzzing',
    '--continue-on-failure',
    ...run.checks,
    ...run.headers.flatMap((h) => ['--header', h]),
    '--request-timeout', String(HANG_MS / 1000 + 5),
    '--max-response-time', String(HANG_MS / 1000),
    '--suppress-health-check', 'all',
    '--workers', '1', // several threads trip a CPython 3.11 ast bug inside hypothesis
    '--seed', String(runSeed),
    '--report', 'json', '--report-json-path', report,
  ];
  const started = Date.now();
  const hooks = run.hooks ? { SCHEMATHESIS_HOOKS: 'hooks', PYTHONPATH: join(repoRoot, 'scripts', 'fuzz') } : {};
  const child = spawn(bin, argv, { cwd: out, env: { ...inheritedEnv(), ...hooks }, stdio: ['ignore', 'pipe', 'pipe'] });
  const sink = createWriteStream(logFile);
  child.stdout.pipe(sink);
  child.stderr.pipe(sink);
  return new Promise((done) => {
    child.once('exit', (exitCode) => {
      const seconds = (Date.now() - started) / 1000;
      let parsed: { test_cases?: { generated?: number }; failures?: SchemathesisResult['failures']; errors?: unknown[] } = {};
      try {
        parsed = JSON.parse(readFileSync(report, 'utf8'));
      } catch {
        parsed = { errors: [`no report; see ${logFile}`] };
      }
      done({ operationId: run.name, exitCode, seconds, testCases: parsed.test_cases?.generated, failures: parsed.failures ?? [], errors: parsed.errors ?? [] });
    });
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};

/** Inside the namespace: start the target, fuzz every operation, top up, judge, write summary.json. */
async function inside(): Promise<number> {
  const out = resolve(args.out!);
  await assertIsolated();
  log('isolated: loopback only, 1.1.1.1 unreachable, example.com does not resolve');
  const bin = ensureSchemathesis();
  const root = mkdtempSync(join(out, 'stack-'));
  chmodSync(root, 0o755);
  const target = await startFuzzTarget(root, log);
  const started = Date.now();
  const watchdog = setInterval(() => {
    for (const stuck of target.recorder.stuckLongerThan(HANG_MS)) log(`HANG: ${stuck}`);
  }, 10_000);
  try {
    const ops = target.recorder.operations;
    log(`${ops.length} operations; ${examples} cases each, at least ${minRequests} requests each; seed ${seed}`);
    const queue = [...ops.map((op, i) => ({ run: apiRun(target, op), label: `${op.method} ${op.path}`, runSeed: seed + i })), { run: dashboardRun(target, out), label: 'the dashboard', runSeed: seed - 1 }];
    const results: SchemathesisResult[] = [];
    await Promise.all(
      Array.from({ length: Number(args.parallel) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const result = await runSchemathesis(bin, next.run, out, next.runSeed);
          log(`schemathesis ${next.label}: ${result.testCases ?? '?'} cases in ${result.seconds.toFixed(0)} s, exit ${result.exitCode}, ${result.failures.length} failure kinds`);
          results.push(result);
        }
      }),
    );
    const clientProblems: string[] = [];
    for (const [i, op] of ops.entries()) {
      const missing = minRequests - target.recorder.stats.get(op.operationId)!.requests;
      if (missing <= 0) continue;
      log(`top-up ${op.method} ${op.path}: ${missing} requests`);
      clientProblems.push(...(await topUp(op, missing, { apiUrl: target.apiUrl, apiKey: target.apiKey, seed: seed * 31 + i, concurrency: 4, timeoutMs: HANG_MS + 5000 })));
    }
    const stuck = target.recorder.stuckLongerThan(0);
    return report(target, results, clientProblems, stuck, out, (Date.now() - started) / 1000);
  } finally {
    clearInterval(watchdog);
    await target.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

function report(target: FuzzTarget, results: SchemathesisResult[], clientProblems: string[], stuck: string[], out: string, seconds: number): number {
  const { recorder } = target;
  const rows = [...recorder.stats.entries()].map(([operationId, s]) => {
    const op = recorder.operations.find((o) => o.operationId === operationId);
    const st = results.find((r) => r.operationId === operationId);
    return {
      operation: op ? `${op.method} ${op.path}` : operationId,
      operationId,
      requests: s.requests,
      statuses: s.statuses,
      codes: s.codes,
      p50Ms: Math.round(pct(s.durationsMs, 50)),
      p99Ms: Math.round(pct(s.durationsMs, 99)),
      maxMs: Math.round(Math.max(0, ...s.durationsMs)),
      violations: recorder.violations.filter((v) => v.operation === operationId && !knownViolation(v.operation, v.problem)).length,
      schemathesis: st ? { testCases: st.testCases, exitCode: st.exitCode, seconds: Math.round(st.seconds), failures: st.failures, errors: st.errors } : undefined,
    };
  });
  const shortOps = rows.filter((r) => r.operationId !== OTHER && r.operationId !== DASHBOARD && r.requests < minRequests).map((r) => r.operation);
  const slow = rows.filter((r) => r.maxMs >= HANG_MS).map((r) => r.operation);
  const stFailures = results.flatMap((r) => r.failures.filter((f) => !knownFailure(r.operationId, f.code)).map((f) => `${r.operationId}: ${f.code} ${f.title} (${f.count})`));
  const violations = recorder.violations.filter((v) => !knownViolation(v.operation, v.problem));
  const unknownViolationCount = recorder.violationCount - (recorder.violations.length - violations.length);
  const known = KNOWN.map((k) => ({
    ...k,
    recorder: k.recorder?.source,
    seen: recorder.violations.filter((v) => v.operation === k.operationId && k.recorder?.test(v.problem)).length + results.filter((r) => r.operationId === k.operationId && r.failures.some((f) => f.code === k.schemathesis)).length,
  }));
  const stErrors = results.flatMap((r) => r.errors.map((e) => `${r.operationId}: ${JSON.stringify(e).slice(0, 300)}`));
  const summary = {
    ok: false,
    seconds: Math.round(seconds),
    examples,
    minRequests,
    seed,
    schemathesis: SCHEMATHESIS_VERSION,
    totalRequests: rows.reduce((a, r) => a + r.requests, 0),
    operations: rows,
    violationCount: unknownViolationCount,
    violations,
    known,
    schemathesisFailures: stFailures,
    schemathesisErrors: stErrors,
    shortOperations: shortOps,
    hangs: [...stuck, ...slow],
    clientProblems,
  };
  summary.ok = !shortOps.length && !unknownViolationCount && !stFailures.length && !stErrors.length && !summary.hangs.length && !clientProblems.length;
  writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 2));

  console.log(`\n${'operation'.padEnd(32)}${'requests'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}${'viol.'.padStart(6)}  statuses`);
  for (const r of rows) {
    console.log(`${r.operation.padEnd(32)}${String(r.requests).padStart(9)}${String(r.p50Ms).padStart(8)}${String(r.p99Ms).padStart(8)}${String(r.maxMs).padStart(8)}${String(r.violations).padStart(6)}  ${JSON.stringify(r.statuses)}`);
  }
  console.log(`\n${summary.totalRequests} requests in ${summary.seconds} s; ${unknownViolationCount} contract violations; ${stFailures.length} schemathesis failures; ${stErrors.length} schemathesis errors; ${summary.hangs.length} hangs`);
  for (const k of known) if (k.seen) console.log(`  KNOWN ${k.operationId}: ${k.why}`);
  for (const v of violations.slice(0, 20)) console.log(`  VIOLATION ${v.operation} ${v.status} ${v.request}: ${v.problem} ${v.body}`);
  for (const f of stFailures) console.log(`  SCHEMATHESIS ${f}`);
  for (const e of stErrors) console.log(`  SCHEMATHESIS ERROR ${e}`);
  for (const s of shortOps) console.log(`  TOO FEW REQUESTS ${s}`);
  for (const h of summary.hangs) console.log(`  HANG ${h}`);
  for (const p of clientProblems) console.log(`  CLIENT ${p}`);
  console.log(`\n${summary.ok ? 'PASS' : 'FAIL'}: details in ${join(out, 'summary.json')}`);
  return summary.ok ? 0 : 1;
}

Runtime.install({ logger: new DefaultLogger('WARN') });
installSignalCleanup();
try {
  process.exitCode = args.inside ? await inside() : await outside();
} catch (err) {
  console.error(err);
  process.exitCode = 2;
}
process.exit(process.exitCode);
