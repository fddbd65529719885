/**
 * The multi-process stack of bench/scale-out.ts and bench/kill-at-scale.ts: the infrastructure of
 * bench/stack-infra.ts, and every service process as deployed
 * (`npm run start:api` / `start:worker`, by scripts/infra): API replicas and workers are started and
 * stopped one by one, each on a port of its own, so a bench can grow the stack between crawls. The
 * bench's process runs none of the service's code.
 */
import { join } from 'node:path';
import { createKey } from '../api/keys-store.js';
import { waitForHealth } from '../scripts/infra/apps.js';
import { spawnChild, type Child } from '../scripts/infra/child.js';
import { processArgs } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { startWorkerProcess } from '../scripts/infra/throwaway.js';
import { inheritedEnv, repoRoot } from '../scripts/stack-config.js';
import { createPrisma, type PrismaClient } from '../prisma/client.js';
import { startBenchInfra } from './stack-infra.js';

export interface ServiceProcess {
  name: string;
  child: Child;
  /** `http://127.0.0.1:<port>`: the API's address, or the worker's scrape endpoint (GET /metrics). */
  url: string;
}

export interface ScaleStack {
  prisma: PrismaClient;
  apiKey: string;
  /** pid of each infrastructure process. */
  infra: { postgres: number; redis: number; temporal: number };
  databaseUrl: string;
  startApi(name: string): Promise<ServiceProcess>;
  startWorker(name: string): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** `statements`: PostgreSQL with pg_stat_statements (bench/pg-watch.ts). */
/** `workerEnv`: settings for the workers only (WORKER_CONVERT_THREADS). */
export async function startScaleStack(options: { root: string; workerConcurrency: number; statements?: boolean; workerEnv?: Record<string, string> }): Promise<ScaleStack> {
  const { root } = options;
  const infra = await startBenchInfra({ root, name: 'scale', workerConcurrency: options.workerConcurrency, ephemeral: true, statements: options.statements });
  const { env, pidDir, pid, timeoutMs } = infra;
  try {
    const prisma = createPrisma(infra.databaseUrl);
    infra.onStop(() => prisma.$disconnect());
    const { key } = await createKey(prisma, 'bench', env.API_KEY_PEPPER);
    return {
      prisma,
      apiKey: key,
      infra: { postgres: pid('postgres'), redis: pid('redis'), temporal: pid('temporal') },
      databaseUrl: infra.databaseUrl,
      async startApi(name) {
        const port = await freePort();
        const child = spawnChild({
          name,
          command: process.execPath,
          args: processArgs('api'),
          cwd: repoRoot,
          env: { PATH: inheritedEnv().PATH, ...env, API_PORT: String(port), LOG_LEVEL: 'warn' },
          logFile: join(root, `${name}.log`),
          pidDir,
        });
        infra.onStop(() => child.stop());
        const url = `http://127.0.0.1:${port}`;
        await waitForHealth(url, child, timeoutMs);
        return { name, child, url };
      },
      async startWorker(name) {
        const port = await freePort();
        const child = await startWorkerProcess({ env: { ...env, ...options.workerEnv, WORKER_SCRAPE_PORT: String(port) }, logFile: join(root, `${name}.log`), pidDir, name });
        infra.onStop(() => child.stop());
        return { name, child, url: `http://127.0.0.1:${port}` };
      },
      stop: infra.stop,
    };
  } catch (err) {
    await infra.stop();
    throw err;
  }
}

/**
 * Crawl pages this worker has finished (every attempt, any outcome) and the crawl lanes it runs now,
 * from its GET /metrics; undefined when it does not answer.
 */
export async function workerCounters(worker: ServiceProcess): Promise<{ pages: number; lanes: number } | undefined> {
  try {
    const res = await fetch(`${worker.url}/metrics`, { signal: AbortSignal.timeout(2000) });
    if (res.status !== 200) return undefined;
    let pages = 0;
    let lanes = 0;
    for (const line of (await res.text()).split('\n')) {
      const value = () => Number(line.slice(line.lastIndexOf(' ') + 1));
      if (line.startsWith('pagewright_pages_total{') && line.includes('kind="crawl"')) pages += value();
      else if (line.startsWith('pagewright_crawl_lanes_running ')) lanes = value();
    }
    return { pages, lanes };
  } catch {
    return undefined;
  }
}
