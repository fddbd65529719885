/** API side → Temporal dev server → a real worker → PostgreSQL → back. */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertInline } from '../worker/convert-pool.js';
import { createEngineSet } from '../activities/engines/index.js';
import { startBrowserRuntime } from '../browser/runtime.js';
import { createLogger } from '../core/log.js';
import { createPrisma } from '../prisma/client.js';
import { createWorker } from '../worker/main.js';
import type { healthCheck } from '../workflows/index.js';
import { testConfig } from './helpers/env.js';

const config = testConfig('worker');
const prisma = createPrisma(config.DATABASE_URL);
let nativeConnection: NativeConnection;
let connection: Connection;

beforeAll(async () => {
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
});
afterAll(async () => {
  await connection?.close();
  await nativeConnection?.close();
  await prisma.$disconnect();
});

describe('Temporal wiring', () => {
  it('runs the healthCheck workflow and its activity on a real worker', async () => {
    const taskQueue = `roundtrip-${randomUUID()}`;
    const browser = await startBrowserRuntime(config);
    const deps = { config, prisma, log: createLogger({ name: 't', level: 'error' }), engines: createEngineSet(config, browser.pool), convert: convertInline };
    const worker = await createWorker({ config, connection: nativeConnection, taskQueue, deps });
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const before = Date.now();
    const result = await worker.runUntil(
      client.workflow.execute<typeof healthCheck>('healthCheck', { taskQueue, workflowId: `health-${randomUUID()}`, args: ['hello'] }),
    );
    expect(result.echo).toBe('hello');
    expect(result.worker).toMatch(new RegExp(`^${process.pid}@`));
    await browser.close();
    const dbTime = Date.parse(result.databaseTime);
    expect(dbTime).toBeGreaterThanOrEqual(before - 5000);
    expect(dbTime).toBeLessThanOrEqual(Date.now() + 5000);
  });
});
