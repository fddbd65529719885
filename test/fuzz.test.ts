/**
 * A bounded fuzz run from the service's own OpenAPI document (scripts/fuzz.ts, which explains the
 * tool, the sandbox and each check): 100 generated cases per operation, and at least 100 requests
 * each, then the dashboard's JSON endpoints signed in with the CSRF token (50 cases each), against
 * a stack of its own inside a network namespace with no way out. 3 to 6 minutes on a 2-core
 * machine, more with each operation the API gains; the test's timeout is a guard against a hang.
 * The full run (2,000 per operation) is `npx tsx scripts/fuzz.ts --full`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../api/routes/index.js';
import { repoRoot } from '../scripts/stack-config.js';

const REQUESTS = 100;
const out = mkdtempSync(join(tmpdir(), 'pagewright-fuzz-test-'));
chmodSync(out, 0o755);
// Kept when the run failed: summary.json and each operation's schemathesis report name the failing case.
let passed = false;
afterAll(() => {
  if (passed) rmSync(out, { recursive: true, force: true });
  else console.log(`fuzz reports kept in ${out}`);
});

interface Summary {
  ok: boolean;
  operations: { operation: string; operationId: string; requests: number; statuses: Record<string, number>; maxMs: number }[];
  violationCount: number;
  violations: unknown[];
  schemathesisFailures: string[];
  schemathesisErrors: string[];
  shortOperations: string[];
  hangs: string[];
  clientProblems: string[];
  known: { operationId: string; why: string; seen: number }[];
}

async function runFuzz(): Promise<{ code: number | null; output: string; summary: Summary }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--examples', String(REQUESTS), '--out', out], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  let summary: Summary;
  try {
    summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
  } catch {
    throw new Error(`scripts/fuzz.ts wrote no summary (exit ${code}):\n${output.slice(-5000)}`);
  }
  return { code, output, summary };
}

describe('fuzzing every operation of the OpenAPI document, and the dashboard', () => {
  it('gets no 5xx, no hang, only enveloped errors and only documented, schema-valid answers', async () => {
    const { code, output, summary } = await runFuzz();
    console.info(output.slice(output.indexOf('\noperation ')));
    const operations = summary.operations.filter((o) => o.operationId !== '(undeclared)' && o.operationId !== '(dashboard)');
    // The dashboard's JSON endpoints, signed in with the CSRF token: reached, answered, never a 5xx.
    const dashboard = summary.operations.find((o) => o.operationId === '(dashboard)')!;
    expect(dashboard.requests).toBeGreaterThan(1000);
    expect(Object.keys(dashboard.statuses).filter((s) => Number(s) >= 500)).toEqual([]);
    expect(dashboard.statuses['200'] ?? 0).toBeGreaterThan(0);
    // Every declared operation, and the reference itself.
    expect(operations.map((o) => o.operationId).sort()).toEqual([...apiRoutes.map((r) => r.operationId), 'apiReference'].sort());
    for (const op of operations) expect(op.requests, op.operation).toBeGreaterThanOrEqual(REQUESTS);
    // Unauthenticated calls were part of it, and were refused.
    for (const id of ['scrape', 'startCrawl', 'getCrawl', 'cancelCrawl', 'map', 'startBatchScrape', 'getBatchScrape', 'getCrawlErrors', 'scrapeV2', 'startCrawlV2', 'getCrawlV2', 'cancelCrawlV2', 'mapV2', 'startBatchScrapeV2', 'creditUsage', 'creditUsageHistoricalV2', 'tokenUsageV2', 'queueStatus', 'concurrencyCheckV2']) expect(operations.find((o) => o.operationId === id)!.statuses['401']).toBeGreaterThan(0);
    expect(summary.violations).toEqual([]);
    expect(summary.violationCount).toBe(0);
    expect(summary.schemathesisFailures).toEqual([]);
    expect(summary.schemathesisErrors).toEqual([]);
    expect(summary.hangs).toEqual([]);
    expect(summary.clientProblems).toEqual([]);
    expect(summary.shortOperations).toEqual([]);
    expect(summary.ok).toBe(true);
    expect(code).toBe(0);
    passed = true;
  }, 900_000);
});
