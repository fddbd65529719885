/**
 * OpenTelemetry traces (README "Traces"): on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Each
 * process builds one `Tracing` from its settings and hands it to what makes spans (the API's request
 * middleware and Temporal client, the worker's activities, page pipeline and scrape endpoint). Off,
 * it is `noTracing`, whose `span` only calls its function: the OpenTelemetry packages are not even
 * loaded (they are required here, when tracing starts), no global is registered, no span is made.
 *
 * The SDK is configured from our settings (core/config-table.ts), not from its own reading of the
 * environment. Spans go through a batch processor to one OTLP/HTTP exporter (JSON). Workflow spans
 * are made inside the workflow sandbox and reach the same processor through a sink (telemetry/temporal-worker.ts).
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Span, SpanStatusCode, Tracer } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as OtelCore from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type { IResource } from '@opentelemetry/resources';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';

/** Loads an OpenTelemetry package when tracing starts (they are CommonJS), so a process without tracing never does. */
export const requireWhenTracing = createRequire(import.meta.url);

export interface SpanOptions {
  kind?: 'internal' | 'server' | 'client';
  attributes?: Attributes;
  /**
   * Where the span's parent comes from: `active` (default) the span running now; `root` none (a new
   * trace); or the headers of an incoming request carrying a W3C `traceparent`.
   */
  parent?: 'active' | 'root' | Record<string, string | string[] | undefined>;
}

export interface Tracing {
  /** The tracer, for the Temporal interceptors; undefined when tracing is off. */
  readonly tracer: Tracer | undefined;
  /** Where finished spans go, with the resource naming this process: for workflow spans (telemetry/temporal-worker.ts). */
  readonly export: { processor: SpanProcessor; resource: IResource } | undefined;
  /**
   * Run `fn` inside a new span, active for everything `fn` awaits. The span ends when `fn` settles;
   * a rejection marks it as an error. Off: `fn` runs with a span that records nothing.
   */
  span<T>(name: string, fn: (span: Span) => Promise<T>, options?: SpanOptions): Promise<T>;
  /** Add the active span's W3C trace context (`traceparent`) to outgoing request headers. Off: nothing. */
  inject(headers: Record<string, string>): void;
  /** Send what is still buffered and stop. */
  shutdown(): Promise<void>;
}

/** Records nothing: what `fn` gets when tracing is off. One shared object, made once. */
const nothing: Span = {
  spanContext: () => ({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 }),
  setAttribute: () => nothing,
  setAttributes: () => nothing,
  addEvent: () => nothing,
  addLink: () => nothing,
  addLinks: () => nothing,
  setStatus: () => nothing,
  updateName: () => nothing,
  end: () => undefined,
  isRecording: () => false,
  recordException: () => undefined,
};

export const noTracing: Tracing = {
  tracer: undefined,
  export: undefined,
  span: (_name, fn) => fn(nothing),
  inject: () => undefined,
  shutdown: async () => undefined,
};

const ERROR: SpanStatusCode.ERROR = 2;

/** A server span's answer: its status code, and an error when it is a 5xx (as OpenTelemetry's HTTP conventions say). */
export function answered(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: ERROR });
}

/** Parsed OTEL_EXPORTER_OTLP_HEADERS: `name=value,...`, values URL-decoded (as the OpenTelemetry spec writes them). */
export function exportHeaders(setting: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of setting?.split(',') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0) headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/** The spec's rule for the generic endpoint setting: traces go to `<endpoint>/v1/traces`. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

let globalsRegistered = false;

/**
 * Context and propagation are process-wide in OpenTelemetry: the context manager carries the active
 * span across awaits, and the Temporal interceptors put trace context into headers through the
 * global propagator. Registered once, by the first process part that turns tracing on (tests run an
 * API and workers in one process).
 */
function registerGlobals(api: typeof OtelApi, core: typeof OtelCore): void {
  if (globalsRegistered) return;
  globalsRegistered = true;
  const { AsyncLocalStorageContextManager } = requireWhenTracing('@opentelemetry/context-async-hooks') as typeof ContextAsyncHooks;
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
}

/** An exporter that says once in the log that the collector refuses or cannot be reached, and once when it is back. */
function reportingFailures(inner: SpanExporter, log: Logger, url: string, ok: OtelCore.ExportResultCode): SpanExporter {
  let failing = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      inner.export(spans, (result) => {
        if (result.code !== ok && !failing) log.warn('trace export failing; spans are dropped until the collector answers', { url, error: result.error?.message });
        else if (result.code === ok && failing) log.info('trace export works again', { url });
        failing = result.code !== ok;
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

type TracingSettings = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_HEADERS' | 'OTEL_SERVICE_NAME' | 'OTEL_TRACES_SAMPLER_ARG' | 'OTEL_BSP_SCHEDULE_DELAY'>;

/** This process's tracing: `noTracing` unless OTEL_EXPORTER_OTLP_ENDPOINT is set. `role` names the service by default. */
export function startTracing(config: TracingSettings, role: 'api' | 'worker', log: Logger): Tracing {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return noTracing;
  const api = requireWhenTracing('@opentelemetry/api') as typeof OtelApi;
  const core = requireWhenTracing('@opentelemetry/core') as typeof OtelCore;
  const { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } = requireWhenTracing('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  const { OTLPTraceExporter } = requireWhenTracing('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { Resource } = requireWhenTracing('@opentelemetry/resources') as typeof Resources;
  registerGlobals(api, core);

  const url = tracesUrl(config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const exporter = new OTLPTraceExporter({ url, headers: exportHeaders(config.OTEL_EXPORTER_OTLP_HEADERS), timeoutMillis: 10_000 });
  const processor = new BatchSpanProcessor(reportingFailures(exporter, log, url, core.ExportResultCode.SUCCESS), {
    scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
    maxExportBatchSize: 512,
    // Beyond this many spans waiting (a collector that is down), new ones are dropped rather than held in memory.
    maxQueueSize: 4096,
    exportTimeoutMillis: 30_000,
  });
  const resource = new Resource({ 'service.name': config.OTEL_SERVICE_NAME ?? `pagewright-${role}` });
  const provider = new BasicTracerProvider({
    resource,
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG) }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('pagewright');
  const kinds = { internal: api.SpanKind.INTERNAL, server: api.SpanKind.SERVER, client: api.SpanKind.CLIENT };
  log.info('tracing on', { url, service: resource.attributes['service.name'] });

  return {
    tracer,
    export: { processor, resource },
    span(name, fn, options = {}) {
      const { parent = 'active' } = options;
      const from = parent === 'active' ? api.context.active() : parent === 'root' ? api.ROOT_CONTEXT : api.propagation.extract(api.ROOT_CONTEXT, parent);
      return tracer.startActiveSpan(name, { kind: kinds[options.kind ?? 'internal'], attributes: options.attributes }, from, async (span) => {
        try {
          return await fn(span);
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: ERROR, message: (err as Error)?.message });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    inject(headers) {
      api.propagation.inject(api.context.active(), headers);
    },
    shutdown: () => provider.shutdown(),
  };
}
