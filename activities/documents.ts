/**
 * Storing pages. Page bodies and screenshots go to PostgreSQL; workflows only ever see the
 * document id (DESIGN.md: Temporal payloads stay small).
 */
import { randomUUID } from 'node:crypto';
import type { ChangeTracking } from '../core/change-tracking.js';
import type { PrismaClient } from '../prisma/client.js';
import { writeSnapshot, type SnapshotWrite } from './page/change-tracking.js';
import { meterKeyPage } from './usage.js';

export interface StoredPage {
  url: string;
  urlKey: string;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: Buffer;
  metadata: Record<string, unknown>;
  extract?: unknown;
  changeTracking?: ChangeTracking;
  /** Change tracking's new snapshot, written with the document. */
  snapshot?: SnapshotWrite;
  warning?: string;
  statusCode?: number;
}

/** A scrape result: no crawl, expires with the other documents after CRAWL_TTL_SECONDS. `apiKeyId`: whose account's usage it counts in. */
export async function storeScrapeDocument(prisma: PrismaClient, id: string | undefined, page: StoredPage, ttlSeconds: number, apiKeyId?: string): Promise<string> {
  const documentId = id ?? randomUUID();
  await prisma.$transaction(async (tx) => {
    // A retried activity with the same id stores nothing new, change tracking's snapshot included.
    if (await tx.document.findUnique({ where: { id: documentId }, select: { id: true } })) return;
    await tx.document.create({ data: documentData(documentId, page, ttlSeconds) });
    if (page.snapshot) await writeSnapshot(tx, page.snapshot);
    if (apiKeyId) await meterKeyPage(tx, apiKeyId);
  });
  return documentId;
}

function documentData(documentId: string, page: StoredPage, ttlSeconds: number) {
  return {
    id: documentId,
    url: page.url,
    urlKey: page.urlKey,
    markdown: page.markdown,
    html: page.html,
    rawHtml: page.rawHtml,
    links: page.links,
    screenshot: page.screenshot ? new Uint8Array(page.screenshot) : undefined,
    metadata: page.metadata as object,
    extract: page.extract === undefined ? undefined : (page.extract as object),
    changeTracking: page.changeTracking as object | undefined,
    warning: page.warning,
    statusCode: page.statusCode,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  };
}
