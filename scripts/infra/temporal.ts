/**
 * The Temporal CLI's dev server (`temporal server start-dev`): SQLite persistence, the Web UI, and
 * the custom search attributes crawl workflows set, registered at start.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Connection } from '@temporalio/client';
import { jobSearchAttributes as crawlKeys } from '../../core/job-contracts.js';
import { spawnChild } from './child.js';
import type { Restartable } from './supervise.js';
import { ServiceStartError, waitUntilReady } from './ready.js';

/**
 * Custom search attributes of crawl workflows (DESIGN.md "Operator visibility"), name → CLI type,
 * derived from the keys the workflows use (core/job-contracts.ts). The dev server registers them
 * at start; a production namespace needs them added once
 * (`temporal operator search-attribute create --name CrawlStatus --type Keyword`, ...).
 */
const cliType = { KEYWORD: 'Keyword', INT: 'Int' } as const;
export const jobSearchAttributes: Record<string, 'Keyword' | 'Int'> = Object.fromEntries(
  Object.values(crawlKeys).map((key) => [key.name, cliType[key.type as keyof typeof cliType]]),
);

/** Makes crawl workflows continue-as-new after ~60 events, so tests exercise it. */
export const testDynamicConfig = ['--dynamic-config-value', 'limit.historyCount.suggestContinueAsNew=60'] as const;

export interface TemporalOptions {
  /** `temporal` executable. */
  cliPath: string;
  /** Frontend gRPC port. */
  port: number;
  /** Web UI port; omit to run headless. */
  uiPort?: number;
  /** SQLite file, so the state survives restarts; omit for an in-memory server (tests). */
  dbFile?: string;
  /** Default `default`. */
  namespace?: string;
  /** Appended to the command line, e.g. testDynamicConfig. */
  extraArgs?: readonly string[];
  /** Default `<dbFile>.log`, or `<tmpdir>/pagewright-temporal-<port>.log`. */
  logFile?: string;
  pidDir?: string;
  /** Default 60000 ms. */
  timeoutMs?: number;
}

export interface TemporalHandle extends Restartable {
  /** `host:port` for TEMPORAL_ADDRESS. */
  address: string;
  namespace: string;
  /** Undefined when headless. */
  uiUrl?: string;
  stop(): Promise<void>;
}

/** Ready = the namespace answers and every crawl search attribute is registered in it. */
async function namespaceReady(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: '2s' });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.keys(jobSearchAttributes).filter((name) => !customAttributes?.[name]);
    if (missing.length) throw new Error(`search attributes not registered yet: ${missing.join(', ')}`);
    return true;
  } finally {
    await connection.close();
  }
}

export async function startTemporal(options: TemporalOptions): Promise<TemporalHandle> {
  const namespace = options.namespace ?? 'default';
  const address = `127.0.0.1:${options.port}`;
  const { dbFile } = options;
  const logFile = options.logFile ?? (dbFile ? `${dbFile}.log` : join(tmpdir(), `pagewright-temporal-${options.port}.log`));
  if (dbFile) mkdirSync(dirname(dbFile), { recursive: true });
  const ui = options.uiPort === undefined ? ['--headless'] : ['--ui-port', String(options.uiPort), '--ui-disable-news-fetch'];
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    ...ui,
    ...(dbFile ? ['--db-filename', dbFile] : []),
    '--namespace', namespace,
    ...Object.entries(jobSearchAttributes).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
    '--log-format', 'text',
    ...(options.extraArgs ?? []),
  ];
  const spawn = () => spawnChild({ name: 'temporal', command: options.cliPath, args, logFile, pidDir: options.pidDir });
  let child = spawn();
  try {
    await waitUntilReady('Temporal', () => namespaceReady(address, namespace), { timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 300, child });
  } catch (err) {
    await child.stop();
    throw err instanceof ServiceStartError ? err : new ServiceStartError('Temporal', (err as Error).message, child);
  }
  return {
    address,
    namespace,
    uiUrl: options.uiPort === undefined ? undefined : `http://127.0.0.1:${options.uiPort}`,
    child: () => child,
    // With a dbFile, workflows, timers and search attributes are all still there; without one it starts empty.
    respawn: () => (child = spawn()),
    stop: () => child.stop(),
  };
}
