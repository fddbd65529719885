/**
 * Traces through Temporal (README "Traces"), with @temporalio/interceptors-opentelemetry: a client
 * that starts a workflow passes its trace context in the workflow's headers; the workflow's spans
 * (workflows/tracing.ts, in the sandbox) continue it and pass it on to the activities they
 * schedule; an activity's span continues it on the worker (telemetry/temporal-worker.ts), so a
 * lane's page spans belong to the request that started the crawl.
 */
import type * as ClientInterceptorsModule from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import type { ClientInterceptors } from '@temporalio/client';
import { requireWhenTracing, type Tracing } from './tracing.js';

/** For a Temporal `Client`: workflow starts, signals, queries and cancellations get spans and carry the trace. None when tracing is off. */
export function temporalClientInterceptors(tracing: Tracing): ClientInterceptors | undefined {
  if (!tracing.tracer) return undefined;
  const { OpenTelemetryWorkflowClientInterceptor } = requireWhenTracing('@temporalio/interceptors-opentelemetry/lib/client') as typeof ClientInterceptorsModule;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}
