/**
 * Change tracking's comparisons, pure (README "Change tracking"): is a page the same as its last
 * version, the unified diff of its markdown with its parse-diff form (the hosted API's `diff`), and
 * which top-level fields of two extractions differ. The snapshots and LLM calls live in
 * activities/pipeline/change-tracking.ts.
 */
import { createTwoFilesPatch } from 'diff';
import parseDiff from 'parse-diff';

export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

/** The parse-diff shape the hosted API returns in `diff.json`, without line counts. */
export interface DiffJson {
  files: {
    from: string | null;
    to: string | null;
    chunks: { content: string; changes: ({ type: 'normal'; normal: true; ln1: number; ln2: number; content: string } | { type: 'add'; add: true; ln: number; content: string } | { type: 'del'; del: true; ln: number; content: string })[] }[];
  }[];
}

/** A document's `changeTracking` (the hosted v1 API's shape). */
export interface ChangeTracking {
  /** When the version compared against was scraped; null for a page seen the first time. */
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  /** `visible`: the page was reached (always here: pages not reached are reported by monitors, not scraped). */
  visibility: 'visible' | 'hidden';
  diff?: { text: string; json: DiffJson };
  json?: unknown;
}

/** Whose history a page belongs to: an API key (`key:<id>`) or a paying wallet (`payer:<address>`). */
export function historyOwner(who: { apiKeyId?: string | null; payer?: string | null }): string {
  if (who.apiKeyId) return `key:${who.apiKeyId}`;
  if (who.payer) return `payer:${who.payer}`;
  throw new Error('A change-tracking history needs an API key or a payer');
}

/** 404 and 410 mean the page is gone. */
export const isGone = (statusCode: number) => statusCode === 404 || statusCode === 410;

/** Same content when equal with every run of whitespace removed: re-indented or re-wrapped text is not a change. */
export function sameContent(previous: string, current: string): boolean {
  const squash = (text: string) => text.replace(/\s+/g, '');
  return squash(previous) === squash(current);
}

/**
 * The unified diff of two markdown versions (3 lines of context) and its parsed form. Both end with a
 * newline first, so a last line that changed is not followed by "\ No newline at end of file".
 */
export function markdownDiff(previous: string, current: string): { text: string; json: DiffJson } {
  const ended = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const text = createTwoFilesPatch('previous.md', 'current.md', ended(previous), ended(current), '', '', { context: 3 });
  const files = parseDiff(text).map((file) => ({
    from: file.from ?? null,
    to: file.to ?? null,
    chunks: file.chunks.map((chunk) => ({ content: chunk.content, changes: chunk.changes })),
  }));
  return { text, json: { files } };
}

/** The top-level fields whose values differ between two extractions, as { previous, current }. */
export function changedFields(previous: unknown, current: unknown): Record<string, { previous: unknown; current: unknown }> {
  const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v });
  const before = asObject(previous);
  const after = asObject(current);
  const out: Record<string, { previous: unknown; current: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = { previous: before[key] ?? null, current: after[key] ?? null };
  }
  return out;
}
