/**
 * The worker's side of traces through Temporal (README "Traces"; the client side and the whole path
 * are in telemetry/temporal.ts): a span per activity, continuing the trace its workflow passed in
 * the activity's headers; workflows that activities start carry the trace on; and the `exporter`
 * sink through which workflow spans leave the sandbox for this process's span processor.
 * Tracing off: no interceptors at all, and a sink that drops (only a workflow started while tracing
 * was on calls it, e.g. after tracing was turned off on the workers alone).
 */
import type * as OtelApi from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type * as OtelInterceptors from '@temporalio/interceptors-opentelemetry';
import type { OpenTelemetrySinks, SerializableSpan } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { temporalClientInterceptors } from './temporal.js';
import { requireWhenTracing, type Tracing } from './tracing.js';

/** What `Worker.create` takes for tracing: interceptors (none when off) and the sinks (for the worker that runs workflows). */
export function temporalWorkerTracing(tracing: Tracing): { interceptors?: WorkerInterceptors; sinks: InjectedSinks<OpenTelemetrySinks> } {
  const { tracer, export: out } = tracing;
  if (!tracer || !out) return { sinks: { exporter: { export: { fn: () => undefined, callDuringReplay: false } } } };
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } = requireWhenTracing('@temporalio/interceptors-opentelemetry/lib/worker') as Pick<typeof OtelInterceptors, 'OpenTelemetryActivityInboundInterceptor' | 'OpenTelemetryActivityOutboundInterceptor'>;
  const { createTraceState } = requireWhenTracing('@opentelemetry/api') as typeof OtelApi;
  const readable = (span: SerializableSpan, info: WorkflowInfo): ReadableSpan => {
    const { spanContext: { traceState, ...ids }, attributes, ...rest } = span;
    const spanContext = { ...ids, traceState: traceState ? createTraceState(traceState) : undefined };
    return {
      ...rest,
      attributes: { ...attributes, temporalWorkflowId: info.workflowId, run_id: info.runId, temporalWorkflowType: info.workflowType },
      spanContext: () => spanContext,
      resource: out.resource,
    };
  };
  return {
    interceptors: {
      client: temporalClientInterceptors(tracing),
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: {
      // Not the package's makeWorkflowExporter, which copies the whole WorkflowInfo (memo, search
      // attributes, nested objects) into every span: these carry the run's ids, as activity spans do.
      exporter: { export: { fn: (info, spans) => spans.forEach((span) => out.processor.onEnd(readable(span, info))), callDuringReplay: false } },
    },
  };
}

