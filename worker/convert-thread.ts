/**
 * Worker-thread side of ./convert-pool.ts: runs the HTML pipeline on one page per task.
 * Errors come back as data, not as a thrown value: structured clone keeps only the message of a
 * custom error class (its `name` becomes "Error" and fields like `selector` are dropped), and the
 * main thread needs both to answer 400 for a bad selector.
 */
import { processPage } from '../core/html/index.js';
import type { ProcessedPage, ProcessPageInput } from '../core/html/types.js';

/** An error thrown in the thread, as plain data: its own primitive fields (`selector`, `code`, ...). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

export type ThreadReply = { ok: true; page: ProcessedPage } | { ok: false; error: ThreadError };

function toThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

/** The task function Piscina calls (the module's default export). */
export default async function convertInThread(input: ProcessPageInput): Promise<ThreadReply> {
  try {
    return { ok: true, page: await processPage(input) };
  } catch (err) {
    return { ok: false, error: toThreadError(err) };
  }
}
