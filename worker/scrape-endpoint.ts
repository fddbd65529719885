/**
 * A worker's scrape endpoint: `POST /scrape` with a ScrapeInput, bearer SCRAPE_SERVICE_TOKEN,
 * answered with the ScrapeResult (200) or a ScrapeRefusal (400 unsafe URL or invalid request, 408
 * timeout, 502 fetch failed or unconvertible, 500 internal, 503 shutting down). The caller hanging
 * up aborts the pipeline. WORKER_CONCURRENCY bounds the scrapes in flight; more wait for a slot.
 * The same port answers `GET /metrics` for Prometheus (bearer METRICS_TOKEN when set), and
 * `GET /health` (no token: it tells nothing) 200 while the endpoint takes scrapes and 503 once the
 * worker is stopping: the probe an orchestrator needs (deploy/helm/pagewright).
 *
 * The worker announces the endpoint in Redis (core/contracts.ts scrapeWorkersKey) every
 * SCRAPE_ANNOUNCE_MS and withdraws it when it stops, so the API only calls live workers.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { SCRAPE_ANNOUNCE_MS, SCRAPE_ENDPOINT_PATH, scrapeWorkersKey, type ScrapeInput } from '../core/contracts.js';
import { failureTypes } from '../core/failures.js';
import { announcement } from '../core/scrape-announcement.js';
import type { ActivityDeps } from '../activities/deps.js';
import { PageSlots } from '../activities/pipeline/slots.js';
import { scrapeOnce, ScrapeRefused } from './scrape-once.js';
import { METRICS_CONTENT_TYPE, metricsAllowed, metricsText } from '../telemetry/metrics.js';
import { answered } from '../telemetry/tracing.js';

const BODY_LIMIT_BYTES = 1024 * 1024;

export interface ScrapeService {
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export interface ScrapeServiceOptions {
  /** More Prometheus text for `GET /metrics`: the Temporal SDK's worker metrics (worker/main.ts). */
  metrics?: () => Promise<string>;
}

/** `GET /metrics`: this worker's metrics (telemetry/metrics.ts), with METRICS_TOKEN when it is set. */
async function serveMetrics(req: IncomingMessage, res: ServerResponse, token: string | undefined, extra?: () => Promise<string>): Promise<void> {
  if (!metricsAllowed(req.headers.authorization, token)) {
    res.writeHead(401, { 'www-authenticate': 'Bearer' });
    return void res.end();
  }
  const text = await metricsText(extra);
  res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) }).end(text);
}

export async function startScrapeService(deps: ActivityDeps, taskQueue: string, options: ScrapeServiceOptions = {}): Promise<ScrapeService> {
  const { config, log } = deps;
  const token = Buffer.from(`Bearer ${config.SCRAPE_SERVICE_TOKEN}`);
  const slots = new PageSlots(config.WORKER_CONCURRENCY);
  let closing = false;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/metrics') return serveMetrics(req, res, config.METRICS_TOKEN, options.metrics);
    if (req.method === 'GET' && req.url === '/health') return send(res, closing ? 503 : 200, { status: closing ? 'draining' : 'ok' });
    if (req.method !== 'POST' || req.url !== SCRAPE_ENDPOINT_PATH) return send(res, 404, { type: 'internal', message: 'Not found' });
    const auth = Buffer.from(req.headers.authorization ?? '');
    if (auth.length !== token.length || !timingSafeEqual(auth, token)) return send(res, 401, { type: 'internal', message: 'Wrong scrape service token' });
    if (closing) return send(res, 503, { type: 'internal', message: 'This worker is shutting down' });
    let input: ScrapeInput;
    try {
      input = (await readJson(req)) as ScrapeInput;
    } catch (err) {
      log.warn('unreadable scrape request', { error: (err as Error).message });
      return send(res, 400, { type: failureTypes.invalidRequest, message: 'The scrape request could not be read' });
    }
    // The API hanging up (its timeout, a lost connection) stops the work.
    const abandoned = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abandoned.abort(new Error('The caller hung up'));
    });
    // The API's trace continues here (its `traceparent`), README "Traces".
    await deps.tracing.span('POST /scrape', (span) => serve(input, res, abandoned.signal).finally(() => answered(span, res.statusCode)), {
      kind: 'server',
      parent: req.headers,
      attributes: { 'pagewright.scrape_id': input.scrapeId },
    });
  };

  const serve = async (input: ScrapeInput, res: ServerResponse, abandoned: AbortSignal) => {
    let release: (() => void) | undefined;
    try {
      release = await slots.acquire(abandoned);
      send(res, 200, await scrapeOnce(deps, input, abandoned));
    } catch (err) {
      if (abandoned.aborted) return;
      if (err instanceof ScrapeRefused) return send(res, err.status, err.refusal);
      // The exception's own words stay in the worker's log: callers get ours.
      log.error('scrape failed inside the worker', { scrapeId: input.scrapeId, error: (err as Error).message, stack: (err as Error).stack });
      send(res, 500, { type: 'internal', message: `The worker hit an unexpected error (its log has the details under scrape id ${input.scrapeId})` });
    } finally {
      release?.();
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.WORKER_SCRAPE_PORT, config.WORKER_SCRAPE_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Listening on every interface (containers): announce the machine's name, which its peers resolve.
  const host = ['0.0.0.0', '::'].includes(config.WORKER_SCRAPE_HOST) ? hostname() : config.WORKER_SCRAPE_HOST;
  const url = config.WORKER_SCRAPE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  // Announce until closed; a Redis outage only delays the next announcement.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', () => undefined);
  const key = scrapeWorkersKey(taskQueue);
  let announced: string | undefined;
  const announce = () => {
    const until = Date.now() + 3 * SCRAPE_ANNOUNCE_MS;
    const member = announcement(config.SCRAPE_SERVICE_TOKEN, url, until);
    const previous = announced;
    announced = member;
    // Each announcement is a new signed member: the previous one goes, and any long expired.
    const batch = redis.multi().zadd(key, until, member).zremrangebyscore(key, '-inf', Date.now() - 60_000);
    if (previous) batch.zrem(key, previous);
    return batch
      .exec()
      .then(
        () => undefined,
        (err: Error) => log.warn('scrape endpoint announcement failed', { error: err.message }),
      );
  };
  await announce();
  const timer = setInterval(() => void announce(), SCRAPE_ANNOUNCE_MS);
  timer.unref();
  log.info('scrape endpoint listening', { url, concurrency: config.WORKER_CONCURRENCY });

  let closed: Promise<void> | undefined;
  return {
    url,
    close: () => (closed ??= (async () => {
      closing = true;
      clearInterval(timer);
      if (announced) await redis.zrem(key, announced).catch(() => undefined);
      redis.disconnect();
      // In-flight scrapes finish (their callers wait for them); idle keep-alive connections close now.
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })()),
  };
}
