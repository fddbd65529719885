/** The SDK's log in the worker's JSON log: an outage said once each way, everything else passed through. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/log.js';
import { waitFor } from '../test/fixtures/receiver.js';
import { isUnreachableRetry, temporalLog } from './temporal-log.js';

/** Core's warning as the worker received it with the dev server SIGKILLed (forwarded LogEntry meta). */
const refused = {
  sdkComponent: 'core',
  target: 'temporalio_client::retry',
  error: 'Status { code: Unavailable, message: "tcp connect error", source: Some(tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:41493, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))) }',
};

/** The same when the server died under a long poll (seen under ./scripts/stack up). */
const brokenPipe = {
  ...refused,
  error: 'Status { code: Unknown, message: "transport error", source: Some(tonic::transport::Error(Transport, hyper::Error(Io, Custom { kind: BrokenPipe, error: "stream closed because of a broken pipe" }))) }',
};

function setup() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ name: 'worker', level: 'info', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const server = { up: false, probes: 0 };
  const sdk = temporalLog({
    log,
    probe: async () => {
      server.probes++;
      if (!server.up) throw new Error('14 UNAVAILABLE: No connection established');
    },
    probeEveryMs: 20,
  });
  const said = () => lines.map(({ time: _t, ...rest }) => rest);
  return { sdk, server, said };
}

describe('temporalLog', () => {
  it('recognises Core retry warnings for an unreachable server, and only those', () => {
    expect(isUnreachableRetry(refused)).toBe(true);
    expect(isUnreachableRetry(brokenPipe)).toBe(true);
    expect(isUnreachableRetry({ ...refused, target: 'temporalio_sdk_core::worker' })).toBe(false);
    expect(isUnreachableRetry({ ...refused, error: 'Status { code: NotFound, message: "namespace not found" }' })).toBe(false);
    expect(isUnreachableRetry(undefined)).toBe(false);
  });

  it('says once that Temporal is unreachable, drops the retries, and says once that it is back', async () => {
    const { sdk, server, said } = setup();
    for (let i = 0; i < 15; i++) sdk.logger.warn('gRPC call poll_activity_task_queue retried 6 times', brokenPipe);
    for (let i = 0; i < 50; i++) sdk.logger.warn('gRPC call poll_activity_task_queue retried 6 times', refused);
    await waitFor(() => sdk.state() === 'unreachable', 5000);
    for (let i = 0; i < 50; i++) sdk.logger.warn('gRPC call poll_workflow_task_queue retried 6 times', refused);
    await waitFor(() => server.probes >= 3, 5000);
    expect(said()).toEqual([{ level: 'warn', name: 'worker', msg: 'Temporal is unreachable; the worker keeps retrying, and says here when it is back', error: brokenPipe.error }]);

    server.up = true;
    await waitFor(() => sdk.state() === 'up', 5000);
    const probes = server.probes;
    expect(said()).toHaveLength(2);
    expect(said()[1]).toEqual({ level: 'info', name: 'worker', msg: 'Temporal is reachable again', unreachableForMs: expect.any(Number) as number });
    // Back up: no more probing.
    await new Promise((r) => setTimeout(r, 100));
    expect(server.probes).toBe(probes);
    sdk.close();
  });

  it('drops a retry warning the probe contradicts (a retry begun just before the server came back)', async () => {
    const { sdk, server, said } = setup();
    server.up = true;
    sdk.logger.warn('gRPC call respond_activity_task_completed retried 3 times', refused);
    expect(sdk.state()).toBe('checking');
    await waitFor(() => sdk.state() === 'up', 5000);
    expect(server.probes).toBe(1);
    expect(said()).toEqual([]);
    sdk.close();
  });

  it('passes every other SDK message through at its level, bigints as strings, below the level dropped', () => {
    const { sdk, server, said } = setup();
    sdk.logger.info('Worker state changed', { sdkComponent: 'worker', taskQueue: 'q', state: 'RUNNING' });
    sdk.logger.log('WARN', 'Activity heartbeat failed', { attempt: 3n, error: 'Status { code: NotFound }' });
    sdk.logger.debug('Workflow activation', { runId: 'r' });
    sdk.logger.trace('Core trace', {});
    sdk.logger.error('Worker failed', { sdkComponent: 'worker' });
    expect(said()).toEqual([
      { level: 'info', name: 'worker', msg: 'Worker state changed', sdkComponent: 'worker', taskQueue: 'q', state: 'RUNNING' },
      { level: 'warn', name: 'worker', msg: 'Activity heartbeat failed', attempt: '3', error: 'Status { code: NotFound }' },
      { level: 'error', name: 'worker', msg: 'Worker failed', sdkComponent: 'worker' },
    ]);
    expect(server.probes).toBe(0);
    sdk.close();
  });

  it('logs the SDK\'s "no workflows" warning at debug: the pages worker runs activities only, on purpose', () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ name: 'worker', level: 'debug', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const sdk = temporalLog({ log, probe: () => Promise.resolve() });
    sdk.logger.warn('No workflows registered, not polling for workflow tasks', { sdkComponent: 'worker', taskQueue: 'q-pages' });
    expect(lines.map(({ time: _t, ...rest }) => rest)).toEqual([
      { level: 'debug', name: 'worker', msg: 'No workflows registered, not polling for workflow tasks', sdkComponent: 'worker', taskQueue: 'q-pages' },
    ]);
    sdk.close();
  });
});
