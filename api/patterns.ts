/** includePaths / excludePaths checked at the edge, so a bad pattern is a 400 naming `includePaths[i]`. */
import { compilePatterns, PatternError } from '../core/crawl/patterns.js';
import type { ErrorDetail } from '../core/errors.js';

export function patternProblems(lists: { includePaths: string[]; excludePaths: string[] }, fullUrl: boolean): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const field of ['includePaths', 'excludePaths'] as const) {
    try {
      compilePatterns(lists[field], { fullUrl, field });
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      details.push({ field: `${field}[${err.index}]`, message: err.message });
    }
  }
  return details;
}
