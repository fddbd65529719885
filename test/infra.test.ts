// The shared test infrastructure from test/global-setup.ts is real: each server answers its own protocol.
import { Connection } from '@temporalio/client';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { jobSearchAttributes } from '../scripts/infra/temporal.js';

// temporal.api.enums.v1.IndexedValueType, as listSearchAttributes reports it.
const indexedValueType = { Keyword: 2, Int: 3 } as const;

describe('test infrastructure', () => {
  it('PostgreSQL answers select 1 at databaseUrl, and the admin URL reaches the postgres database', async () => {
    for (const [url, database] of [[inject('databaseUrl'), 'pagewright_test'], [inject('postgresAdminUrl'), 'postgres']]) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ one: number; db: string }>('select 1 as one, current_database() as db');
        expect(rows).toEqual([{ one: 1, db: database }]);
      } finally {
        await client.end();
      }
    }
  });

  it('Redis answers PING at redisUrl', async () => {
    const redis = new Redis(inject('redisUrl'), { lazyConnect: true, maxRetriesPerRequest: 0 });
    await redis.connect();
    try {
      expect(await redis.ping()).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });

  it('Temporal describes the namespace and has the crawl search attributes registered with their types', async () => {
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const namespace = inject('temporalNamespace');
      const described = await connection.workflowService.describeNamespace({ namespace });
      expect(described.namespaceInfo?.name).toBe(namespace);
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      const registered = Object.fromEntries(Object.keys(jobSearchAttributes).map((name) => [name, customAttributes?.[name]]));
      const expected = Object.fromEntries(Object.entries(jobSearchAttributes).map(([name, type]) => [name, indexedValueType[type]]));
      expect(registered).toEqual(expected);
    } finally {
      await connection.close();
    }
  });
});
