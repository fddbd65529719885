/**
 * Engine selection and fallback (DESIGN.md, "Engines"): a browser first when the request needs one
 * (screenshot, waitFor, mobile, actions); otherwise `fetch` first, then a browser when the page is plainly
 * script-rendered or the fetch was refused. `remote` comes before `local_browser` when configured.
 * A refused URL (blocked), an invalid request or a failed action stops the chain at once: no other
 * engine may try it (another browser would fail the same action the same way).
 *
 * A browser engine with another one after it gets only part of the remaining budget, so a browser
 * service that accepts connections but never answers still leaves time for `local_browser`.
 */
import { EngineError, type Engine, type EngineRequest, type EngineResult } from './types.js';
import { timeoutSignal } from '../../core/timeout-signal.js';
import { looksScriptRendered } from './script-rendered.js';
import type { ProxyPools } from '../../core/proxy-pools.js';

export interface EngineSet {
  fetch: Engine;
  /** In order of preference: remote (when configured), then local_browser. */
  browsers: Engine[];
  /** The operator's proxies (README "Proxies"); empty pools: every request goes out directly. */
  proxies: ProxyPools;
}

export class AllEnginesFailedError extends Error {
  constructor(
    readonly url: string,
    readonly failures: EngineError[],
  ) {
    super(`Every way of fetching ${url} failed: ${failures.map((f) => `${f.engine}: ${f.message}`).join('; ')}`);
    this.name = 'AllEnginesFailedError';
  }
}

/** A site asking for fewer requests: 429, or 503 with Retry-After (a plain 503 is an outage, not a request). */
export function isThrottle(result: Pick<EngineResult, 'statusCode' | 'retryAfter'>): boolean {
  return result.statusCode === 429 || (result.statusCode === 503 && result.retryAfter !== undefined);
}

/** Statuses with which sites commonly turn away non-browser clients. */
const REFUSED_STATUSES = new Set([401, 403, 429, 503]);

function isFinal(err: EngineError): boolean {
  return err.kind === 'blocked' || err.kind === 'invalid' || err.kind === 'action';
}

/** Share of the remaining budget a browser engine gets when another browser engine follows it. */
export const FIRST_BROWSER_SHARE = 0.6;

/** `request` with its deadline cut to `share` of what is left (at least 1 s), and a signal that fires then. */
function withShare(request: EngineRequest, share: number): EngineRequest {
  const ms = Math.max(1000, Math.floor((request.deadline - Date.now()) * share));
  return { ...request, deadline: Math.min(request.deadline, Date.now() + ms), signal: AbortSignal.any([request.signal, timeoutSignal(ms)]) };
}

async function attempt(engine: Engine, request: EngineRequest, failures: EngineError[], share = 1): Promise<EngineResult | undefined> {
  if (request.signal.aborted) {
    failures.push(new EngineError(engine.name, 'timeout', 'no time left'));
    return undefined;
  }
  const own = share < 1 ? withShare(request, share) : request;
  try {
    return await engine.fetch(own);
  } catch (err) {
    const e =
      err instanceof EngineError
        ? err
        : new EngineError(engine.name, own.signal.aborted && !request.signal.aborted ? 'timeout' : 'network', (err as Error).message);
    if (isFinal(e)) throw e;
    failures.push(e);
    return undefined;
  }
}

export async function runEngines(engines: EngineSet, request: EngineRequest): Promise<EngineResult> {
  const failures: EngineError[] = [];
  const needsBrowser = Boolean(request.screenshot) || request.waitFor > 0 || Boolean(request.mobile) || Boolean(request.actions?.length);
  if (needsBrowser) {
    for (const [i, browser] of engines.browsers.entries()) {
      const result = await attempt(browser, request, failures, i < engines.browsers.length - 1 ? FIRST_BROWSER_SHARE : 1);
      if (result) return result;
    }
    // A screenshot or actions need a browser; a mere waitFor is a hint, and plain HTTP may still do.
    if (!request.screenshot && !request.actions?.length) {
      const result = await attempt(engines.fetch, request, failures);
      if (result) return result;
    }
    throw new AllEnginesFailedError(request.url, failures);
  }

  const fetched = await attempt(engines.fetch, request, failures);
  if (fetched && request.stopOnThrottle && isThrottle(fetched)) return fetched;
  if (fetched && request.stopOnRefusal && REFUSED_STATUSES.has(fetched.statusCode)) return fetched;
  // Not modified since the last check: the answer the conditional request asked for.
  if (fetched && request.conditional && fetched.statusCode === 304) return fetched;
  if (fetched && !REFUSED_STATUSES.has(fetched.statusCode) && !looksScriptRendered(fetched)) return fetched;
  for (const [i, browser] of engines.browsers.entries()) {
    const result = await attempt(browser, request, failures, i < engines.browsers.length - 1 ? FIRST_BROWSER_SHARE : 1);
    // A browser that got refused too is no better than the fetch that already has an answer.
    if (result && !(fetched && REFUSED_STATUSES.has(result.statusCode))) return result;
  }
  if (fetched) return fetched;
  throw new AllEnginesFailedError(request.url, failures);
}
