/**
 * Where a lane's finished pages land: ONE transaction per batch, holding the crawl row lock, stores
 * the documents with the next gap-free sequence numbers (multi-row insert), admits the batch's new
 * links within the exact `limit`, counts skips, updates the counters and settles each URL: done,
 * failed (with its error) or back to the queue with a backoff. A URL already settled by someone else
 * (a zombie attempt, a retried lane) is left alone, and a page whose document exists is never stored
 * twice: the lock makes "check, then insert" safe, and unique (crawl_id, url_key) backs it up.
 */
import type { StoredPage } from '../documents.js';
import type { Prisma, PrismaClient } from '../../prisma/client.js';
import { addSkips, admit, lockCrawl, type Candidate, type ClaimedUrl } from './frontier.js';

export type PageOutcome =
  | { kind: 'stored'; row: ClaimedUrl; document: StoredPage; candidates: Candidate[]; skips: string[] }
  | { kind: 'failed'; row: ClaimedUrl; error: string }
  /**
   * Back to the queue, claimable again at `retryAt`. `tried`: a failed try (counts as an attempt);
   * `throttled`: the site asked us to slow down (counts as a throttle, not an attempt); `not_tried`:
   * the crawl was paused before it was fetched (counts as nothing).
   */
  | { kind: 'requeue'; row: ClaimedUrl; retryAt: Date; why: 'tried' | 'throttled' | 'not_tried'; error: string };

export interface BatchResult {
  /** Documents stored by this batch: their URL ids and document ids. */
  stored: { urlId: bigint; documentId: string }[];
  admitted: number;
  /** The crawl was no longer running: nothing was stored, the batch's URLs were dropped. */
  stopped: boolean;
}

export const documentIdFor = (crawlId: string, urlKey: string) => `${crawlId}:${urlKey}`;

const ERROR_MAX_CHARS = 2000;

type Tx = Prisma.TransactionClient;

async function settle(tx: Tx, outcomes: PageOutcome[], done: bigint[]): Promise<void> {
  if (done.length) await tx.crawlUrl.updateMany({ where: { id: { in: done } }, data: { status: 'done' } });
  for (const o of outcomes) {
    if (o.kind === 'failed') await tx.crawlUrl.update({ where: { id: o.row.id }, data: { status: 'failed', error: o.error.slice(0, ERROR_MAX_CHARS) } });
    else if (o.kind === 'requeue') {
      await tx.crawlUrl.update({
        where: { id: o.row.id },
        data: {
          status: 'queued',
          claimedBy: null,
          claimedAt: null,
          retryAt: o.retryAt,
          ...(o.why === 'throttled' ? { throttles: { increment: 1 } } : {}),
          ...(o.why === 'tried' ? {} : { attempts: { decrement: 1 } }),
        },
      });
    }
  }
}

export async function storeBatch(prisma: PrismaClient, crawlId: string, outcomes: PageOutcome[], ttlSeconds: number): Promise<BatchResult> {
  if (outcomes.length === 0) return { stored: [], admitted: 0, stopped: false };
  return prisma.$transaction(async (tx) => {
    const crawl = await lockCrawl(tx, crawlId);
    const ids = outcomes.map((o) => o.row.id);
    if (!crawl || crawl.status !== 'scraping') {
      await tx.crawlUrl.updateMany({ where: { id: { in: ids }, status: { in: ['queued', 'claimed'] } }, data: { status: 'dropped' } });
      return { stored: [], admitted: 0, stopped: true };
    }
    // Only URLs still open are settled here; one settled meanwhile by another attempt stays as it is.
    const open = new Set((await tx.crawlUrl.findMany({ where: { id: { in: ids }, status: { in: ['queued', 'claimed'] } }, select: { id: true } })).map((r) => r.id));
    const mine = outcomes.filter((o) => open.has(o.row.id));
    const pages = mine.filter((o): o is Extract<PageOutcome, { kind: 'stored' }> => o.kind === 'stored');
    const existing = pages.length
      ? new Set((await tx.document.findMany({ where: { crawlId, urlKey: { in: pages.map((p) => p.row.urlKey) } }, select: { urlKey: true } })).map((d) => d.urlKey))
      : new Set<string>();
    const fresh = pages.filter((p) => !existing.has(p.row.urlKey));

    const stored: BatchResult['stored'] = [];
    if (fresh.length) {
      const seq = await tx.$queryRaw<{ first: number }[]>`UPDATE crawl SET next_sequence = next_sequence + ${fresh.length} WHERE id = ${crawlId} RETURNING next_sequence - ${fresh.length} AS first`;
      const first = seq[0]!.first;
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
      await tx.document.createMany({
        data: fresh.map((p, i) => {
          const d = p.document;
          stored.push({ urlId: p.row.id, documentId: documentIdFor(crawlId, p.row.urlKey) });
          return {
            id: documentIdFor(crawlId, p.row.urlKey),
            crawlId,
            sequence: first + i,
            urlKey: p.row.urlKey,
            url: d.url,
            markdown: d.markdown,
            html: d.html,
            rawHtml: d.rawHtml,
            links: d.links,
            screenshot: d.screenshot ? new Uint8Array(d.screenshot) : undefined,
            metadata: d.metadata as object,
            extract: d.extract === undefined ? undefined : (d.extract as object),
            warning: d.warning,
            statusCode: d.statusCode,
            expiresAt,
          };
        }),
      });
    }
    const { admitted, overflow } = await admit(tx, crawlId, crawl.total, crawl.options.limit, pages.flatMap((p) => p.candidates));
    const failed = mine.filter((o) => o.kind === 'failed').length;
    const skips = [...pages.flatMap((p) => p.skips), ...Array<string>(overflow).fill('limit_reached')];
    await tx.crawl.update({
      where: { id: crawlId },
      data: {
        completed: { increment: fresh.length + failed },
        failed: { increment: failed },
        creditsUsed: { increment: fresh.length },
        total: { increment: admitted },
        ...(skips.length ? { skipped: addSkips(crawl.skipped, skips) } : {}),
        updatedAt: new Date(),
      },
    });
    await settle(tx, mine, pages.map((p) => p.row.id));
    return { stored, admitted, stopped: false };
  });
}
