/**
 * The Temporal SDK's own worker metrics (task slots, poll latencies, activity and workflow task
 * counts, sticky cache) come from its Rust core, which can serve them only on a Prometheus listener of
 * its own. The worker binds that listener to a free loopback port and `GET /metrics` on the scrape
 * endpoint appends what it serves, so operators scrape one port per worker.
 */
import { createServer } from 'node:net';
import type { TelemetryOptions } from '@temporalio/worker';

/** Names of the SDK's metrics start with this (e.g. `pagewright_temporal_worker_task_slots_available`). */
export const TEMPORAL_METRIC_PREFIX = 'pagewright_temporal_';

/** A loopback port free right now (the core binds it a moment later). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runtime.install's telemetry: the core's Prometheus listener on `port`, in seconds and with `_total` counters like ours. */
export function temporalTelemetry(port: number): TelemetryOptions {
  return {
    metrics: {
      metricPrefix: TEMPORAL_METRIC_PREFIX,
      prometheus: { bindAddress: `127.0.0.1:${port}`, countersTotalSuffix: true, useSecondsForDurations: true },
    },
  };
}

/** Reads the core's metrics text; empty when the listener does not answer within a second. */
export function temporalMetricsReader(port: number): () => Promise<string> {
  return async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(1000) });
    return res.ok ? await res.text() : '';
  };
}
