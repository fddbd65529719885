/**
 * A small HTTP forward proxy on 127.0.0.1 that Chromium is pointed at, so every browser request
 * (navigations, redirects, subresources, WebSockets, which Chromium tunnels with CONNECT) obeys
 * the same check-then-connect rule as undici: the proxy resolves, checks, and connects to the
 * checked address; Chromium never resolves target names itself.
 *
 * Chromium sends loopback and localhost directly, bypassing any proxy, unless the bypass list
 * contains `<-loopback>`. Playwright adds `--proxy-bypass-list=<-loopback>` when a proxy is given
 * through `launch({ proxy })` (unless the bypass list names a loopback host, or
 * PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is set); launching Chromium any other way
 * must pass that flag explicitly, or http://127.0.0.1/ reaches the host unchecked.
 *
 * Refusals are 403 with a text body and `x-egress-blocked: <reason>`. A refused CONNECT shows up in
 * Chromium as net::ERR_TUNNEL_CONNECTION_FAILED (browsers hide proxy responses to CONNECT).
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkUrlSyntax, isBadPort, UnsafeUrlError, type BlockReason } from '../core/url-safety.js';
import { openCheckedSocket, type ConnectOptions } from './connect.js';

export interface EgressProxyOptions extends ConnectOptions {
  /** Tunnels and forwarded exchanges idle this long are closed, ms. Default 120,000. */
  idleTimeoutMs?: number;
  /** How many recent decisions `hits` keeps (oldest dropped first). Default 1,000. */
  maxHits?: number;
}

export interface ProxyHit {
  method: string;
  /** Absolute URL for plain requests, host:port for CONNECT. */
  target: string;
  outcome: 'forwarded' | 'refused' | 'failed';
  reason?: BlockReason;
}

export interface EgressProxy {
  /** http://127.0.0.1:port, for Playwright's `proxy.server` or Chromium's --proxy-server. */
  url: string;
  port: number;
  /** Recent decisions, oldest first; for tests and diagnostics. */
  hits: ProxyHit[];
  close(): Promise<void>;
}

export const BLOCKED_HEADER = 'x-egress-blocked';
/** Set on the proxy's own 502s, so a browser's caller can tell "unreachable" from the site's own 502 page. */
export const FAILED_HEADER = 'x-egress-failed';

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
  const maxHits = options.maxHits ?? 1_000;
  const hits: ProxyHit[] = [];
  const sockets = new Set<Socket>();
  const record = (hit: ProxyHit) => {
    hits.push(hit);
    if (hits.length > maxHits) hits.splice(0, hits.length - maxHits);
  };
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
  };
  const open = async (host: string, port: number) => {
    const socket = await openCheckedSocket(host, port, options);
    track(socket);
    return socket;
  };

  const server = createServer((req, res) => void forward(req, res, options, open, record));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(req, client, head, open, record));
  // Chromium tunnels WebSockets with CONNECT; an absolute-form Upgrade is not something it sends.
  server.on('upgrade', (_req: IncomingMessage, client: Duplex) => reply(client, 405, 'Send WebSocket traffic through CONNECT.\n'));
  server.on('connection', track);
  server.on('clientError', (_err, socket: Duplex) => (socket.writable ? reply(socket, 400, 'Bad request.\n') : socket.destroy()));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

type Open = (host: string, port: number) => Promise<Socket>;
type RecordHit = (hit: ProxyHit) => void;

/** CONNECT host:port: check, connect to the checked address, then splice bytes both ways. */
async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer, open: Open, record: RecordHit): Promise<void> {
  client.on('error', () => client.destroy()); // a browser resetting a tunnel is routine
  const target = req.url ?? '';
  const match = /^(.+):(\d{1,5})$/.exec(target);
  if (!match) return reply(client, 400, 'CONNECT needs host:port.\n');
  let upstream: Socket;
  try {
    if (isBadPort(Number(match[2]))) throw new UnsafeUrlError('port', target);
    upstream = await open(match[1], Number(match[2]));
  } catch (err) {
    return refuseOrFail(err, 'CONNECT', target, record, (status, body, reason) => reply(client, status, body, reason));
  }
  record({ method: 'CONNECT', target, outcome: 'forwarded' });
  if (client.destroyed) return void upstream.destroy();
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length) upstream.write(head);
  client.pipe(upstream).pipe(client);
}

/** Absolute-form plain HTTP request: check, connect to the checked address, relay one exchange. */
async function forward(req: IncomingMessage, res: ServerResponse, options: EgressProxyOptions, open: Open, record: RecordHit): Promise<void> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '';
  const send = (status: number, body: string, reason?: BlockReason) => {
    const marks = reason ? { [BLOCKED_HEADER]: reason } : status === 502 ? { [FAILED_HEADER]: 'unreachable' } : {};
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close', ...marks });
    res.end(body);
  };
  if (!/^http:\/\//i.test(target)) return send(400, 'This is a forward proxy: send absolute http:// URLs, or CONNECT for https.\n');
  let url: URL;
  let socket: Socket;
  try {
    url = checkUrlSyntax(target, options);
    socket = await open(url.hostname, Number(url.port) || 80);
  } catch (err) {
    return refuseOrFail(err, method, target, record, send);
  }
  record({ method, target, outcome: 'forwarded' });
  if (res.destroyed) return void socket.destroy(); // the client left while we were connecting
  const upstream = httpRequest({
    createConnection: () => socket,
    method,
    path: `${url.pathname}${url.search}`,
    headers: { ...withoutHopByHop(req.headers), host: req.headers.host ?? url.host, connection: 'close' },
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  upstream.on('error', () => (res.headersSent ? res.destroy() : send(502, `Upstream ${url.host} failed.\n`)));
  req.on('error', () => upstream.destroy());
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

function refuseOrFail(
  err: unknown,
  method: string,
  target: string,
  record: RecordHit,
  send: (status: number, body: string, reason?: BlockReason) => void,
): void {
  if (err instanceof UnsafeUrlError) {
    record({ method, target, outcome: 'refused', reason: err.reason });
    return send(403, `${err.message}\n`, err.reason);
  }
  record({ method, target, outcome: 'failed' });
  send(502, `Could not connect to ${target}: ${(err as Error).message}\n`);
}

/** A complete response on a raw socket, then close it (CONNECT and upgrade paths). */
function reply(socket: Duplex, status: number, body: string, reason?: BlockReason): void {
  const text = { 400: 'Bad Request', 403: 'Forbidden', 405: 'Method Not Allowed', 502: 'Bad Gateway' }[status] ?? 'Error';
  const extra = reason ? `${BLOCKED_HEADER}: ${reason}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `${extra}connection: close\r\n\r\n${body}`,
  );
}

const hopByHop = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase());
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.includes(name) && !named.includes(name)) out[name] = value;
  return out;
}
