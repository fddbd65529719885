import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../core/log.js';
import { startOtlpReceiver, type OtlpReceiver } from '../test/fixtures/otlp-receiver.js';
import { startFixtureServer, type FixtureServer } from '../test/fixtures/server.js';
import { exportHeaders, noTracing, startTracing, tracesUrl } from './tracing.js';

function recordingLog(): Logger & { lines: [string, string][] } {
  const lines: [string, string][] = [];
  const log = {
    lines,
    debug: (m: string) => void lines.push(['debug', m]),
    info: (m: string) => void lines.push(['info', m]),
    warn: (m: string) => void lines.push(['warn', m]),
    error: (m: string) => void lines.push(['error', m]),
    child: () => log,
  };
  return log;
}

const settings = (endpoint: string | undefined, extra: Partial<Parameters<typeof startTracing>[0]> = {}) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER_ARG: 1, OTEL_BSP_SCHEDULE_DELAY: 50, ...extra });

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('startTracing', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT: spans record nothing and no header is added', async () => {
    const tracing = startTracing(settings(undefined), 'api', recordingLog());
    expect(tracing).toBe(noTracing);
    expect(tracing.tracer).toBeUndefined();
    const seen = await tracing.span('x', async (span) => span.isRecording());
    expect(seen).toBe(false);
    const headers: Record<string, string> = {};
    tracing.inject(headers);
    expect(headers).toEqual({});
  });

  it('sends nested spans, the configured headers and service name, and marks a failed span as an error', async () => {
    const before = receiver.hits.length;
    const tracing = startTracing(settings(receiver.url, { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-team=ops', OTEL_SERVICE_NAME: 'scraper-a' }), 'worker', recordingLog());
    const headers: Record<string, string> = {};
    await tracing.span('outer', () => tracing.span('inner', async () => tracing.inject(headers)));
    await expect(tracing.span('broken', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await tracing.shutdown();

    const [outer, inner, broken] = ['outer', 'inner', 'broken'].map((n) => receiver.spans.find((s) => s.name === n)!);
    expect(outer).toMatchObject({ parentSpanId: '', service: 'scraper-a', status: 0 });
    expect(inner).toMatchObject({ parentSpanId: outer!.spanId, traceId: outer!.traceId });
    expect(broken).toMatchObject({ parentSpanId: '', status: 2 });
    expect(headers).toEqual({ traceparent: `00-${inner!.traceId}-${inner!.spanId}-01` });
    const sent = receiver.hits.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const hit of sent) expect(hit).toMatchObject({ path: '/v1/traces', headers: { authorization: 'Bearer abc', 'x-team': 'ops' } });
  });

  it('records no trace when the sample ratio is 0, and continues a caller\'s unsampled trace unrecorded', async () => {
    const before = receiver.hits.length;
    const tracing = startTracing(settings(receiver.url, { OTEL_TRACES_SAMPLER_ARG: 0 }), 'api', recordingLog());
    expect(await tracing.span('dropped', async (span) => span.isRecording(), { parent: 'root' })).toBe(false);
    const sampledIn = startTracing(settings(receiver.url), 'worker', recordingLog());
    const unsampled = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' };
    expect(await sampledIn.span('follows', async (span) => span.isRecording(), { parent: unsampled })).toBe(false);
    await Promise.all([tracing.shutdown(), sampledIn.shutdown()]);
    expect(receiver.hits.slice(before)).toEqual([]);
  });

  it('says once that the collector refuses spans, and once that it takes them again', async () => {
    let refuse = true;
    const collector: FixtureServer = await startFixtureServer({ '/v1/traces': (_q, res) => void res.writeHead(refuse ? 400 : 200, { 'content-type': 'application/json' }).end('{}') });
    const log = recordingLog();
    const tracing = startTracing(settings(collector.url), 'api', log);
    const exported = async (n: number) => {
      const before = collector.hits.length;
      await tracing.span(`s${n}`, async () => undefined);
      while (collector.hits.length === before) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
    };
    await exported(1);
    await exported(2);
    refuse = false;
    await exported(3);
    await exported(4);
    await tracing.shutdown();
    await collector.close();
    expect(log.lines.filter(([level]) => level !== 'debug').map(([, m]) => m)).toEqual([
      'tracing on',
      'trace export failing; spans are dropped until the collector answers',
      'trace export works again',
    ]);
  });
});

describe('settings', () => {
  it('parses OTEL_EXPORTER_OTLP_HEADERS as URL-encoded name=value pairs', () => {
    expect(exportHeaders('authorization=Basic%20dXNlcjpwYXNz, x-key = a=b')).toEqual({ authorization: 'Basic dXNlcjpwYXNz', 'x-key': 'a=b' });
    expect(exportHeaders(undefined)).toEqual({});
  });

  it('sends traces to <endpoint>/v1/traces', () => {
    expect(tracesUrl('http://collector:4318')).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl('https://otlp.example.com/otlp/')).toBe('https://otlp.example.com/otlp/v1/traces');
  });
});
