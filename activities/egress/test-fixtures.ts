/**
 * Loopback fixture servers for the egress tests (not used at run time). Each one logs every
 * request it receives, so a test can assert exactly which paths a refused target never saw.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { AddressVerdict } from '../../core/url-safety.js';
import { classifyAddress } from '../../core/url-safety.js';
import type { LookupFn } from './resolve.js';

export interface FixtureRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** SNI name the client sent (https fixtures only). */
  servername?: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Fixture {
  port: number;
  /** Paths hit, in order. */
  hits: string[];
  requests: FixtureRequest[];
  close(): Promise<void>;
}

export async function startFixture(options: {
  host: string;
  port?: number;
  routes: Record<string, Route>;
  tls?: { key: string; cert: string };
}): Promise<Fixture> {
  const hits: string[] = [];
  const requests: FixtureRequest[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      hits.push(path);
      const servername = (req.socket as TLSSocket).servername || undefined;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body, servername });
      const route = options.routes[path.split('?')[0]];
      if (route) route(req, res, body);
      else res.writeHead(404).end('not found');
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const redirect = (location: string, status = 302): Route => (_req, res) => res.writeHead(status, { location }).end();
export const text = (body: string): Route => (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(body);

/**
 * The loopback address that stands in for "a public host" in these tests. Binding it (Linux
 * routes all of 127/8 to lo) keeps it apart from 127.0.0.1, which plays the private target.
 */
export const PUBLIC_STAND_IN = '127.0.0.2';

/**
 * The test seam: the real classifier, except that PUBLIC_STAND_IN counts as public. Everything
 * else, 127.0.0.1 included, is judged by `classifyAddress` itself, which is what is under test.
 */
export const classifyWithStandIn = (ip: string): AddressVerdict => (ip === PUBLIC_STAND_IN ? { allowed: true } : classifyAddress(ip));

/** A resolver from a fixed table; counts calls per name. Names not in the table do not exist. */
export function fakeLookup(table: Record<string, string[] | (() => string[])>): LookupFn & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const addresses = typeof entry === 'function' ? entry() : entry;
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { calls });
}
