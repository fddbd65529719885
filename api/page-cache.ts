/**
 * Reading the page cache (README "Page cache"): the newest stored document with the request's cache
 * key (core/page-cache.ts) within its age bounds, read by the API itself, no worker involved. A hit
 * is metered like a scraped page, in the same statement.
 */
import { Prisma, type PrismaClient } from '../prisma/client.js';
import { meteringCtes } from '../prisma/usage.js';
import type { StoredDocument } from '../core/document.js';

export interface CachedPage extends StoredDocument {
  id: string;
  warning: string | null;
  createdAt: Date;
}

export interface CacheBounds {
  /** Younger than this many ms. */
  maxAge?: number;
  /** At least this many ms old. */
  minAge?: number;
}

export async function readCachedPage(prisma: PrismaClient, key: string, bounds: CacheBounds, apiKeyId?: string): Promise<CachedPage | undefined> {
  const young = bounds.maxAge !== undefined ? Prisma.sql`AND created_at > now() - make_interval(secs => ${bounds.maxAge / 1000})` : Prisma.empty;
  const old = bounds.minAge !== undefined ? Prisma.sql`AND created_at <= now() - make_interval(secs => ${bounds.minAge / 1000})` : Prisma.empty;
  const rows = await prisma.$queryRaw<CachedPage[]>`
    WITH hit AS (
      SELECT id, markdown, html, raw_html AS "rawHtml", links, images, attributes, summary, screenshot, actions, metadata, extract, change_tracking AS "changeTracking", warning, created_at AS "createdAt"
      FROM document
      WHERE cache_key = ${key} AND expires_at > now() ${young} ${old}
      ORDER BY created_at DESC
      LIMIT 1),
    owner AS (SELECT account_id, id AS api_key_id, 1 AS pages FROM api_key WHERE id = ${apiKeyId ?? null} AND EXISTS (SELECT 1 FROM hit)),
    ${meteringCtes}
    SELECT * FROM hit`;
  return rows[0];
}
