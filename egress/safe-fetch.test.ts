import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsafeUrlError } from '../core/url-safety.js';
import { createSafeDispatcher, type SafeAgent } from './dispatcher.js';
import { safeFetch, TooManyRedirectsError } from './safe-fetch.js';
import { classifyWithStandIn, fakeLookup, PUBLIC_STAND_IN, redirect, startFixture, text, type Fixture } from '../test/fixtures/egress.js';

async function refusalOf(p: Promise<unknown>): Promise<UnsafeUrlError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof UnsafeUrlError)) throw new Error(`expected UnsafeUrlError, got ${String(err)}`);
  return err;
}

describe('safeFetch with allowPrivate (development)', () => {
  let site: Fixture;
  beforeAll(async () => {
    site = await startFixture({
      host: '127.0.0.1',
      routes: { '/start': redirect('/a'), '/a': redirect('/b?x=1', 301), '/b': text('done'), '/loop': redirect('/loop') },
    });
  });
  afterAll(() => site.close());

  it('follows redirects itself and reports the chain', async () => {
    const base = `http://127.0.0.1:${site.port}`;
    site.hits.length = 0;
    const { response, url, redirects } = await safeFetch(`${base}/start`, {}, { allowPrivate: true });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('done');
    expect(url).toBe(`${base}/b?x=1`);
    expect(redirects).toEqual([
      { from: `${base}/start`, to: `${base}/a`, status: 302 },
      { from: `${base}/a`, to: `${base}/b?x=1`, status: 301 },
    ]);
    expect(site.hits).toEqual(['/start', '/a', '/b?x=1']);
  });

  it('gives up after maxRedirects', async () => {
    site.hits.length = 0;
    const err = await safeFetch(`http://127.0.0.1:${site.port}/loop`, {}, { allowPrivate: true, maxRedirects: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyRedirectsError);
    expect((err as TooManyRedirectsError).redirects).toHaveLength(3);
    expect((err as TooManyRedirectsError).message).toBe(
      `Gave up after 3 redirects starting at http://127.0.0.1:${site.port}/loop ` +
        `(http://127.0.0.1:${site.port}/loop redirected to /loop); the site is probably redirecting in a loop.`,
    );
    expect(site.hits).toEqual(['/loop', '/loop', '/loop', '/loop']);
  });
});

describe('safeFetch under the policy', () => {
  let publicSite: Fixture;
  let privateSite: Fixture;
  let dispatcher: SafeAgent;
  let pub: string;
  let priv: string;
  const lookup = fakeLookup({
    'public.example': [PUBLIC_STAND_IN],
    'other.example': [PUBLIC_STAND_IN],
    'innocent.example': ['127.0.0.1'],
  });

  beforeAll(async () => {
    privateSite = await startFixture({ host: '127.0.0.1', routes: { '/secret': text('secret') } });
    priv = String(privateSite.port);
    publicSite = await startFixture({
      host: PUBLIC_STAND_IN,
      routes: {
        '/to-literal': redirect(`http://127.0.0.1:${priv}/secret`),
        '/to-localhost': redirect(`http://localhost:${priv}/secret`),
        '/to-name': redirect(`http://innocent.example:${priv}/secret`),
        '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
        '/to-file': redirect('file:///etc/passwd'),
        '/to-mapped': redirect(`http://[::ffff:127.0.0.1]:${priv}/secret`),
        '/post-303': redirect('/echo', 303),
        '/post-307': redirect('/echo', 307),
        '/cross-origin': (_req, res) => res.writeHead(302, { location: `http://other.example:${publicSite.port}/echo` }).end(),
        '/echo': (req, res, body) => res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null })),
      },
    });
    pub = `http://public.example:${publicSite.port}`;
    dispatcher = createSafeDispatcher({ allowPrivate: false, lookup, classify: classifyWithStandIn });
  });
  afterAll(async () => {
    await dispatcher.close();
    await publicSite.close();
    await privateSite.close();
  });

  it.each([
    ['/to-literal', () => `http://127.0.0.1:${priv}/secret`, 'loopback'],
    ['/to-localhost', () => `http://localhost:${priv}/secret`, 'loopback'],
    ['/to-name', () => `http://innocent.example:${priv}/secret`, 'loopback'], // refused at connect, after DNS
    ['/to-mapped', () => `http://[::ffff:7f00:1]:${priv}/secret`, 'loopback'],
    ['/to-metadata', () => 'http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['/to-file', () => 'file:///etc/passwd', 'scheme'],
  ])('refuses the redirect hop %s before it reaches the target', async (path, target, reason) => {
    publicSite.hits.length = 0;
    const err = await refusalOf(safeFetch(`${pub}${path}`, {}, { allowPrivate: false, dispatcher }));
    expect(err.reason).toBe(reason);
    expect(err.url).toBe(target());
    expect(err.hop).toBe(1);
    expect(err.message).toContain(`(redirect 1 from ${pub}${path})`);
    expect(publicSite.hits).toEqual([path]);
    expect(privateSite.hits).toEqual([]);
  });

  it('refuses a private first URL without sending anything', async () => {
    const err = await refusalOf(safeFetch(`http://127.0.0.1:${priv}/secret`, {}, { allowPrivate: false, dispatcher }));
    expect(err.reason).toBe('loopback');
    expect(err.hop).toBeUndefined();
    expect(privateSite.hits).toEqual([]);
  });

  it('names the full URL when the first host is refused at connect time', async () => {
    const err = await refusalOf(safeFetch(`http://innocent.example:${priv}/secret`, {}, { allowPrivate: false, dispatcher }));
    expect([err.reason, err.url, err.address]).toEqual(['loopback', `http://innocent.example:${priv}/secret`, '127.0.0.1']);
    expect(privateSite.hits).toEqual([]);
  });

  it('turns a POST into a GET without body on 303', async () => {
    const { response } = await safeFetch(`${pub}/post-303`, { method: 'POST', body: 'payload' }, { allowPrivate: false, dispatcher });
    expect(await response.json()).toEqual({ method: 'GET', body: '', auth: null });
  });

  it('repeats method and body on 307', async () => {
    const { response } = await safeFetch(`${pub}/post-307`, { method: 'POST', body: 'payload' }, { allowPrivate: false, dispatcher });
    expect(await response.json()).toEqual({ method: 'POST', body: 'payload', auth: null });
  });

  it('drops credentials headers on a cross-origin redirect', async () => {
    const { response, url } = await safeFetch(`${pub}/cross-origin`, { headers: { authorization: 'Bearer t' } }, { allowPrivate: false, dispatcher });
    expect(url).toBe(`http://other.example:${publicSite.port}/echo`);
    expect(await response.json()).toEqual({ method: 'GET', body: '', auth: null });
  });

  it('refuses a dispatcher built for a different policy', async () => {
    await expect(safeFetch(`${pub}/echo`, {}, { allowPrivate: true, dispatcher })).rejects.toThrow(
      new TypeError('safeFetch: the dispatcher was created with a different allowPrivate than these options'),
    );
  });
});
