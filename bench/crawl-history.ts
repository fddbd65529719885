/**
 * Where a crawl's time goes, from its Temporal histories (every run, followed back through
 * continue-as-new). Server timestamps only, so the numbers do not depend on the bench's clock.
 *
 * - pages running: crawlPage activities between started and closed, averaged over the crawl, and
 *   the share of the crawl with fewer running than the worker's slots (slots left idle);
 * - a page's life: scheduled → started (waiting in the pages queue for a free slot) and started →
 *   closed (fetch, conversion on the worker's thread pool, the storing transaction);
 * - refill: a page closing → the workflow scheduling the next one (a workflow task, a claimUrls
 *   activity round trip through PostgreSQL, another workflow task);
 * - workflow tasks and claims: how many, and how long each takes.
 */
import type { Client } from '@temporalio/client';
import { median } from './crawl-measure.js';

type Ts = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;
type Id = { toString(): string } | number | null | undefined;
interface Event {
  eventId?: Id;
  eventTime?: Ts;
  [attributes: string]: unknown;
}

const toMs = (t: Ts) => (t ? (typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + (t.nanos ?? 0) / 1e6 : NaN);
const idOf = (id: Id) => String(id ?? '');

interface Span {
  scheduled: number;
  started?: number;
  closed?: number;
}

export interface CrawlBreakdown {
  runs: number;
  events: number;
  wallMs: number;
  pages: number;
  /** Mean crawlPage activities between started and closed over the crawl. */
  meanRunning: number;
  /** Mean crawlPage activities between scheduled and closed (the workflow's window in use). */
  meanInFlight: number;
  /** Share of the crawl (0–1) with fewer pages running than `slots`. */
  underSlots: number;
  queueWaitMs: number;
  runMs: number;
  refillMs: number;
  workflowTasks: number;
  workflowTaskQueueMs: number;
  workflowTaskRunMs: number;
  claims: number;
  claimMs: number;
}

/** Every run's events, oldest run first. */
async function allRuns(client: Client, workflowId: string): Promise<Event[][]> {
  const runs: Event[][] = [];
  let runId: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = (history.events ?? []) as Event[];
    runs.unshift(events);
    const started = events[0]?.workflowExecutionStartedEventAttributes as { continuedExecutionRunId?: string | null } | undefined;
    runId = started?.continuedExecutionRunId || undefined;
    if (!runId) break;
  }
  return runs;
}

function spans(events: Event[], activityType: string): Span[] {
  const byId = new Map<string, Span>();
  for (const e of events) {
    const at = toMs(e.eventTime);
    const scheduled = e.activityTaskScheduledEventAttributes as { activityType?: { name?: string | null } | null } | undefined;
    if (scheduled && scheduled.activityType?.name === activityType) byId.set(idOf(e.eventId), { scheduled: at });
    for (const key of ['activityTaskStartedEventAttributes', 'activityTaskCompletedEventAttributes', 'activityTaskFailedEventAttributes', 'activityTaskTimedOutEventAttributes', 'activityTaskCanceledEventAttributes']) {
      const attrs = e[key] as { scheduledEventId?: Id } | undefined;
      const span = attrs && byId.get(idOf(attrs.scheduledEventId));
      if (!span) continue;
      if (key === 'activityTaskStartedEventAttributes') span.started = at;
      else span.closed = at;
    }
  }
  return [...byId.values()];
}

/** Time-weighted mean of a count that steps +1 at each `from` and -1 at each `to`, and the share of time below `below`. */
function occupancy(intervals: Array<[number, number]>, start: number, end: number, below: number): { mean: number; shareBelow: number } {
  const steps = intervals.flatMap(([a, b]) => [[a, 1], [b, -1]] as Array<[number, number]>).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let level = 0;
  let last = start;
  let area = 0;
  let lowTime = 0;
  for (const [t, d] of steps) {
    area += level * (t - last);
    if (level < below) lowTime += t - last;
    level += d;
    last = t;
  }
  if (level < below) lowTime += end - last;
  return { mean: area / (end - start), shareBelow: lowTime / (end - start) };
}

export async function crawlBreakdown(client: Client, workflowId: string, slots: number): Promise<CrawlBreakdown> {
  const runs = await allRuns(client, workflowId);
  const events = runs.flat();
  const start = toMs(events[0]?.eventTime);
  const end = toMs(events.at(-1)?.eventTime);
  // Event ids restart in every run: pair events within their run.
  const pages = runs.flatMap((run) => spans(run, 'crawlPage')).filter((s) => s.started !== undefined && s.closed !== undefined) as Required<Span>[];
  const claims = runs.flatMap((run) => spans(run, 'claimUrls')).filter((s) => s.closed !== undefined) as Array<Span & { closed: number }>;
  const running = occupancy(pages.map((p) => [p.started, p.closed]), start, end, slots);
  const inFlight = occupancy(pages.map((p) => [p.scheduled, p.closed]), start, end, Infinity);
  const schedules = pages.map((p) => p.scheduled).sort((a, b) => a - b);
  const refill: number[] = [];
  for (const p of pages) {
    const next = schedules.find((t) => t >= p.closed);
    if (next !== undefined) refill.push(next - p.closed);
  }
  const wfQueue: number[] = [];
  const wfRun: number[] = [];
  for (const run of runs) {
    const wfScheduled = new Map<string, number>();
    let lastStarted = NaN;
    for (const e of run) {
      if (e.workflowTaskScheduledEventAttributes) wfScheduled.set(idOf(e.eventId), toMs(e.eventTime));
      const started = e.workflowTaskStartedEventAttributes as { scheduledEventId?: Id } | undefined;
      if (started) {
        lastStarted = toMs(e.eventTime);
        wfQueue.push(lastStarted - (wfScheduled.get(idOf(started.scheduledEventId)) ?? NaN));
      }
      if (e.workflowTaskCompletedEventAttributes) wfRun.push(toMs(e.eventTime) - lastStarted);
    }
  }
  return {
    runs: runs.length,
    events: events.length,
    wallMs: end - start,
    pages: pages.length,
    meanRunning: running.mean,
    meanInFlight: inFlight.mean,
    underSlots: running.shareBelow,
    queueWaitMs: median(pages.map((p) => p.started - p.scheduled)),
    runMs: median(pages.map((p) => p.closed - p.started)),
    refillMs: median(refill),
    workflowTasks: wfRun.length,
    workflowTaskQueueMs: median(wfQueue),
    workflowTaskRunMs: median(wfRun),
    claims: claims.length,
    claimMs: median(claims.map((c) => c.closed - c.scheduled)),
  };
}
