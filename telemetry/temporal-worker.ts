/**
 * The worker's side of traces through Temporal (README "Traces"; the client side and the whole path
 * are in telemetry/temporal.ts): a span per activity, continuing the trace its workflow passed in
 * the activity's headers; workflows that activities start carry the trace on; and the `exporter`
 * sink through which workflow spans leave the sandbox for this process's span processor.
 * Tracing off: no interceptors at all, and a sink that drops (only a workflow started while tracing
 * was on calls it, e.g. after tracing was turned off on the workers alone).
 */
import { createTraceState } from '@opentelemetry/api';
import type { IResource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { OpenTelemetrySinks, SerializableSpan } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { temporalClientInterceptors } from './temporal.js';
import type { Tracing } from './tracing.js';

/** What `Worker.create` takes for tracing: interceptors (none when off) and the sinks (for the worker that runs workflows). */
export function temporalWorkerTracing(tracing: Tracing): { interceptors?: WorkerInterceptors; sinks: InjectedSinks<OpenTelemetrySinks> } {
  const { tracer, export: out } = tracing;
  if (!tracer || !out) return { sinks: { exporter: { export: { fn: () => undefined, callDuringReplay: false } } } };
  return {
    interceptors: {
      client: temporalClientInterceptors(tracing),
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: {
      // Not the package's makeWorkflowExporter, which copies the whole WorkflowInfo (memo, search
      // attributes, nested objects) into every span: these carry the run's ids, as activity spans do.
      exporter: { export: { fn: (info, spans) => spans.forEach((span) => out.processor.onEnd(readable(span, info, out.resource))), callDuringReplay: false } },
    },
  };
}

/** A workflow span as it crossed the sandbox boundary, made readable again for the span processor. */
function readable(span: SerializableSpan, info: WorkflowInfo, resource: IResource): ReadableSpan {
  const { spanContext: { traceState, ...ids }, attributes, ...rest } = span;
  const spanContext = { ...ids, traceState: traceState ? createTraceState(traceState) : undefined };
  return {
    ...rest,
    attributes: { ...attributes, temporalWorkflowId: info.workflowId, run_id: info.runId, temporalWorkflowType: info.workflowType },
    spanContext: () => spanContext,
    resource,
  };
}
