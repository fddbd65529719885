/**
 * A check's pages: each page its targets' jobs stored, with the status change tracking gave it
 * (same / new / changed / removed for a 404), each page that failed (`error`), and each page the
 * previous check had that this one did not reach (`removed`). Changed pages are judged against
 * the monitor's goal by the LLM when judging is on.
 */
import type { ChangeTracking } from '../../core/change-tracking.js';
import type { TargetRun } from '../../core/monitor-contracts.js';
import type { Monitor, PrismaClient } from '../../prisma/client.js';
import { ExtractionError, extractWithLlm, type LlmSettings } from '../llm/extract.js';

export type PageStatus = 'same' | 'new' | 'changed' | 'removed' | 'error';

export interface CheckPage {
  targetId: string;
  url: string;
  urlKey: string;
  status: PageStatus;
  statusCode: number | null;
  error: string | null;
  diff: object | null;
  snapshot: object | null;
  judgment: object | null;
  currentScrapeId: string | null;
}

const judgmentSchema = {
  type: 'object',
  properties: {
    meaningful: { type: 'boolean' },
    confidence: { enum: ['high', 'medium', 'low'] },
    reason: { type: 'string' },
    meaningfulChanges: {
      type: 'array',
      items: { type: 'object', properties: { type: { enum: ['added', 'removed', 'changed'] }, before: { type: ['string', 'null'] }, after: { type: ['string', 'null'] }, reason: { type: 'string' } }, required: ['type', 'reason'] },
    },
  },
  required: ['meaningful', 'confidence', 'reason', 'meaningfulChanges'],
} as const;

export const NO_JUDGE = 'No LLM is configured (LLM_BASE_URL): changed pages were not judged against the goal.';

async function judge(llm: LlmSettings, goal: string, page: CheckPage): Promise<object | null> {
  const diff = (page.diff as { text?: string } | null)?.text ?? JSON.stringify(page.diff ?? {});
  try {
    return (await extractWithLlm(llm, {
      markdown: diff,
      url: page.url,
      schema: judgmentSchema as unknown as Record<string, unknown>,
      prompt: `The content below is the diff of a page between two checks of a monitor. The monitor's goal: ${goal}\nIs this change meaningful for that goal?`,
      signal: AbortSignal.timeout(60_000),
    })) as object;
  } catch (err) {
    if (err instanceof ExtractionError) return null;
    throw err;
  }
}

export async function comparePages(prisma: PrismaClient, llm: LlmSettings | undefined, monitor: Monitor, checkId: string, runs: TargetRun[]): Promise<{ pages: CheckPage[]; judgeSkipped: string | null }> {
  const pages: CheckPage[] = [];
  for (const run of runs) {
    const docs = await prisma.document.findMany({ where: { jobId: run.jobId }, select: { id: true, urlKey: true, statusCode: true, changeTracking: true, metadata: true }, orderBy: { sequence: 'asc' } });
    for (const doc of docs) {
      const tracking = doc.changeTracking as ChangeTracking | null;
      const status: PageStatus = tracking?.changeStatus ?? 'new';
      const jsonDiff = tracking?.json !== undefined ? { json: tracking.json } : null;
      pages.push({
        targetId: run.targetId,
        url: String((doc.metadata as { sourceURL?: string }).sourceURL ?? doc.urlKey),
        urlKey: doc.urlKey,
        status,
        statusCode: doc.statusCode,
        error: null,
        diff: tracking?.diff ? { ...tracking.diff, ...(jsonDiff ?? {}) } : jsonDiff,
        snapshot: jsonDiff,
        judgment: null,
        currentScrapeId: doc.id,
      });
    }
    const failed = await prisma.jobUrl.findMany({ where: { jobId: run.jobId, status: 'failed' }, select: { url: true, urlKey: true, error: true } });
    for (const f of failed) pages.push({ targetId: run.targetId, url: f.url, urlKey: f.urlKey, status: 'error', statusCode: null, error: f.error, diff: null, snapshot: null, judgment: null, currentScrapeId: null });
  }
  // What the previous check saw and this one did not reach is gone.
  const previous = await prisma.monitorCheck.findFirst({ where: { monitorId: monitor.id, id: { not: checkId }, status: { in: ['completed', 'partial'] } }, orderBy: { createdAt: 'desc' }, select: { id: true } });
  if (previous) {
    const reached = new Set(pages.map((p) => `${p.targetId} ${p.urlKey}`));
    const before = await prisma.monitorCheckPage.findMany({ where: { checkId: previous.id, status: { not: 'removed' } }, select: { targetId: true, url: true, urlKey: true } });
    for (const p of before) {
      if (!reached.has(`${p.targetId} ${p.urlKey}`) && runs.some((r) => r.targetId === p.targetId && r.status === 'completed')) {
        pages.push({ targetId: p.targetId, url: p.url, urlKey: p.urlKey, status: 'removed', statusCode: null, error: null, diff: null, snapshot: null, judgment: null, currentScrapeId: null });
      }
    }
  }
  let judgeSkipped: string | null = null;
  if (monitor.goal && monitor.judgeEnabled) {
    if (!llm) judgeSkipped = NO_JUDGE;
    else for (const page of pages.filter((p) => p.status === 'changed')) page.judgment = await judge(llm, monitor.goal, page);
  }
  return { pages, judgeSkipped };
}
