/**
 * What Temporal saw of a crawl, from its histories (every run, followed back through continue-as-new).
 * Server timestamps only, so the numbers do not depend on the bench's clock.
 *
 * - history events per page: what the design costs Temporal (the target is at most 0.5);
 * - page lanes: how many lane runs, how many were scheduled or running on average (a lane's
 *   started event is written when it ends, so the span is scheduled → closed), how long each ran;
 * - workflow tasks: how many, and how long each took to run.
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
  /** crawlLane activities (lane runs) that closed. */
  laneRuns: number;
  /** Mean lane runs scheduled or running over the crawl. */
  meanLanes: number;
  /** A lane run, scheduled → closed, p50. */
  laneRunMs: number;
  workflowTasks: number;
  workflowTaskRunMs: number;
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

/** Time-weighted mean of a count that steps +1 at each `from` and -1 at each `to`. */
function occupancy(intervals: Array<[number, number]>, start: number, end: number): number {
  const steps = intervals.flatMap(([a, b]) => [[a, 1], [b, -1]] as Array<[number, number]>).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let level = 0;
  let last = start;
  let area = 0;
  for (const [t, d] of steps) {
    area += level * (t - last);
    level += d;
    last = t;
  }
  return area / (end - start);
}

export async function crawlBreakdown(client: Client, workflowId: string): Promise<CrawlBreakdown> {
  const runs = await allRuns(client, workflowId);
  const events = runs.flat();
  const start = toMs(events[0]?.eventTime);
  const end = toMs(events.at(-1)?.eventTime);
  // Event ids restart in every run: pair events within their run.
  const lanes = runs.flatMap((run) => spans(run, 'crawlLane')).filter((s) => s.closed !== undefined) as Array<Span & { closed: number }>;
  const wfRun: number[] = [];
  for (const run of runs) {
    let lastStarted = NaN;
    for (const e of run) {
      if (e.workflowTaskStartedEventAttributes) lastStarted = toMs(e.eventTime);
      if (e.workflowTaskCompletedEventAttributes) wfRun.push(toMs(e.eventTime) - lastStarted);
    }
  }
  return {
    runs: runs.length,
    events: events.length,
    wallMs: end - start,
    laneRuns: lanes.length,
    meanLanes: occupancy(lanes.map((l) => [l.scheduled, l.closed]), start, end),
    laneRunMs: median(lanes.map((l) => l.closed - l.scheduled)),
    workflowTasks: wfRun.length,
    workflowTaskRunMs: median(wfRun),
  };
}
