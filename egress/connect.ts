/**
 * The single choke point for outbound TCP: resolve and check (resolve.ts), then connect to the
 * checked addresses only, directly or through an operator's proxy (./upstream.ts), which is asked
 * for the checked address itself. The dispatcher and the browser proxy both open sockets here.
 */
import { connect, type Socket } from 'node:net';
import { resolveAndCheck, type EgressPolicy } from './resolve.js';
import type { ProxyMember } from '../core/proxy-pools.js';
import { tunnelThrough } from './upstream.js';

export interface ConnectOptions extends EgressPolicy {
  /** Per address attempt, in milliseconds. Default 10,000. */
  connectTimeoutMs?: number;
  /** Through this proxy (PROXY_URLS and the like) instead of directly. */
  via?: ProxyMember;
}

export const defaultConnectTimeoutMs = 10_000;

/**
 * Open a TCP connection to `hostname:port`. Addresses are tried in resolver order (a dual-stack
 * name whose IPv6 route is missing, as in many containers, falls through to IPv4). Throws
 * UnsafeUrlError before any connection when a check fails, otherwise the last connect error.
 */
export async function openCheckedSocket(hostname: string, port: number, options: ConnectOptions): Promise<Socket> {
  const addresses = await resolveAndCheck(hostname, options);
  let lastError: unknown;
  for (const { address } of addresses) {
    try {
      const timeoutMs = options.connectTimeoutMs ?? defaultConnectTimeoutMs;
      return await (options.via ? tunnelThrough(options.via, address, port, timeoutMs) : connectTo(address, port, timeoutMs));
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

// `address` is an IP literal, so net.connect does no lookup of its own.
function connectTo(address: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`Connecting to ${address}:${port} timed out after ${timeoutMs} ms`), {
        code: 'ETIMEDOUT',
      });
      socket.destroy(err);
    }, timeoutMs);
    const onError = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      resolve(socket);
    });
  });
}
