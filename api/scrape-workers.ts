/**
 * The API's side of the scrape path (README "Scrape path"): find the live workers' scrape
 * endpoints in Redis (refreshed at most once a second), call one over a kept-alive connection with
 * the caller's budget as its deadline, and turn its refusal into the API's answer. A worker that
 * cannot be reached (stopped, crashed) is skipped and the next one tried while the budget lasts.
 */
import type { Redis } from 'ioredis';
import { Agent, errors, request } from 'undici';
import { SCRAPE_ENDPOINT_PATH, scrapeWorkersKey, type ScrapeInput, type ScrapeRefusal, type ScrapeResult } from '../core/contracts.js';
import { announcedUrl } from '../core/scrape-announcement.js';
import { ApiError, ScrapeFailedError, ScrapeTimeoutError, ServiceUnavailableError } from '../core/errors.js';
import { failureAnswer } from '../core/failures.js';
import { noTracing, type Tracing } from '../telemetry/tracing.js';

const LIST_TTL_MS = 1_000;

export class ScrapeWorkers {
  private readonly agent = new Agent({ keepAliveTimeout: 60_000, connections: 64 });
  private listed: { at: number; urls: string[] } | undefined;
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    taskQueue: string,
    private readonly token: string,
    /** A client span per call, whose `traceparent` the worker continues (README "Traces"). */
    private readonly tracing: Tracing = noTracing,
  ) {
    this.key = scrapeWorkersKey(taskQueue);
  }

  private async live(fresh = false): Promise<string[]> {
    if (!fresh && this.listed && Date.now() - this.listed.at < LIST_TTL_MS) return this.listed.urls;
    let urls: string[];
    try {
      const now = Date.now();
      const members = await this.redis.zrangebyscore(this.key, now, '+inf');
      // Only endpoints signed with our token: an entry anyone else wrote is never called.
      urls = [...new Set(members.map((m) => announcedUrl(this.token, m, now)).filter((u): u is string => u !== undefined))];
    } catch (err) {
      throw new ServiceUnavailableError(`Cannot find the workers (Redis): ${(err as Error).message}. Try again shortly.`);
    }
    this.listed = { at: Date.now(), urls };
    return urls;
  }

  /** Workers serving scrapes now (their signed announcements that still hold). */
  async liveCount(): Promise<number> {
    return (await this.live()).length;
  }

  private forget(url: string): void {
    if (this.listed) this.listed = { ...this.listed, urls: this.listed.urls.filter((u) => u !== url) };
  }

  /** Run one scrape on a worker within `timeoutMs`; answers as POST /v1/scrape would. */
  async scrape(input: ScrapeInput, timeoutMs: number): Promise<ScrapeResult> {
    const signal = AbortSignal.timeout(timeoutMs);
    const tried = new Set<string>();
    let lastError: unknown;
    // The cached list first; if none of it answers (workers restarted within the last second), the list as it is now.
    for (const fresh of [false, true]) {
      const candidates = (await this.live(fresh)).filter((url) => !tried.has(url)).sort(() => Math.random() - 0.5);
      for (const url of candidates) {
        tried.add(url);
        const outcome = await this.call(url, input, signal, timeoutMs);
        if (outcome.result) return outcome.result;
        this.forget(url);
        lastError = outcome.unavailable;
      }
    }
    if (!tried.size) throw new ServiceUnavailableError('No worker is serving scrapes right now (none has announced itself in Redis). Try again shortly.');
    throw new ServiceUnavailableError(`No worker could take the scrape (${(lastError as Error | undefined)?.message ?? 'none reachable'}). Try again shortly.`);
  }

  /** One worker's answer; `unavailable` when it could not take the scrape (gone, stopping) and another may. */
  private call(url: string, input: ScrapeInput, signal: AbortSignal, timeoutMs: number): Promise<{ result?: ScrapeResult; unavailable?: Error }> {
    return this.tracing.span('POST /scrape', () => this.callTraced(url, input, signal, timeoutMs), { kind: 'client', attributes: { 'url.full': `${url}${SCRAPE_ENDPOINT_PATH}`, 'pagewright.scrape_id': input.scrapeId } });
  }

  private async callTraced(url: string, input: ScrapeInput, signal: AbortSignal, timeoutMs: number): Promise<{ result?: ScrapeResult; unavailable?: Error }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' };
    this.tracing.inject(headers);
    try {
      const res = await request(`${url}${SCRAPE_ENDPOINT_PATH}`, {
        method: 'POST',
        dispatcher: this.agent,
        headers,
        body: JSON.stringify(input),
        signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const body = (await res.body.json()) as ScrapeResult | ScrapeRefusal;
      if (res.statusCode === 200) return { result: body as ScrapeResult };
      if (res.statusCode === 503) return { unavailable: new Error((body as ScrapeRefusal).message) };
      throw answerFor(res.statusCode, body as ScrapeRefusal, timeoutMs);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (signal.aborted) throw new ScrapeTimeoutError(timeoutMs);
      if (!unreachable(err)) {
        throw new ScrapeFailedError('The scrape failed on its worker: its answer could not be read. Try again; if it persists, the worker log has the cause.');
      }
      return { unavailable: err as Error };
    }
  }

  /** At shutdown, after the API drained its requests: a call still running belongs to a request that was cut, so it is ended, not awaited. */
  close(): Promise<void> {
    return this.agent.destroy();
  }
}

/** The connection failed before any answer: the worker is gone, another may take the scrape. */
function unreachable(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return err instanceof errors.SocketError || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'UND_ERR_SOCKET';
}

function answerFor(status: number, refusal: ScrapeRefusal, timeoutMs: number): ApiError {
  return failureAnswer(refusal.type, refusal.message, () => new ScrapeTimeoutError(timeoutMs)) ?? new ScrapeFailedError(`The scrape failed on its worker (${status}): ${refusal.message}`);
}
