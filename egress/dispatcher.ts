/**
 * An undici Agent whose every new connection goes through `openCheckedSocket`: the address that
 * was checked is the address connected to, with no second lookup in between, so a rebinding name
 * cannot switch to a private address after passing the check. TLS then runs over that socket with
 * the original host name for SNI and certificate verification.
 */
import type { ConnectionOptions } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { defaultConnectTimeoutMs, openCheckedSocket, type ConnectOptions } from './connect.js';

export interface SafeDispatcherOptions extends ConnectOptions {
  /** Trusted CAs for TLS, replacing Node's default list (Node semantics), for tests with their own CA. */
  ca?: ConnectionOptions['ca'];
  /**
   * Accept any certificate (a scrape's `skipTlsVerification`). Only what TLS proves about the peer
   * is given up: the address checks above run all the same.
   */
  insecureTls?: boolean;
  /** Forwarded to the Agent: idle keep-alive in ms (undici default 4,000). */
  keepAliveTimeoutMs?: number;
}

/** An Agent that remembers its policy, so `safeFetch` can refuse a dispatcher that disagrees with it. */
export class SafeAgent extends Agent {
  constructor(readonly policy: Readonly<SafeDispatcherOptions>) {
    const connectTimeoutMs = policy.connectTimeoutMs ?? defaultConnectTimeoutMs;
    const tlsOver = buildConnector({ timeout: connectTimeoutMs, ca: policy.ca, rejectUnauthorized: !policy.insecureTls });
    const connect: buildConnector.connector = (opts, callback) => {
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
      openCheckedSocket(opts.hostname, port, { ...policy, connectTimeoutMs }).then(
        (socket) => {
          if (opts.protocol !== 'https:') {
            socket.setNoDelay(true).setKeepAlive(true, 60_000);
            callback(null, socket);
            return;
          }
          // `host` ("name:port") stays the caller's, so undici derives SNI and the certificate
          // name from it; only the transport underneath is the checked socket.
          tlsOver({ ...opts, httpSocket: socket }, (...args) => {
            if (args[0]) socket.destroy();
            callback(...args);
          });
        },
        (err: Error) => callback(err, null),
      );
    };
    super({ connect, keepAliveTimeout: policy.keepAliveTimeoutMs });
  }
}

export function createSafeDispatcher(options: SafeDispatcherOptions): SafeAgent {
  return new SafeAgent(options);
}
