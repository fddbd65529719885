/**
 * Graceful shutdown of the API's HTTP server. On drain() it stops accepting connections, answers
 * requests that still arrive on open keep-alive connections with a 503 (and `Connection: close`,
 * so the client reconnects, to another replica), lets the requests in flight finish, and after
 * `graceMs` cuts whatever is left. Without it, a deploy or a scale-down cut scrapes in flight
 * (`server.close()` alone neither waits for them nor refuses requests on kept-alive connections).
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { ServiceUnavailableError } from '../core/errors.js';

export interface DrainOutcome {
  /** Requests still unanswered when the grace period ran out, cut by closing their connections. */
  cut: number;
  /** How long draining took, ms. */
  tookMs: number;
}

export interface Drainable {
  /** The request listener to give `http.createServer`: the app's, counted, and refusing while draining. */
  readonly listener: RequestListener;
  /** Requests being answered now. */
  inFlight(): number;
  /** Stop taking requests, wait for those in flight (at most `graceMs`), close every connection. */
  drain(server: Server, graceMs: number): Promise<DrainOutcome>;
}

const refusal = new ServiceUnavailableError('The API is shutting down; try again.');
const refusalBody = Buffer.from(JSON.stringify({ success: false, error: refusal.message, code: refusal.code }));

export function drainable(handler: (req: IncomingMessage, res: ServerResponse) => void): Drainable {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let idle: (() => void) | undefined;

  const listener: RequestListener = (req, res) => {
    if (draining) {
      res.writeHead(refusal.status, { ...refusal.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': refusalBody.length, connection: 'close' });
      res.end(refusalBody);
      return;
    }
    inFlight.add(res);
    // 'close' fires once the response is sent, and also when the client goes away first.
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) idle?.();
    });
    handler(req, res);
  };

  return {
    listener,
    inFlight: () => inFlight.size,
    async drain(server, graceMs) {
      const started = Date.now();
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Answers still to come end their connection, so no further request arrives on it.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        if (inFlight.size === 0) return resolve();
        idle = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      const cut = inFlight.size;
      server.closeAllConnections();
      await closed;
      return { cut, tookMs: Date.now() - started };
    },
  };
}
