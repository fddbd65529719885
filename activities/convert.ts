/**
 * Page conversion (HTML pipeline) for activities. `inline` runs on the calling thread; the worker
 * uses a pool of worker threads (./convert-pool.ts) so large pages don't stall heartbeats and the
 * other activities on the event loop.
 */
import { processPage } from '../core/html/index.js';
import type { ProcessedPage, ProcessPageInput } from '../core/html/types.js';

export type ConvertPage = (input: ProcessPageInput) => Promise<ProcessedPage>;

export const convertInline: ConvertPage = async (input) => processPage(input);
