/**
 * Tunnels through an operator proxy (core/proxy-pools.ts) to an address the egress policy has
 * already checked. The proxy is asked for the checked IP literal (HTTP CONNECT or SOCKS5), never a
 * name, so a proxy that resolves names itself cannot be led to another address.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SocksClient } from 'socks';
import type { ProxyMember } from '../core/proxy-pools.js';

/** A tunnel through `member` to `address:port` (an IP literal the egress policy checked). */
export async function tunnelThrough(member: ProxyMember, address: string, port: number, timeoutMs: number): Promise<Socket> {
  const { url } = member;
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'socks5:') {
    const { socket } = await SocksClient.createConnection({
      proxy: { host, port: Number(url.port), type: 5, ...(user ? { userId: user, password } : {}) },
      destination: { host: address, port },
      command: 'connect',
      timeout: timeoutMs,
    });
    return socket;
  }
  const socket: Socket = url.protocol === 'https:' ? tlsConnect({ host, port: Number(url.port), servername: host }) : netConnect({ host, port: Number(url.port) });
  const target = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  const auth = user ? `Proxy-Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}\r\n` : '';
  return new Promise<Socket>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The proxy ${member.label} did not answer within ${timeoutMs} ms`)), timeoutMs);
    let buffered = Buffer.alloc(0);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return buffered.length > 16_384 ? fail(new Error(`The proxy ${member.label} sent an oversized answer`)) : undefined;
      socket.removeListener('data', onData);
      socket.removeListener('error', fail);
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1];
      if (status !== '200') {
        socket.destroy();
        return reject(new Error(`The proxy ${member.label} refused the tunnel (HTTP ${status ?? '?'})`));
      }
      const rest = buffered.subarray(end + 4);
      if (rest.length) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`));
  });
}
