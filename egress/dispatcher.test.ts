import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsafeUrlError } from '../core/url-safety.js';
import { createSafeDispatcher } from './dispatcher.js';
import { classifyWithStandIn, fakeLookup, PUBLIC_STAND_IN, startFixture, text, type Fixture } from '../test/fixtures/egress.js';

async function errorOf(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: Error) => e,
  );
}

describe('createSafeDispatcher over http', () => {
  let publicSite: Fixture;
  let privateSite: Fixture;

  beforeAll(async () => {
    // Same port on two addresses: a rebinding name can point at either.
    publicSite = await startFixture({ host: PUBLIC_STAND_IN, routes: { '/': text('public') } });
    privateSite = await startFixture({ host: '127.0.0.1', port: publicSite.port, routes: { '/': text('private') } });
  });
  afterAll(async () => {
    await publicSite.close();
    await privateSite.close();
  });

  it('connects to the checked address with one lookup per connection', async () => {
    const lookup = fakeLookup({ 'public.example': [PUBLIC_STAND_IN] });
    const dispatcher = createSafeDispatcher({ allowPrivate: false, lookup, classify: classifyWithStandIn });
    const res = await request(`http://public.example:${publicSite.port}/`, { dispatcher });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('public');
    expect(lookup.calls).toEqual(['public.example']);
    expect(publicSite.requests.at(-1)?.headers.host).toBe(`public.example:${publicSite.port}`);
    await dispatcher.close();
  });

  it('cannot be rebound: a second answer pointing at a private address is refused at connect', async () => {
    const answers = [[PUBLIC_STAND_IN], ['127.0.0.1']];
    const lookup = fakeLookup({ 'rebind.example': () => answers.shift() ?? ['127.0.0.1'] });
    const dispatcher = createSafeDispatcher({ allowPrivate: false, lookup, classify: classifyWithStandIn });
    const url = `http://rebind.example:${publicSite.port}/`;
    publicSite.hits.length = 0;

    const first = await request(url, { dispatcher, reset: true }); // reset: no keep-alive, so the next request reconnects
    expect(await first.body.text()).toBe('public');
    const err = await errorOf(request(url, { dispatcher, reset: true }));

    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect((err as UnsafeUrlError).reason).toBe('loopback');
    expect((err as UnsafeUrlError).address).toBe('127.0.0.1');
    expect(lookup.calls).toEqual(['rebind.example', 'rebind.example']);
    expect(publicSite.hits).toEqual(['/']);
    expect(privateSite.hits).toEqual([]);
    await dispatcher.close();
  });

  it('refuses IP literal targets, which net.connect would never look up', async () => {
    const lookup = fakeLookup({});
    const dispatcher = createSafeDispatcher({ allowPrivate: false, lookup });
    const err = await errorOf(request(`http://127.0.0.1:${privateSite.port}/`, { dispatcher }));
    expect((err as UnsafeUrlError).reason).toBe('loopback');
    expect(lookup.calls).toEqual([]);
    expect(privateSite.hits).toEqual([]);
    await dispatcher.close();
  });

  it('falls through to the next checked address when one is unreachable', async () => {
    // Nothing listens on 127.0.0.3 at this port; the second answer does.
    const lookup = fakeLookup({ 'dual.example': ['127.0.0.3', PUBLIC_STAND_IN] });
    const classify = (ip: string) => (ip === '127.0.0.3' ? ({ allowed: true } as const) : classifyWithStandIn(ip));
    const dispatcher = createSafeDispatcher({ allowPrivate: false, lookup, classify });
    const res = await request(`http://dual.example:${publicSite.port}/`, { dispatcher });
    expect(await res.body.text()).toBe('public');
    await dispatcher.close();
  });
});

describe('createSafeDispatcher over https', () => {
  let dir: string;
  let cert: string;
  let site: Fixture;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'egress-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
      '-subj', '/CN=public.example', '-addext', 'subjectAltName=DNS:public.example',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    site = await startFixture({ host: PUBLIC_STAND_IN, tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert }, routes: { '/': text('secure') } });
  });
  afterAll(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lookup = fakeLookup({ 'public.example': [PUBLIC_STAND_IN], 'other.example': [PUBLIC_STAND_IN] });

  it('sends SNI and verifies the certificate against the host name, not the checked address', async () => {
    const dispatcher = createSafeDispatcher({ allowPrivate: false, lookup, classify: classifyWithStandIn, ca: cert });
    const res = await request(`https://public.example:${site.port}/`, { dispatcher });
    expect(await res.body.text()).toBe('secure');
    expect(site.requests.at(-1)?.servername).toBe('public.example');
    await dispatcher.close();
  });

  it('rejects a certificate that does not name the requested host', async () => {
    const dispatcher = createSafeDispatcher({ allowPrivate: false, lookup, classify: classifyWithStandIn, ca: cert });
    const err = await errorOf(request(`https://other.example:${site.port}/`, { dispatcher }));
    expect((err as NodeJS.ErrnoException).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    await dispatcher.close();
  });
});
