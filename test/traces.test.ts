/**
 * Traces end to end (README "Traces"): the real API and an in-process worker with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at a loopback OTLP/HTTP receiver, which decodes what the
 * exporter really sends. A crawl is one trace from the API request through the workflow and its
 * lane to every page's fetch, convert and store; a scrape is one trace from the API to the worker.
 */
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noTracing } from '../telemetry/tracing.js';
import { temporalWorkerTracing } from '../telemetry/temporal-worker.js';
import { bundleTraces, bundleWorkflows } from '../worker/main.js';
import { startCrawlSite } from './fixtures/crawl-site.js';
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver, type ReceivedSpan } from './fixtures/otlp-receiver.js';
import { waitFor } from './fixtures/receiver.js';
import { crawlToEnd } from './helpers/crawl.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let receiver: OtlpReceiver;
let site: Awaited<ReturnType<typeof startCrawlSite>>;
let stack: TestStack;
/** The traced crawl of the first test, whose history the last one replays. */
let tracedCrawlId: string | undefined;

const pages = { '/': ['/a', '/b'], '/a': ['/b'], '/b': [] };

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  [site, stack] = await Promise.all([startCrawlSite({ pages }), startTestStack({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' })]);
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
  await receiver?.close();
});

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReceivedSpan[], name: string) => {
  const found = named(spans, name);
  expect(found.map((s) => s.name), `exactly one ${name} span`).toEqual([name]);
  return found[0]!;
};
const childrenOf = (spans: ReceivedSpan[], parents: ReceivedSpan[], name: string) => named(spans, name).filter((s) => parents.some((p) => p.spanId === s.parentSpanId));

describe('traces', () => {
  it('follows a crawl in one trace: API request → workflow → lane → each page fetch, convert and store', async () => {
    const { id, status } = await crawlToEnd(stack, { url: site.url });
    expect(status).toMatchObject({ status: 'completed', completed: 3 });
    tracedCrawlId = id;

    const start = await waitFor(() => receiver.spans.find((s) => s.name === 'StartWorkflow:crawl' && s.attributes.temporalWorkflowId === `crawl-${id}`));
    // The workflow's span is sent when the workflow ends, after the crawl reads `completed`.
    await waitFor(() => receiver.spans.some((s) => s.traceId === start.traceId && s.name === 'RunWorkflow:crawl'));
    const trace = receiver.spans.filter((s) => s.traceId === start.traceId);

    const request = one(trace, 'POST /v1/crawl');
    expect(request).toMatchObject({ parentSpanId: '', kind: SPAN_KIND.server, service: 'pagewright-api', attributes: { 'http.request.method': 'POST', 'http.route': '/v1/crawl', 'http.response.status_code': 200 } });
    expect(start).toMatchObject({ parentSpanId: request.spanId, service: 'pagewright-api' });
    const workflow = one(trace, 'RunWorkflow:crawl');
    expect(workflow).toMatchObject({ parentSpanId: start.spanId, service: 'pagewright-worker' });
    // Workflow spans carry the run's ids (telemetry/temporal-worker.ts), not the whole WorkflowInfo.
    expect(workflow.attributes).toEqual({ temporalWorkflowId: `crawl-${id}`, temporalWorkflowType: 'crawl', run_id: start.attributes.run_id });

    const laneStarts = childrenOf(trace, [workflow], 'StartActivity:crawlLane');
    expect(laneStarts.length).toBeGreaterThanOrEqual(1);
    const lanes = childrenOf(trace, laneStarts, 'RunActivity:crawlLane');
    expect(lanes.length).toBe(laneStarts.length);
    for (const lane of lanes) expect(lane).toMatchObject({ service: 'pagewright-worker', attributes: { temporalWorkflowId: `crawl-${id}` } });

    // Every page once, inside a lane run, with its fetch and its conversion inside it.
    const pageSpans = named(trace, 'page');
    expect(childrenOf(trace, lanes, 'page')).toHaveLength(3);
    expect(pageSpans.map((s) => s.attributes['url.full']).sort()).toEqual([`${site.url}/`, `${site.url}/a`, `${site.url}/b`]);
    for (const page of pageSpans) {
      expect(childrenOf(trace, [page], 'page.fetch').map((s) => s.attributes)).toEqual([{ 'pagewright.engine': 'fetch', 'http.response.status_code': 200 }]);
      expect(childrenOf(trace, [page], 'page.convert')).toHaveLength(1);
    }
    expect(named(trace, 'page.fetch')).toHaveLength(3);
    expect(named(trace, 'page.convert')).toHaveLength(3);
    // Lanes store in batches: each batch a span in its lane run, together the three documents.
    const stores = named(trace, 'page.store');
    expect(childrenOf(trace, lanes, 'page.store')).toHaveLength(stores.length);
    expect(stores.reduce((n, s) => n + Number(s.attributes['pagewright.documents']), 0)).toBe(3);
    expect(trace.filter((s) => s.status === 2).map((s) => s.name)).toEqual([]);
    expect(receiver.refused).toBe(0);
  });

  it('follows a scrape in one trace from the API request to the worker that ran it', async () => {
    const res = await stack.post('/v1/scrape', { url: `${site.url}/a` });
    expect(res.status).toBe(200);

    const request = await waitFor(() => receiver.spans.find((s) => s.name === 'POST /v1/scrape'));
    await waitFor(() => receiver.spans.some((s) => s.traceId === request.traceId && s.name === 'POST /scrape' && s.kind === SPAN_KIND.server));
    await waitFor(() => receiver.spans.some((s) => s.traceId === request.traceId && s.name === 'page.store'));
    const trace = receiver.spans.filter((s) => s.traceId === request.traceId);

    expect(request).toMatchObject({ parentSpanId: '', kind: SPAN_KIND.server, service: 'pagewright-api', attributes: { 'http.route': '/v1/scrape', 'http.response.status_code': 200 } });
    const call = trace.find((s) => s.name === 'POST /scrape' && s.kind === SPAN_KIND.client)!;
    expect(call).toMatchObject({ parentSpanId: request.spanId, service: 'pagewright-api', attributes: { 'pagewright.scrape_id': res.body.scrape_id } });
    const served = trace.find((s) => s.name === 'POST /scrape' && s.kind === SPAN_KIND.server)!;
    expect(served).toMatchObject({ parentSpanId: call.spanId, service: 'pagewright-worker', attributes: { 'pagewright.scrape_id': res.body.scrape_id, 'http.response.status_code': 200 } });
    const page = one(trace, 'page');
    expect(page).toMatchObject({ parentSpanId: served.spanId, attributes: { 'url.full': `${site.url}/a` } });
    expect(one(trace, 'page.fetch').parentSpanId).toBe(page.spanId);
    expect(one(trace, 'page.convert').parentSpanId).toBe(page.spanId);
    expect(one(trace, 'page.store')).toMatchObject({ parentSpanId: served.spanId, attributes: { 'pagewright.pages': 1, 'pagewright.documents': 1 } });
    expect(trace.map((s) => s.name).sort()).toEqual(['POST /scrape', 'POST /scrape', 'POST /v1/scrape', 'page', 'page.convert', 'page.fetch', 'page.store']);
  });

  it.each([
    ['on (a worker restarted)', true],
    ['off (tracing turned off on the workers)', false],
  ])('replays a traced crawl\'s history with tracing %s, without a determinism error', async (_label, tracing) => {
    expect(tracedCrawlId).toBeDefined();
    const history = await stack.api.deps.temporal.workflow.getHandle(`crawl-${tracedCrawlId}`).fetchHistory();
    const workflowBundle = await bundleWorkflows({ tracing });
    expect(bundleTraces(workflowBundle)).toBe(tracing);
    const { sinks } = temporalWorkerTracing(noTracing);
    await expect(Worker.runReplayHistory({ workflowBundle, sinks }, history, `crawl-${tracedCrawlId}`)).resolves.toBeUndefined();
  }, 120_000);
});
