/**
 * `pagewright_frontier_urls` (README "Metrics"), read from PostgreSQL when the API is scraped. In a
 * file of its own: the gauge sums every API of the process, and an API on the shared test database
 * would count the crawls other test files leave running there.
 */
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { applyMigrations } from '../scripts/migrate.js';
import { createPrisma } from '../prisma/client.js';
import { startTestApi } from './helpers/api.js';
import { sample, scrapeMetrics as metrics } from './helpers/prometheus.js';

describe('pagewright_frontier_urls', () => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `metrics_frontier_${process.pid}`;
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  afterAll(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));

  it('reports the queued and claimed URLs of running crawls only, read from PostgreSQL when scraped', async () => {
    // A database of its own: other test files crawl in the shared one at the same time.
    await admin(`CREATE DATABASE "${name}"`);
    await applyMigrations(databaseUrl);
    const prisma = createPrisma(databaseUrl);
    const api = await startTestApi({ env: { DATABASE_URL: databaseUrl } });
    try {
      const urls = (jobId: string, statuses: string[]) => statuses.map((status, i) => ({ jobId, urlKey: `k${i}`, url: `http://example.test/${i}`, depth: 0, discoveryDepth: 0, status }));
      await prisma.job.create({ data: { id: 'running', url: 'http://example.test/', options: {}, status: 'scraping', expiresAt: new Date(Date.now() + 3_600_000) } });
      await prisma.job.create({ data: { id: 'finished', url: 'http://example.test/', options: {}, status: 'completed', expiresAt: new Date(Date.now() + 3_600_000) } });
      await prisma.jobUrl.createMany({ data: [...urls('running', ['queued', 'queued', 'queued', 'claimed', 'done', 'failed']), ...urls('finished', ['queued', 'claimed'])] });
      const { text } = await metrics(api.url, null);
      expect(sample(text, 'pagewright_frontier_urls', { state: 'queued' })).toBe(3);
      expect(sample(text, 'pagewright_frontier_urls', { state: 'claimed' })).toBe(1);
      await prisma.job.update({ where: { id: 'running' }, data: { status: 'completed' } });
      const after = (await metrics(api.url, null)).text;
      expect(sample(after, 'pagewright_frontier_urls', { state: 'queued' })).toBe(0);
      expect(sample(after, 'pagewright_frontier_urls', { state: 'claimed' })).toBe(0);
    } finally {
      await api.close();
      await prisma.$disconnect();
    }
  });
});
