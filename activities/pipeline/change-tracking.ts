/**
 * The changeTracking format, inside the page pipeline (README "Change tracking"): the page is
 * compared with the last version its owner's change tracking saw at the same URL and tag, and that
 * snapshot is replaced. `git-diff` mode adds the unified diff, `json` mode the fields that differ
 * (both versions extracted by the LLM with the schema) or, without a schema, the LLM's account of
 * the differences. The new snapshot (and a change-log entry for a new, changed or removed page) is
 * written by whoever stores the document, in the same transaction (writeSnapshot): a scrape or
 * crawl page retried after a crash compares with the same old version again, not with itself.
 */
import { changedFields, isGone, markdownDiff, sameContent, type ChangeStatus, type ChangeTracking } from '../../core/change-tracking.js';
import type { PageOptions } from '../../core/schemas/scrape.js';
import { urlKey } from '../../core/url-key.js';
import type { PrismaClient } from '../../prisma/client.js';
import { ExtractionError, extractWithLlm, type LlmSettings, type TokenCount } from '../llm/extract.js';

export interface TrackRequest {
  /** Whose history: `key:<api key id>` or `payer:<address>`. */
  owner: string;
  /** The page as asked for (its URL key names the history). */
  url: string;
  markdown: string;
  statusCode: number;
  options: NonNullable<PageOptions['changeTrackingOptions']>;
  /** The document this scrape is stored as (a monitor's currentScrapeId, the next one's previousScrapeId). */
  documentId?: string;
  signal: AbortSignal;
  /** Counts the tokens of the LLM calls (json mode). */
  tokens?: TokenCount;
  /** The last version, when the caller has read it already (readSnapshot); undefined: read here. */
  previous?: Snapshot | null;
  /** Kept with the snapshot for the next check: the page's validators and links. */
  etag?: string;
  lastModified?: string;
  links?: string[];
}

export type Snapshot = NonNullable<Awaited<ReturnType<PrismaClient['pageSnapshot']['findUnique']>>>;

/** The last version its owner's change tracking saw of `url` under `tag` (null: none). */
export function readSnapshot(prisma: PrismaClient, owner: string, url: string, tag: string | null | undefined): Promise<Snapshot | null> {
  return prisma.pageSnapshot.findUnique({ where: { owner_urlKey_tag: { owner, urlKey: urlKey(url), tag: tag ?? '' } } });
}

const DIFF_PROMPT =
  'Compare the previous and the current version of this web page. Answer with one JSON object describing what changed (added, removed and changed information); use only facts from the two versions.';

/** What to write once the document is stored. */
export interface SnapshotWrite {
  owner: string;
  urlKey: string;
  tag: string;
  url: string;
  /** Undefined when the page is gone (404/410): the last content is kept. */
  markdown?: string;
  statusCode: number;
  documentId?: string;
  status: ChangeStatus;
  diff?: string;
  etag?: string;
  lastModified?: string;
  links?: string[];
}

export async function trackChanges(deps: { prisma: PrismaClient; llm?: LlmSettings }, req: TrackRequest): Promise<{ changeTracking: ChangeTracking; warning?: string; snapshot: SnapshotWrite }> {
  const { prisma } = deps;
  const key = urlKey(req.url);
  const tag = req.options.tag ?? '';
  const previous = req.previous !== undefined ? req.previous : await readSnapshot(prisma, req.owner, req.url, tag);
  const gone = isGone(req.statusCode);
  const status: ChangeStatus = gone ? 'removed' : !previous ? 'new' : sameContent(previous.markdown, req.markdown) ? 'same' : 'changed';
  const changeTracking: ChangeTracking = { previousScrapeAt: previous?.scrapedAt.toISOString() ?? null, changeStatus: status, visibility: 'visible' };
  let warning: string | undefined;
  const modes = req.options.modes ?? [];

  if (status === 'changed' && previous) {
    if (modes.includes('git-diff')) changeTracking.diff = markdownDiff(previous.markdown, req.markdown);
    if (modes.includes('json')) {
      if (!deps.llm) warning = 'Change tracking’s json mode needs an LLM (LLM_BASE_URL); it was skipped.';
      else {
        try {
          changeTracking.json = await jsonChanges(deps.llm, req, previous.markdown);
        } catch (err) {
          if (!(err instanceof ExtractionError)) throw err;
          warning = `Structured diff generation failed: ${err.message}`;
        }
      }
    }
  }

  const snapshot: SnapshotWrite = { owner: req.owner, urlKey: key, tag, url: req.url, ...(gone ? {} : { markdown: req.markdown }), statusCode: req.statusCode, documentId: req.documentId, status, ...(changeTracking.diff ? { diff: changeTracking.diff.text } : {}), etag: req.etag, lastModified: req.lastModified, links: req.links };
  return { changeTracking, snapshot, ...(warning ? { warning } : {}) };
}

type Tx = Pick<PrismaClient, 'pageSnapshot' | 'pageChange'>;

/** Replace the snapshot and log the change; call it in the transaction that stores the document. */
export async function writeSnapshot(tx: Tx, write: SnapshotWrite): Promise<void> {
  const now = new Date();
  const where = { owner_urlKey_tag: { owner: write.owner, urlKey: write.urlKey, tag: write.tag } };
  const validators = { etag: write.etag ?? null, lastModified: write.lastModified ?? null, ...(write.links ? { links: write.links } : {}) };
  // A page that is gone keeps its last content: if it comes back, it is compared with that.
  await tx.pageSnapshot.upsert({
    where,
    create: { owner: write.owner, urlKey: write.urlKey, tag: write.tag, url: write.url, markdown: write.markdown ?? '', statusCode: write.statusCode, scrapedAt: now, documentId: write.documentId, lastSeenAt: now, ...validators },
    update:
      write.markdown === undefined
        ? { statusCode: write.statusCode, lastSeenAt: now }
        : { url: write.url, markdown: write.markdown, statusCode: write.statusCode, scrapedAt: now, documentId: write.documentId, lastSeenAt: now, ...validators },
  });
  if (write.status !== 'same') await tx.pageChange.create({ data: { owner: write.owner, urlKey: write.urlKey, tag: write.tag, status: write.status, diff: write.diff } });
}

/** `json` mode: with a schema, the top-level fields that differ between both versions' extractions; without, the LLM's account. */
async function jsonChanges(llm: LlmSettings, req: TrackRequest, previous: string): Promise<unknown> {
  const { schema, prompt } = req.options;
  if (schema) {
    const extract = (markdown: string) => extractWithLlm(llm, { markdown, url: req.url, schema, prompt, signal: req.signal, tokens: req.tokens });
    const [before, after] = await Promise.all([extract(previous), extract(req.markdown)]);
    return changedFields(before, after);
  }
  return extractWithLlm(llm, { markdown: `Previous version:\n${previous}\n\nCurrent version:\n${req.markdown}`, url: req.url, prompt: prompt ?? DIFF_PROMPT, signal: req.signal, tokens: req.tokens });
}
