/**
 * Workflow interceptors for traces (README "Traces"; telemetry/temporal.ts has the client and worker
 * side). In the workflow bundle only when tracing is on (worker/main.ts bundleWorkflows), and even
 * then a workflow is traced only when whoever started it passed a trace context in its headers, that
 * is, when tracing was on where it started. Any other workflow runs exactly as without these
 * interceptors: no span, no sink call, no extra await, so histories recorded before tracing existed
 * replay unchanged (and traced histories replay on a bundle without them: test/traces.test.ts).
 *
 * A traced workflow's spans (RunWorkflow, StartActivity, StartChildWorkflow, ContinueAsNew...) are
 * the OpenTelemetry interceptors' own; its activities, children and next run inherit the trace
 * through their headers.
 */
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import { OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type { WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowInternalsInterceptor, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';

interface Traced {
  inbound: OpenTelemetryInboundInterceptor;
  outbound: OpenTelemetryOutboundInterceptor;
  internals: OpenTelemetryInternalsInterceptor;
}

/** Called once per workflow run by the SDK. */
export const interceptors = (): WorkflowInterceptors => {
  // Decided when the run starts (its headers), made only then: an untraced run never builds a tracer.
  let traced: Traced | undefined;

  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input, next) {
      if (input.headers[TRACE_HEADER] !== undefined) traced ??= { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor(), internals: new OpenTelemetryInternalsInterceptor() };
      return traced ? traced.inbound.execute(input, next) : next(input);
    },
    handleSignal: (input, next) => (traced ? traced.inbound.handleSignal(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (traced ? traced.outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) => (traced ? traced.outbound.scheduleLocalActivity(input, next) : next(input)),
    startChildWorkflowExecution: (input, next) => (traced ? traced.outbound.startChildWorkflowExecution(input, next) : next(input)),
    continueAsNew: (input, next) => (traced ? traced.outbound.continueAsNew(input, next) : next(input)),
    signalWorkflow: (input, next) => (traced ? traced.outbound.signalWorkflow(input, next) : next(input)),
    getLogAttributes: (input, next) => (traced ? traced.outbound.getLogAttributes(input, next) : next(input)),
  };
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => (traced ? traced.internals.dispose(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};
