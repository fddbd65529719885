/**
 * Storing pages. Page bodies and screenshots go to PostgreSQL; workflows only ever see the
 * document id (DESIGN.md: Temporal payloads stay small).
 */
import { randomUUID } from 'node:crypto';
import type { ChangeTracking } from '../core/change-tracking.js';
import type { ActionResults } from '../core/schemas/actions.js';
import type { AttributeValues } from '../core/html/types.js';
import { Prisma, rawRows, type PrismaClient } from '../prisma/client.js';
import { writeSnapshot, type SnapshotWrite } from './pipeline/change-tracking.js';
import { meteringCtes } from '../prisma/usage.js';
import { creditsMetered, since, storeDuration } from '../telemetry/metrics.js';

export interface StoredPage {
  url: string;
  urlKey: string;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  attributes?: AttributeValues[];
  summary?: string;
  screenshot?: Buffer;
  actions?: ActionResults;
  metadata: Record<string, unknown>;
  extract?: unknown;
  changeTracking?: ChangeTracking;
  /** Change tracking's new snapshot, written with the document. */
  snapshot?: SnapshotWrite;
  warning?: string;
  statusCode?: number;
}

/** Where a scrape result goes: whose usage it counts in, how long it lives, and its page cache key. */
export interface ScrapeStore {
  ttlSeconds: number;
  apiKeyId?: string;
  /** In the page cache under this key (core/page-cache.ts), kept at least `cacheSeconds`. */
  cacheKey?: string;
  cacheSeconds?: number;
}

/**
 * A scrape result: no crawl, expires with the other documents after CRAWL_TTL_SECONDS (or later, when
 * it is in the page cache). `apiKeyId`: whose account's usage it counts in. One statement stores it
 * and meters it (a scrape's store is on the caller's path: README "Scrape path"); a retried store
 * with the same id adds nothing, metering included. With a change-tracking snapshot, the snapshot
 * joins it in one transaction.
 */
export async function storeScrapeDocument(prisma: PrismaClient, id: string | undefined, page: StoredPage, where: ScrapeStore): Promise<string> {
  const documentId = id ?? randomUUID();
  const started = performance.now();
  const statement = insertAndMeter(documentId, page, where);
  let stored: number;
  // Sent by node-postgres (rawRows), as the crawl's batch stores are: a 10 KB page's insert took 0.45 ms of
  // the worker's CPU and 0.8-1.0 ms through Prisma's query interpreter, 0.16-0.21 ms and 0.4-0.5 ms this way.
  if (!page.snapshot) stored = storedCount(await rawRows<StoredRow>(prisma, statement));
  else {
    stored = await prisma.$transaction(async (tx) => {
      // Only the first store writes the snapshot: a retried one must not compare against itself.
      const n = storedCount(await tx.$queryRaw<StoredRow[]>(statement));
      if (n > 0) await writeSnapshot(tx, page.snapshot!);
      return n;
    });
  }
  storeDuration.observe({ kind: 'scrape' }, since(started));
  if (stored > 0 && where.apiKeyId) creditsMetered.inc({ source: 'scrape' });
  return documentId;
}

type StoredRow = { stored: number };
/** 1 when the document was new (then counted in usage), 0 when it existed. */
const storedCount = (rows: StoredRow[]) => rows[0]?.stored ?? 0;

function insertAndMeter(id: string, page: StoredPage, where: ScrapeStore): Prisma.Sql {
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  const ttlSeconds = where.cacheKey ? Math.max(where.ttlSeconds, where.cacheSeconds ?? 0) : where.ttlSeconds;
  return Prisma.sql`
    WITH ins AS (
      INSERT INTO document (id, url_key, url, markdown, html, raw_html, links, images, attributes, summary, screenshot, actions, metadata, extract, change_tracking, warning, status_code, cache_key, expires_at)
      VALUES (${id}, ${page.urlKey}, ${page.url}, ${page.markdown ?? null}, ${page.html ?? null}, ${page.rawHtml ?? null}, ${json(page.links)}::jsonb,
        ${json(page.images)}::jsonb, ${json(page.attributes)}::jsonb, ${page.summary ?? null},
        ${page.screenshot ? new Uint8Array(page.screenshot) : null}::bytea, ${json(page.actions)}::jsonb, ${JSON.stringify(page.metadata)}::jsonb, ${json(page.extract)}::jsonb,
        ${json(page.changeTracking)}::jsonb, ${page.warning ?? null}, ${page.statusCode ?? null}::int, ${where.cacheKey ?? null}, now() + make_interval(secs => ${ttlSeconds}::float8))
      ON CONFLICT (id) DO NOTHING RETURNING id),
    owner AS (SELECT account_id, id AS api_key_id, 1 AS pages FROM api_key WHERE id = ${where.apiKeyId ?? null} AND EXISTS (SELECT 1 FROM ins)),
    ${meteringCtes}
    SELECT (SELECT count(*) FROM ins)::int AS stored`;
}
