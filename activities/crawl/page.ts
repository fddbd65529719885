/**
 * One crawl page: fetch through the engine chain, convert, then in ONE transaction (holding the
 * crawl row lock) store the document with the next sequence number, admit the new links within the
 * limit, count skips and mark the URL done. A retried activity finds the URL done, or hits the
 * unique (crawl_id, url_key) on the document, so no page is ever stored twice.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CrawlOptions, CrawlPageInput, CrawlPageResult } from '../../core/crawl-contracts.js';
import type { PageFormat } from '../../core/html/types.js';
import { runEngines } from '../engines/chain.js';
import { EngineError } from '../engines/types.js';
import type { ActivityDeps } from '../index.js';
import { addSkips, admit, lockCrawl, type Candidate } from './frontier.js';
import { rulesFor } from './rules.js';
import { timeoutSignal } from '../../core/timeout-signal.js';

/** Attempts of a page whose fetch keeps failing before it is recorded as failed. */
export const PAGE_FETCH_ATTEMPTS = 3;
const PAGE_TIMEOUT_MS = 30_000;

export function crawlPageActivities(deps: ActivityDeps) {
  const { prisma, config } = deps;

  async function recordFailure(crawlId: string, urlId: bigint, error: string): Promise<CrawlPageResult> {
    await prisma.$transaction(async (tx) => {
      const crawl = await lockCrawl(tx, crawlId);
      const done = await tx.crawlUrl.updateMany({ where: { id: urlId, status: { in: ['queued', 'claimed'] } }, data: { status: 'failed', error: error.slice(0, 2000) } });
      if (crawl && done.count) await tx.crawl.update({ where: { id: crawlId }, data: { completed: { increment: 1 }, failed: { increment: 1 } } });
    });
    return { outcome: 'failed', admitted: 0 };
  }

  return {
    /** The workflow's last resort when a page activity failed for good: the URL must not stay claimed. */
    async recordPageFailure(input: CrawlPageInput & { error: string }): Promise<CrawlPageResult> {
      return recordFailure(input.crawlId, BigInt(input.urlId), input.error);
    },

    async crawlPage(input: CrawlPageInput): Promise<CrawlPageResult> {
      const ctx = Context.current();
      const urlId = BigInt(input.urlId);
      const row = await prisma.crawlUrl.findUnique({ where: { id: urlId }, include: { crawl: { select: { status: true, options: true, url: true, robotsTxt: true } } } });
      if (!row || row.status === 'done' || row.status === 'failed' || row.status === 'dropped') return { outcome: 'skipped', admitted: 0 };
      if (row.crawl.status !== 'scraping') {
        await prisma.crawlUrl.update({ where: { id: urlId }, data: { status: 'dropped' } });
        return { outcome: 'skipped', admitted: 0 };
      }
      const options = row.crawl.options as unknown as CrawlOptions;
      const scrape = options.scrapeOptions;
      const formats = scrape.formats ?? ['markdown'];
      const heartbeat = setInterval(() => ctx.heartbeat(), 2000);
      try {
        const deadline = Date.now() + PAGE_TIMEOUT_MS;
        const signal = AbortSignal.any([ctx.cancellationSignal, timeoutSignal(PAGE_TIMEOUT_MS)]);
        const screenshot = formats.includes('screenshot@fullPage') ? 'fullPage' : formats.includes('screenshot') ? 'viewport' : undefined;
        let fetched;
        try {
          fetched = await runEngines(deps.engines, { url: row.url, headers: scrape.headers ?? {}, waitFor: scrape.waitFor ?? 0, screenshot, signal, deadline });
        } catch (err) {
          if (ctx.cancellationSignal.aborted) throw err;
          const final = (err instanceof EngineError && (err.kind === 'blocked' || err.kind === 'invalid')) || ctx.info.attempt >= PAGE_FETCH_ATTEMPTS;
          if (!final) throw ApplicationFailure.retryable((err as Error).message, 'PageFetchFailed');
          return await recordFailure(input.crawlId, urlId, (err as Error).message);
        }
        ctx.heartbeat();
        const pageFormats = new Set<PageFormat>(['links', ...formats.filter((f): f is PageFormat => f === 'markdown' || f === 'html' || f === 'rawHtml')]);
        const page = await deps.convert({ body: fetched.body, contentType: fetched.contentType, url: fetched.finalUrl, formats: pageFormats, includeTags: scrape.includeTags, excludeTags: scrape.excludeTags, onlyMainContent: scrape.onlyMainContent });
        const rules = rulesFor(input.crawlId, options, row.crawl.robotsTxt, config.SERVICE_USER_AGENT);
        const candidates: Candidate[] = [];
        const skips: string[] = [];
        for (const link of page.links ?? []) {
          const verdict = rules.check(link, row.discoveryDepth);
          if (verdict.admit) candidates.push(verdict.candidate);
          else if (verdict.reason) skips.push(verdict.reason);
        }
        const metadata = { ...page.metadata, sourceURL: row.url, url: fetched.finalUrl, statusCode: fetched.statusCode, contentType: fetched.contentType ?? page.metadata.contentType, engine: fetched.engine };
        const documentId = `${input.crawlId}:${row.urlKey}`;
        return await prisma.$transaction(async (tx) => {
          const crawl = await lockCrawl(tx, input.crawlId);
          if (!crawl || crawl.status !== 'scraping') {
            await tx.crawlUrl.update({ where: { id: urlId }, data: { status: 'dropped' } });
            return { outcome: 'skipped', admitted: 0 } satisfies CrawlPageResult;
          }
          // Under the crawl lock nothing else can store this URL between this check and the insert.
          if (await tx.document.findFirst({ where: { crawlId: input.crawlId, urlKey: row.urlKey }, select: { id: true } })) {
            await tx.crawlUrl.update({ where: { id: urlId }, data: { status: 'done' } });
            return { outcome: 'skipped', admitted: 0 } satisfies CrawlPageResult;
          }
          const seq = await tx.$queryRaw<{ next_sequence: number }[]>`UPDATE crawl SET next_sequence = next_sequence + 1 WHERE id = ${input.crawlId} RETURNING next_sequence - 1 AS next_sequence`;
          await tx.document.create({
            data: {
              id: documentId,
              crawlId: input.crawlId,
              sequence: seq[0]!.next_sequence,
              urlKey: row.urlKey,
              url: fetched.finalUrl,
              markdown: formats.includes('markdown') ? page.markdown : undefined,
              html: page.html,
              rawHtml: page.rawHtml,
              links: formats.includes('links') ? page.links : undefined,
              screenshot: fetched.screenshot ? new Uint8Array(fetched.screenshot) : undefined,
              metadata: metadata as object,
              statusCode: fetched.statusCode,
              warning: fetched.statusCode >= 300 ? `The target answered HTTP ${fetched.statusCode}.` : undefined,
              expiresAt: new Date(Date.now() + config.CRAWL_TTL_SECONDS * 1000),
            },
          });
          const { admitted, overflow } = await admit(tx, input.crawlId, crawl.total, crawl.options.limit, candidates);
          const skipped = addSkips(crawl.skipped, [...skips, ...Array(overflow).fill('limit_reached')]);
          await tx.crawl.update({
            where: { id: input.crawlId },
            data: { completed: { increment: 1 }, creditsUsed: { increment: 1 }, total: { increment: admitted }, skipped, updatedAt: new Date() },
          });
          await tx.crawlUrl.update({ where: { id: urlId }, data: { status: 'done' } });
          return { outcome: 'stored', documentId, admitted } satisfies CrawlPageResult;
        });
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}
