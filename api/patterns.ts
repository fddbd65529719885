/** includePaths / excludePaths checked at the edge, so a bad pattern is a 400 naming `includePaths[i]`. */
import { compilePatterns, PatternError, type PatternBudget, patternBudget } from '../core/crawl/patterns.js';
import type { ErrorDetail } from '../core/errors.js';

/**
 * Problems with a request's two pattern lists. `budget` is shared by every list of the request
 * (a monitor's targets each bring two), so together they cannot cost more than one request may.
 */
export function patternProblems(
  lists: { includePaths: string[]; excludePaths: string[] },
  fullUrl: boolean,
  budget: PatternBudget = patternBudget(),
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const field of ['includePaths', 'excludePaths'] as const) {
    try {
      compilePatterns(lists[field], { fullUrl, field, budget });
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      details.push({ field: `${field}[${err.index}]`, message: err.message });
    }
  }
  return details;
}
