import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEgressProxy, type EgressProxy } from './proxy.js';
import { classifyWithStandIn, fakeLookup, PUBLIC_STAND_IN, startFixture, text, type Fixture } from '../test/fixtures/egress.js';

interface Answer {
  status: number;
  blocked?: string;
  body: string;
}

/** A plain proxy request: absolute-form URL to the proxy. */
function viaProxy(proxy: EgressProxy, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, blocked: res.headers['x-egress-blocked'] as string | undefined, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** CONNECT authority; resolves with the proxy's answer and, when 200, the open tunnel. */
function connectVia(proxy: EgressProxy, authority: string): Promise<{ res: IncomingMessage; socket: Socket; head: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority });
    req.on('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => resolve({ res, socket, head }));
    req.on('error', reject);
    req.end();
  });
}

/** Speak HTTP/1.1 through an open tunnel and return the raw response text. */
function throughTunnel(socket: Socket, host: string, path: string): Promise<string> {
  return new Promise((resolve) => {
    let raw = '';
    socket.on('data', (c: Buffer) => (raw += c.toString()));
    socket.on('end', () => resolve(raw));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

describe('startEgressProxy', () => {
  let publicSite: Fixture;
  let privateSite: Fixture;
  let proxy: EgressProxy;
  const lookup = fakeLookup({ 'public.example': [PUBLIC_STAND_IN], 'innocent.example': ['127.0.0.1'] });

  beforeAll(async () => {
    publicSite = await startFixture({ host: PUBLIC_STAND_IN, routes: { '/page': text('public page'), '/reset': (req) => req.socket.destroy() } });
    privateSite = await startFixture({ host: '127.0.0.1', routes: { '/secret': text('secret') } });
    proxy = await startEgressProxy({ allowPrivate: false, lookup, classify: classifyWithStandIn });
  });
  afterAll(async () => {
    await proxy.close();
    await publicSite.close();
    await privateSite.close();
  });

  it('listens on loopback', () => {
    expect(proxy.url).toBe(`http://127.0.0.1:${proxy.port}`);
  });

  it('forwards an allowed plain HTTP request to the checked address', async () => {
    publicSite.hits.length = 0;
    const answer = await viaProxy(proxy, `http://public.example:${publicSite.port}/page?q=1`);
    expect(answer).toEqual({ status: 200, blocked: undefined, body: 'public page' });
    expect(publicSite.hits).toEqual(['/page?q=1']);
    expect(proxy.hits.at(-1)).toEqual({ method: 'GET', target: `http://public.example:${publicSite.port}/page?q=1`, outcome: 'forwarded' });
  });

  it.each([
    ['http://127.0.0.1:PRIV/secret', 'loopback'],
    ['http://localhost:PRIV/secret', 'loopback'],
    ['http://innocent.example:PRIV/secret', 'loopback'], // refused after DNS
    ['http://[::ffff:127.0.0.1]:PRIV/secret', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://db.internal/', 'hostname'],
  ])('refuses plain %s with 403 and no hit', async (template, reason) => {
    const answer = await viaProxy(proxy, template.replace('PRIV', String(privateSite.port)));
    expect(answer.status).toBe(403);
    expect(answer.blocked).toBe(reason);
    expect(answer.body.startsWith('Refused ')).toBe(true);
    expect(proxy.hits.at(-1)?.outcome).toBe('refused');
    expect(privateSite.hits).toEqual([]);
  });

  it('tunnels an allowed CONNECT to the checked address', async () => {
    publicSite.hits.length = 0;
    const { res, socket } = await connectVia(proxy, `public.example:${publicSite.port}`);
    expect(res.statusCode).toBe(200);
    const raw = await throughTunnel(socket, 'public.example', '/page');
    expect(raw.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(raw.endsWith('\r\n\r\nb\r\npublic page\r\n0\r\n\r\n')).toBe(true); // one chunk of 0xb bytes
    expect(publicSite.hits).toEqual(['/page']);
  });

  it.each([
    ['127.0.0.1:PRIV', 'loopback'],
    ['0x7f000001:PRIV', 'loopback'],
    ['2130706433:PRIV', 'loopback'],
    ['[::1]:PRIV', 'loopback'],
    ['localhost:PRIV', 'loopback'],
    ['innocent.example:PRIV', 'loopback'],
    ['169.254.169.254:80', 'metadata'],
    ['[fd00:ec2::254]:80', 'metadata'],
    ['public.example:25', 'port'],
  ])('refuses CONNECT %s with 403 and no hit', async (template, reason) => {
    const { res, socket } = await connectVia(proxy, template.replace('PRIV', String(privateSite.port)));
    socket.destroy();
    expect(res.statusCode).toBe(403);
    expect(res.headers['x-egress-blocked']).toBe(reason);
    expect(privateSite.hits).toEqual([]);
  });

  it('answers 400 to a request that is not absolute-form', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: proxy.port, path: '/page' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(answer).toBe(400);
  });

  it('survives clients and upstreams that reset mid-exchange', async () => {
    // Client gives up on a tunnel right after it opens.
    const { socket } = await connectVia(proxy, `public.example:${publicSite.port}`);
    socket.destroy();
    // Client drops the connection while the proxy is still talking to the proxy.
    const raw = connect(proxy.port, '127.0.0.1', () => {
      raw.write(`GET http://public.example:${publicSite.port}/page HTTP/1.1\r\nHost: public.example\r\n\r\n`);
      raw.destroy();
    });
    // Upstream resets without answering.
    const reset = await viaProxy(proxy, `http://public.example:${publicSite.port}/reset`);
    expect(reset.status).toBe(502);
    // Still serving.
    const answer = await viaProxy(proxy, `http://public.example:${publicSite.port}/page`);
    expect(answer.status).toBe(200);
  });

  it('forwards private targets when allowPrivate is on', async () => {
    const dev = await startEgressProxy({ allowPrivate: true });
    privateSite.hits.length = 0;
    const answer = await viaProxy(dev, `http://127.0.0.1:${privateSite.port}/secret`);
    expect(answer).toEqual({ status: 200, blocked: undefined, body: 'secret' });
    expect(privateSite.hits).toEqual(['/secret']);
    const metadata = await viaProxy(dev, 'http://169.254.169.254/');
    expect([metadata.status, metadata.blocked]).toEqual([403, 'metadata']);
    await dev.close();
  });
});
