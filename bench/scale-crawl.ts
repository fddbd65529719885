/**
 * One crawl through the API of a bench/scale-stack.ts stack, watched as it runs: the status polled
 * through the API (`GET /v1/crawl/{id}?limit=1`, every 500 ms), and every second each worker's crawl
 * pages (its GET /metrics) beside the crawl's queued URLs (PostgreSQL). From that timeline, how long
 * each worker sat idle while URLs were queued. Then the checks every run must pass: each page stored
 * once, nothing lost.
 */
import type { CrawlStatusBody } from '../core/schemas/crawl.js';
import { workerCounters, type ScaleStack, type ServiceProcess } from './scale-stack.js';

export interface CrawlRequest {
  apiUrl: string;
  seed: string;
  limit: number;
  maxConcurrency: number;
  timeoutMs: number;
}

export interface Tick {
  /** ms since the POST. */
  at: number;
  queued: number;
  /** Crawl pages done so far by each worker (by name); undefined: it did not answer. */
  pages: Map<string, number | undefined>;
  /** Crawl lanes each worker runs at the tick. */
  lanes: Map<string, number | undefined>;
}

/** A tick's reading of every worker. */
async function readWorkers(workers: ServiceProcess[]): Promise<Pick<Tick, 'pages' | 'lanes'>> {
  const counters = await Promise.all(workers.map(workerCounters));
  return {
    pages: new Map(workers.map((w, i) => [w.name, counters[i]?.pages])),
    lanes: new Map(workers.map((w, i) => [w.name, counters[i]?.lanes])),
  };
}

/** A tick in which a worker did no page while URLs were queued, and the lanes it ran at its end. */
export interface IdleTick {
  from: number;
  to: number;
  short: boolean;
  lanes: number | undefined;
}

export interface WatchedCrawl {
  id: string;
  wallMs: number;
  ticks: Tick[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function api<T>(apiUrl: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as T;
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

/**
 * Crawls `seed` to the end. `workers()` names the workers to watch now (a kill test replaces them);
 * `onTick` runs every second (a kill test kills there).
 */
export async function watchCrawl(stack: ScaleStack, request: CrawlRequest, workers: () => ServiceProcess[], onTick?: (at: number) => Promise<void>): Promise<WatchedCrawl> {
  // Each worker's counter runs for its whole life: this reading, before the POST, is the crawl's zero.
  const ticks: Tick[] = [{ at: 0, queued: 0, ...(await readWorkers(workers())) }];
  const start = performance.now();
  const { id } = await api<{ id: string }>(request.apiUrl, stack.apiKey, 'POST', '/v1/crawl', {
    url: request.seed,
    limit: request.limit,
    ignoreSitemap: true,
    ignoreRobotsTxt: true,
    maxConcurrency: request.maxConcurrency,
    scrapeOptions: { formats: ['markdown'] },
  });
  let nextTick = start;
  for (;;) {
    const status = await api<CrawlStatusBody>(request.apiUrl, stack.apiKey, 'GET', `/v1/crawl/${id}?limit=1`);
    if (status.status !== 'scraping') {
      const wallMs = performance.now() - start;
      if (status.status !== 'completed') throw new Error(`crawl ${id} ended ${status.status}: ${status.error ?? ''}`);
      ticks.push({ at: wallMs, queued: 0, ...(await readWorkers(workers())) });
      return { id, wallMs, ticks };
    }
    const now = performance.now();
    if (now - start > request.timeoutMs) throw new Error(`crawl ${id} still scraping after ${request.timeoutMs / 1000} s (${status.completed} of ${status.total} done)`);
    if (now >= nextTick) {
      nextTick += 1000;
      const [queued, read] = await Promise.all([stack.prisma.jobUrl.count({ where: { jobId: id, status: 'queued' } }), readWorkers(workers())]);
      ticks.push({ at: now - start, queued, ...read });
      await onTick?.(now - start);
    }
    await sleep(500);
  }
}

/**
 * The one-second ticks in which each worker did no crawl page although URLs were queued at the
 * tick's start, from the first tick in which any page was done (discovery and the first lane come
 * before). `enough`: the crawl's maxConcurrency. A tick that began with fewer URLs queued is marked
 * `short`: the frontier held less than the lanes could take at once (a crawl's first seconds, when
 * its lanes wait for links to be found), so a worker without pages then was not passed over.
 */
export function idleTicks(ticks: Tick[], enough: number): Map<string, IdleTick[]> {
  const idle = new Map<string, IdleTick[]>();
  const total = (t: Tick) => [...t.pages.values()].reduce<number>((a, b) => a + (b ?? 0), 0);
  const first = ticks.findIndex((t) => total(t) > total(ticks[0]));
  for (let i = Math.max(1, first); first >= 0 && i < ticks.length; i++) {
    const [a, b] = [ticks[i - 1], ticks[i]];
    for (const [name, pages] of b.pages) {
      if (!idle.has(name)) idle.set(name, []);
      const before = a.pages.get(name);
      if (a.queued > 0 && pages !== undefined && before !== undefined && pages === before) idle.get(name)!.push({ from: a.at, to: b.at, short: a.queued < enough, lanes: b.lanes.get(name) });
    }
  }
  return idle;
}

/**
 * Idle ticks as seconds in all and as "12-14 s (lanes 0), 30-31 s (lanes 2)" (since the POST, with
 * the lanes the worker ran in them); `short`: of those, the ticks with fewer URLs queued than the
 * lanes could take.
 */
export function describeIdle(spans: IdleTick[]): { seconds: number; shortSeconds: number; when: string } {
  const merged: Array<{ from: number; to: number; lanes: Set<string> }> = [];
  for (const s of spans) {
    const last = merged.at(-1);
    const lanes = String(s.lanes ?? '?');
    if (last && s.from - last.to < 1) {
      last.to = s.to;
      last.lanes.add(lanes);
    } else merged.push({ from: s.from, to: s.to, lanes: new Set([lanes]) });
  }
  const seconds = (list: typeof spans) => list.reduce((a, s) => a + (s.to - s.from) / 1000, 0);
  return {
    seconds: seconds(spans),
    shortSeconds: seconds(spans.filter((s) => s.short)),
    when: merged.map((s) => `${(s.from / 1000).toFixed(0)}-${(s.to / 1000).toFixed(0)} s (lanes ${[...s.lanes].join('/')})`).join(', '),
  };
}

export interface StoredCheck {
  total: number;
  done: number;
  failed: number;
  documents: number;
  /** Admitted but neither done nor failed, or done without a document (must be 0). */
  lost: number;
  /** Documents beyond one per URL key, and documents whose URL is not done (must be 0). */
  storedTwice: number;
  /** Sequence numbers 0..documents-1, each once (the paging order). */
  gapFree: boolean;
}

/** The crawl's frontier (job_url) against its documents: nothing lost, nothing stored twice, sequences gap-free. */
export async function checkStored(stack: ScaleStack, id: string): Promise<StoredCheck> {
  const [r] = await stack.prisma.$queryRaw<Array<{ total: number; done: bigint; failed: bigint; documents: bigint; distinct: bigint; done_without_document: bigint; document_not_done: bigint; seq_ok: boolean }>>`
    SELECT j.total,
      (SELECT count(*) FROM job_url WHERE job_id = j.id AND status = 'done') AS done,
      (SELECT count(*) FROM job_url WHERE job_id = j.id AND status = 'failed') AS failed,
      (SELECT count(*) FROM document WHERE job_id = j.id) AS documents,
      (SELECT count(DISTINCT url_key) FROM document WHERE job_id = j.id) AS distinct,
      (SELECT count(*) FROM job_url u WHERE u.job_id = j.id AND u.status = 'done' AND NOT EXISTS (SELECT 1 FROM document d WHERE d.job_id = j.id AND d.url_key = u.url_key)) AS done_without_document,
      (SELECT count(*) FROM document d WHERE d.job_id = j.id AND NOT EXISTS (SELECT 1 FROM job_url u WHERE u.job_id = j.id AND u.url_key = d.url_key AND u.status = 'done')) AS document_not_done,
      (SELECT COALESCE(bool_and(sequence = rn - 1), true) FROM (SELECT sequence, row_number() OVER (ORDER BY sequence) AS rn FROM document WHERE job_id = j.id) s) AS seq_ok
    FROM job j WHERE j.id = ${id}`;
  const [done, failed, documents] = [Number(r.done), Number(r.failed), Number(r.documents)];
  return {
    total: r.total,
    done,
    failed,
    documents,
    lost: r.total - done - failed + Number(r.done_without_document),
    storedTwice: documents - Number(r.distinct) + Number(r.document_not_done),
    gapFree: r.seq_ok,
  };
}
