/**
 * The egress battery: hostile targets through the real service (API → Temporal → worker → fetch,
 * local_browser and remote engines → egress proxy → Chromium; webhooks; crawl and map discovery)
 * with ALLOW_PRIVATE_ADDRESSES=false. The allowed site is on 127.0.0.2 (EGRESS_ALLOW_CIDRS); the
 * private twin listens on 127.0.0.1 (and [::1]) at the same port, so any spelling of loopback, or
 * any name resolving to it, that slipped through would reach it: its hit log is the witness. Names
 * resolve only through a test DNS server (DNS_SERVERS), which also serves a rebinding host.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserRuntime, type BrowserRuntime } from '../browser/runtime.js';
import { createBrowserApp } from '../browser-service/server.js';
import { workflowIds } from '../core/contracts.js';
import { failureTypes } from '../core/failures.js';
import { UnsafeUrlError, type BlockReason } from '../core/url-safety.js';
import { startDnsServer, type DnsServer } from './fixtures/dns-server.js';
import { waitFor } from './fixtures/receiver.js';
import { html, type Handler } from './fixtures/server.js';
import { startTwinHosts, type TwinHosts } from './fixtures/twin-hosts.js';
import { startCrawl, waitForCrawl } from './helpers/crawl.js';
import { testConfig } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const TOKEN = 'egress-battery-token-0123456789';
/** Stands for the twins' shared port in the tables below (known only once they listen). */
const P = '{P}';
const filler = 'This page is served by the allowed twin on 127.0.0.2, the stand-in for a public web site. '.repeat(3);

let twins: TwinHosts;
let dns: DnsServer;
let browserService: { runtime: BrowserRuntime; server: Server; url: string; draining: boolean };
let stack: TestStack;

const at = (text: string) => text.replaceAll(P, String(twins.port));
const refusal = (reason: BlockReason, url: string, redirect?: { hop: number; from: string }) => new UnsafeUrlError(reason, url, redirect ?? {}).message;
const notAllowed = (message: string) => ({ success: false, code: 'url_not_allowed', error: message, details: [{ field: 'url', message }] });
/** What the API says when a browser's request was refused by the egress proxy, per engine. */
const byBrowser = (engine: 'remote' | 'local_browser', reason: BlockReason, proxyMessage: string) =>
  `${engine === 'remote' ? 'Browser service: ' : ''}Refused by the URL safety policy (${reason}): ${proxyMessage}`;

const article = (title: string): Handler => html(`<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${filler}</p></article></body></html>`);
const redirectTo = (location: string, status = 302): Handler => (_req, res) => void res.writeHead(status, { location }).end();

/** An allowed page whose image, script, stylesheet, frame and fetch() calls point at the private twin; `/ok*` are controls that must load. */
const embeds = (port: number): Handler => (req, res, body) => {
  const run = new URL(req.url ?? '/', 'http://x').searchParams.get('run') ?? '';
  const priv = `http://127.0.0.1:${port}`;
  void html(`<!doctype html><html><head><title>Embeds</title>
<script src="${priv}/script.js?run=${run}"></script>
<link rel="stylesheet" href="http://[::ffff:7f00:1]:${port}/style.css?run=${run}">
<script src="/ok.js?run=${run}"></script>
</head><body><h1>Embeds page</h1><p>${filler}</p>
<img src="${priv}/image.png?run=${run}" alt="">
<img src="http://private.test:${port}/named.png?run=${run}" alt="">
<img src="http://2130706433:${port}/decimal.png?run=${run}" alt="">
<img src="/ok.png?run=${run}" alt="">
<iframe src="${priv}/frame?run=${run}"></iframe>
<script>
fetch('${priv}/fetch?run=${run}').catch(() => {});
fetch('http://localhost:${port}/localhost-fetch?run=${run}').catch(() => {});
fetch('/ok-fetch?run=${run}').catch(() => {});
</script></body></html>`)(req, res, body);
};

const pngPixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

beforeAll(async () => {
  [twins, dns] = await Promise.all([
    startTwinHosts((port) => ({
      '/page': article('Allowed page'),
      '/rebind': article('Rebinding page'),
      '/embeds': embeds(port),
      '/leads-out': html(`<!doctype html><html><head><title>Leads out</title></head><body><h1>Leads out</h1><p>${filler}</p><a id="go" href="http://127.0.0.1:${port}/secret">go</a></body></html>`),
      '/ok.js': (_q, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end('document.documentElement.dataset.ok = "script";'),
      '/ok.png': (_q, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(pngPixel),
      '/ok-fetch': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('fetched from the allowed twin'),
      '/redirect/loopback': redirectTo(`http://127.0.0.1:${port}/secret`),
      '/redirect/decimal': redirectTo(`http://2130706433:${port}/secret`),
      '/redirect/mapped': redirectTo(`http://[::ffff:127.0.0.1]:${port}/secret`, 307),
      '/redirect/named': redirectTo(`http://private.test:${port}/secret`),
      '/redirect/metadata': redirectTo('http://169.254.169.254/latest/meta-data/', 301),
      '/redirect/chain': redirectTo('/redirect/loopback', 303),
    })),
    startDnsServer({
      'allowed.test': ['127.0.0.2'],
      'private.test': ['127.0.0.1'],
      'v6private.test': ['::1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'ten.test': ['10.0.0.1'],
      'zero.test': ['0.0.0.0'],
      'meta.test': ['169.254.169.254'],
      'aws6meta.test': ['fd00:ec2::254'],
      'both.test': ['127.0.0.2', '127.0.0.1'],
      // Allowed on the first A question, private on every later one.
      'rebind.test': (n) => (n === 1 ? ['127.0.0.2'] : ['127.0.0.1']),
    }),
  ]);
  const env = {
    ALLOW_PRIVATE_ADDRESSES: 'false',
    // 127.0.0.2 is the allowed site; the metadata entries check that listing them does not open them.
    EGRESS_ALLOW_CIDRS: '127.0.0.2/32, 169.254.169.254/32, fd00:ec2::254/128',
    DNS_SERVERS: dns.address,
    RATE_LIMIT_SCRAPE_PER_MIN: '0',
    RATE_LIMIT_CRAWL_PER_MIN: '0',
    RATE_LIMIT_CRAWL_STATUS_PER_MIN: '0',
    RATE_LIMIT_MAP_PER_MIN: '0',
  };
  // The remote engine: a browser service with its own runtime (proxy and pool) from the same settings.
  const runtime = await startBrowserRuntime(testConfig('worker', env));
  const service = { runtime, server: undefined as unknown as Server, url: '', draining: false };
  service.server = createBrowserApp({ pool: runtime.pool, token: TOKEN, isDraining: () => service.draining }).listen(0, '127.0.0.1');
  await new Promise<void>((r) => service.server.once('listening', () => r()));
  service.url = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
  browserService = service;
  stack = await startTestStack({ ...env, BROWSER_ENGINE_URL: service.url, BROWSER_ENGINE_TOKEN: TOKEN });
});

afterAll(async () => {
  await stack?.close();
  if (browserService) {
    browserService.server.closeAllConnections();
    await new Promise<void>((r) => browserService.server.close(() => r()));
    await browserService.runtime.close();
  }
  await Promise.all([twins?.close(), dns?.close()]);
});

const scrape = (body: Record<string, unknown>) => stack.post('/v1/scrape', body);
type Doc = { markdown?: string; screenshot?: string; metadata: Record<string, unknown> };

describe('controls: the allowed site is reachable', () => {
  it.each([
    ['by address (EGRESS_ALLOW_CIDRS)', `http://127.0.0.2:${P}/page`],
    ['by a name the test DNS server resolves to it (DNS_SERVERS)', `http://allowed.test:${P}/page`],
  ])('scrapes the allowed twin %s', async (_label, url) => {
    const res = await scrape({ url: at(url) });
    expect(res.status).toBe(200);
    expect((res.body.data as Doc).metadata).toMatchObject({ statusCode: 200, engine: 'fetch', title: 'Allowed page' });
    expect(twins.private.hits).toEqual([]);
  });
});

// [spelling, URL, reason, URL as the refusal names it (default: the WHATWG parse of the URL)]
const literals: [string, string, BlockReason, string?][] = [
  ['loopback, dotted', `http://127.0.0.1:${P}/secret`, 'loopback'],
  ['loopback, one decimal number', `http://2130706433:${P}/secret`, 'loopback'],
  ['loopback, one hex number', `http://0x7f000001:${P}/secret`, 'loopback'],
  ['loopback, upper-case hex', `http://0X7F000001:${P}/secret`, 'loopback'],
  ['loopback, octal parts', `http://0177.0.0.1:${P}/secret`, 'loopback'],
  ['loopback, one octal number', `http://017700000001:${P}/secret`, 'loopback'],
  ['loopback, hex and decimal parts', `http://0x7f.0.0.1:${P}/secret`, 'loopback'],
  ['loopback, short form a.b', `http://127.1:${P}/secret`, 'loopback'],
  ['loopback, short form a.b.c', `http://127.0.1:${P}/secret`, 'loopback'],
  ['loopback, short hex form', `http://0x7f.1:${P}/secret`, 'loopback'],
  ['loopback, trailing dot', `http://127.0.0.1.:${P}/secret`, 'loopback'],
  ['loopback, full-width digits', `http://１２７.０.０.１:${P}/secret`, 'loopback'],
  ['loopback, percent-encoded host', `http://%31%32%37.0.0.1:${P}/secret`, 'loopback'],
  ['loopback, no scheme (becomes https)', `127.0.0.1:${P}/secret`, 'loopback', `https://127.0.0.1:${P}/secret`],
  ['loopback beside the allowed /32', `http://127.0.0.3:${P}/secret`, 'loopback'],
  ['IPv6 loopback', `http://[::1]:${P}/secret`, 'loopback'],
  ['IPv6 loopback, long form', `http://[0:0:0:0:0:0:0:1]:${P}/secret`, 'loopback'],
  ['IPv4-mapped IPv6, dotted', `http://[::ffff:127.0.0.1]:${P}/secret`, 'loopback'],
  ['IPv4-mapped IPv6, hex', `http://[::ffff:7f00:1]:${P}/secret`, 'loopback'],
  ['IPv4-mapped IPv6, long form', `http://[0:0:0:0:0:ffff:127.0.0.1]:${P}/secret`, 'loopback'],
  ['NAT64 well-known prefix', `http://[64:ff9b::127.0.0.1]:${P}/secret`, 'loopback'],
  ['NAT64 local-use prefix', `http://[64:ff9b:1::7f00:1]:${P}/secret`, 'loopback'],
  ['6to4', `http://[2002:7f00:1::]:${P}/secret`, 'loopback'],
  ['IPv4-compatible IPv6', `http://[::127.0.0.1]:${P}/secret`, 'loopback'],
  ['unspecified 0.0.0.0', `http://0.0.0.0:${P}/secret`, 'unspecified'],
  ['unspecified as "0"', `http://0:${P}/secret`, 'unspecified'],
  ['IPv6 unspecified [::]', `http://[::]:${P}/secret`, 'unspecified'],
  ['localhost', `http://localhost:${P}/secret`, 'loopback'],
  ['LOCALHOST with a trailing dot', `http://LOCALHOST.:${P}/secret`, 'loopback'],
  ['a subdomain of localhost', `http://app.localhost:${P}/secret`, 'loopback'],
  ['private 10/8', 'http://10.0.0.1/', 'private'],
  ['private 10/8, hex', 'http://0x0a000001/', 'private'],
  ['private 172.16/12', 'http://172.16.0.1/', 'private'],
  ['private 192.168/16', 'http://192.168.1.1/', 'private'],
  ['private, IPv4-mapped', 'http://[::ffff:10.0.0.1]/', 'private'],
  ['carrier-grade NAT', 'http://100.64.0.1/', 'cgnat'],
  ['link-local', 'http://169.254.1.1/', 'link_local'],
  ['IPv6 link-local', 'http://[fe80::1]/', 'link_local'],
  ['IPv6 link-local with a zone id', 'http://[fe80::1%25eth0]/', 'invalid_url', 'http://[fe80::1%25eth0]/'],
  ['IPv6 unique-local', 'http://[fd00::1]/', 'unique_local'],
  ['multicast', 'http://224.0.0.1/', 'multicast'],
  ['broadcast', 'http://255.255.255.255/', 'broadcast'],
  ['metadata (listed in EGRESS_ALLOW_CIDRS)', 'http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['metadata, one decimal number', 'http://2852039166/latest/meta-data/', 'metadata'],
  ['metadata, one hex number', 'http://0xa9fea9fe/latest/meta-data/', 'metadata'],
  ['metadata, octal parts', 'http://0251.0376.0251.0376/latest/meta-data/', 'metadata'],
  ['metadata, IPv4-mapped', 'http://[::ffff:169.254.169.254]/latest/meta-data/', 'metadata'],
  ['AWS metadata over IPv6 (listed)', 'http://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
  ['AWS ECS task metadata', 'http://169.254.170.2/v2/credentials', 'metadata'],
  ['Alibaba Cloud metadata', 'http://100.100.100.200/latest/meta-data/', 'metadata'],
  ['GCP metadata name', 'http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['AWS metadata name', 'http://instance-data/latest/meta-data/', 'metadata'],
  ['an .internal name', `http://db.internal:${P}/secret`, 'hostname'],
  ['an mDNS .local name', `http://printer.local:${P}/secret`, 'hostname'],
  ['a single-label name', `http://redis:${P}/secret`, 'hostname'],
  ['credentials on the allowed host', `http://user:pass@127.0.0.2:${P}/page`, 'credentials', `http://127.0.0.2:${P}/page`],
  ['a file: URL', 'file:///etc/passwd', 'scheme'],
  ['a gopher: URL at loopback', `gopher://127.0.0.1:${P}/_`, 'scheme'],
  ['a mail port on the allowed host', 'http://127.0.0.2:25/', 'port'],
];

describe('POST /v1/scrape refuses every literal spelling at the API (400 url_not_allowed)', () => {
  it.each(literals)('%s: %s', async (_label, url, reason, shown) => {
    const target = at(url);
    const res = await scrape({ url: target });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed(refusal(reason, at(shown ?? new URL(target).href))));
    expect(twins.private.hits).toEqual([]);
  });
});

// [name, reason] — each resolves (only) through the test DNS server to a refused address.
const privateNames: [string, BlockReason][] = [
  ['private.test', 'loopback'],
  ['v6private.test', 'loopback'],
  ['mapped.test', 'loopback'],
  ['ten.test', 'private'],
  ['zero.test', 'unspecified'],
  ['meta.test', 'metadata'],
  ['aws6meta.test', 'metadata'],
  ['both.test', 'loopback'],
];

describe('names that resolve to refused addresses (DNS_SERVERS), checked by the worker', () => {
  it.each(privateNames)('POST /v1/scrape http://%s refuses it after one A and one AAAA question', async (name, reason) => {
    const mark = dns.log.length;
    const url = at(`http://${name}:${P}/secret`);
    const res = await scrape({ url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed(refusal(reason, url)));
    expect(dns.log.slice(mark).map((q) => `${q.name}/${q.type}`).sort()).toEqual([`${name}/A`, `${name}/AAAA`]);
    expect(twins.allowed.hitsFor('/secret')).toEqual([]);
    expect(twins.private.hits).toEqual([]);
  });

  it('refuses metadata even though EGRESS_ALLOW_CIDRS lists it, in the browser proxy too', async () => {
    const res = await scrape({ url: at(`http://meta.test:${P}/latest/meta-data/`), formats: ['screenshot'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed(byBrowser('remote', 'metadata', refusal('metadata', 'meta.test'))));
  });
});

describe('POST /v1/crawl', () => {
  it.each([`http://127.0.0.1:${P}/`, `http://0x7f.1:${P}/`, `http://[::ffff:127.0.0.1]:${P}/`, 'http://169.254.169.254/', `http://localhost:${P}/`])(
    'refuses the literal seed %s at the API',
    async (url) => {
      const target = at(url);
      const res = await stack.post('/v1/crawl', { url: target });
      expect(res.status).toBe(400);
      const reason = url.includes('169.254') ? 'metadata' : 'loopback';
      expect(res.body).toEqual(notAllowed(refusal(reason, new URL(target).href)));
      expect(twins.private.hits).toEqual([]);
    },
  );

  it.each([
    ['private.test', 'loopback'],
    ['meta.test', 'metadata'],
    ['both.test', 'loopback'],
  ] as const)('ends a crawl of %s as failed, with the reason, before fetching anything', async (name, reason) => {
    const id = await startCrawl(stack, { url: at(`http://${name}:${P}/`) });
    const status = await waitForCrawl(stack, id, 60_000);
    expect(status).toMatchObject({ status: 'failed', error: refusal(reason, name), completed: 0, total: 0, data: [] });
    expect(twins.allowed.hitsFor('/robots.txt')).toEqual([]);
    expect(twins.private.hits).toEqual([]);
  });
});

describe('POST /v1/map', () => {
  it.each([`http://127.0.0.1:${P}/`, `http://2130706433:${P}/`, 'http://[fd00:ec2::254]/'])('refuses the literal seed %s at the API', async (url) => {
    const target = at(url);
    const res = await stack.post('/v1/map', { url: target });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed(refusal(url.includes('fd00') ? 'metadata' : 'loopback', new URL(target).href)));
    expect(twins.private.hits).toEqual([]);
  });

  it.each([
    ['private.test', 'loopback'],
    ['ten.test', 'private'],
  ] as const)('refuses a seed named %s once the worker resolves it', async (name, reason) => {
    const res = await stack.post('/v1/map', { url: at(`http://${name}:${P}/`) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed(refusal(reason, name)));
    expect(twins.private.hits).toEqual([]);
  });
});

describe('redirects from the allowed site to private targets', () => {
  // [route on the allowed twin, where the refused hop points (as parsed), reason, hop, hop's origin route]
  const redirects: [string, string, BlockReason, number, string][] = [
    ['/redirect/loopback', `http://127.0.0.1:${P}/secret`, 'loopback', 1, '/redirect/loopback'],
    ['/redirect/decimal', `http://127.0.0.1:${P}/secret`, 'loopback', 1, '/redirect/decimal'],
    ['/redirect/mapped', `http://[::ffff:7f00:1]:${P}/secret`, 'loopback', 1, '/redirect/mapped'],
    ['/redirect/named', `http://private.test:${P}/secret`, 'loopback', 1, '/redirect/named'],
    ['/redirect/metadata', 'http://169.254.169.254/latest/meta-data/', 'metadata', 1, '/redirect/metadata'],
    ['/redirect/chain', `http://127.0.0.1:${P}/secret`, 'loopback', 2, '/redirect/loopback'],
  ];

  it.each(redirects)('fetch engine: %s is refused at the hop, naming the redirect', async (route, target, reason, hop, from) => {
    const before = twins.allowed.hitsFor(route).length;
    const res = await scrape({ url: `${twins.allowedUrl}${route}` });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed(refusal(reason, at(target), { hop, from: `${twins.allowedUrl}${from}` })));
    expect(twins.allowed.hitsFor(route).length).toBe(before + 1);
    expect(twins.private.hits).toEqual([]);
  });

  it.each(['remote', 'local_browser'] as const)('%s engine: a redirect to the private twin is refused by the egress proxy', async (engine) => {
    browserService.draining = engine === 'local_browser';
    try {
      const res = await scrape({ url: `${twins.allowedUrl}/redirect/loopback`, formats: ['screenshot'] });
      expect(res.status).toBe(400);
      const target = `http://127.0.0.1:${twins.port}/secret`;
      expect(res.body).toEqual(notAllowed(byBrowser(engine, 'loopback', refusal('loopback', target))));
      expect(twins.private.hits).toEqual([]);
    } finally {
      browserService.draining = false;
    }
  });
});

describe('webhooks', () => {
  it('never delivers to private receivers: literal ones are refused when the scrape is made, a name resolving to one fails once, non-retryably', async () => {
    const hooks = [`http://127.0.0.1:${P}/hook`, `http://private.test:${P}/hook`, `http://[::ffff:127.0.0.1]:${P}/hook`, 'http://169.254.169.254/hook'].map(at);
    const refused = await scrape({ url: `${twins.allowedUrl}/page`, webhookUrls: hooks });
    expect([refused.status, (refused.body.details as { field: string }[]).map((d) => d.field)]).toEqual([400, ['webhookUrls[0]', 'webhookUrls[2]', 'webhookUrls[3]']]);
    const res = await scrape({ url: `${twins.allowedUrl}/page`, webhookUrls: [hooks[1]!] });
    expect(res.status).toBe(200);
    const handle = stack.api.deps.temporal.workflow.getHandle(workflowIds.webhooks('scrape', res.body.scrape_id as string));
    expect(await handle.result()).toEqual({ delivered: 0, failed: 1 });
    const events = (await handle.fetchHistory()).events ?? [];
    const started = events.flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : []));
    const failures = events.flatMap((e) => (e.activityTaskFailedEventAttributes?.failure ? [e.activityTaskFailedEventAttributes.failure] : []));
    expect(started).toEqual([1]);
    expect(failures.map((f) => ({ type: f.applicationFailureInfo?.type, nonRetryable: f.applicationFailureInfo?.nonRetryable, message: f.message }))).toEqual([
      { type: failureTypes.unsafeUrl, nonRetryable: true, message: refusal('loopback', hooks[1]!) },
    ]);
    // Past the first retry interval (1 s): still nothing, because nothing is retried.
    await new Promise((r) => setTimeout(r, 2500));
    expect(twins.private.hits).toEqual([]);
  });
});

describe('a page whose subresources point at the private twin, rendered in a browser', () => {
  it.each(['remote', 'local_browser'] as const)('%s engine: the page renders, its own subresources load, nothing reaches the private twin', async (engine) => {
    browserService.draining = engine === 'local_browser'; // the remote engine answers 503, so the worker's own browser renders
    try {
      const res = await scrape({ url: `${twins.allowedUrl}/embeds?run=${engine}`, formats: ['markdown', 'screenshot'] });
      expect(res.status).toBe(200);
      const doc = res.body.data as Doc;
      expect(doc.metadata).toMatchObject({ engine, statusCode: 200, title: 'Embeds' });
      expect(doc.markdown).toContain('# Embeds page');
      expect(Buffer.from(doc.screenshot!, 'base64').subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      // The controls prove subresources and fetch() do go out (through the proxy) from this page.
      await waitFor(() => ['/ok.js', '/ok.png', '/ok-fetch'].every((p) => twins.allowed.hitsFor(`${p}?run=${engine}`).length === 1), 5000);
      expect(twins.private.hits).toEqual([]);
    } finally {
      browserService.draining = false;
    }
  });
});

describe('browser actions: what they cause passes the egress policy too', () => {
  it.each(['remote', 'local_browser'] as const)('%s engine: a click that navigates to the private twin is refused; a script fetching it reaches nothing', async (engine) => {
    browserService.draining = engine === 'local_browser';
    try {
      const clicked = await scrape({ url: `${twins.allowedUrl}/leads-out`, actions: [{ type: 'click', selector: '#go' }, { type: 'wait', milliseconds: 500 }] });
      expect(clicked.status).toBe(400);
      const message = `${engine === 'remote' ? 'Browser service: ' : ''}An action led to a URL the URL safety policy refuses: http://127.0.0.1:${twins.port}/secret (loopback)`;
      expect(clicked.body).toEqual(notAllowed(message));

      const script = `fetch("http://127.0.0.1:${twins.port}/secret?run=${engine}").then((r) => r.status, (e) => e.name)`;
      const fetched = await scrape({ url: `${twins.allowedUrl}/leads-out`, actions: [{ type: 'executeJavascript', script }] });
      expect(fetched.status).toBe(200);
      expect((fetched.body.data as { actions: { javascriptReturns: unknown[] } }).actions.javascriptReturns).toHaveLength(1);
      expect(twins.private.hits).toEqual([]);
    } finally {
      browserService.draining = false;
    }
  });
});

describe('a rebinding host (allowed on the first answer, private after)', () => {
  it('fetches the page from the checked address only, then refuses the name once it points at the private twin', async () => {
    const url = at(`http://rebind.test:${P}/rebind`);
    const first = await scrape({ url });
    expect(first.status).toBe(200);
    expect((first.body.data as Doc).metadata).toMatchObject({ engine: 'fetch', title: 'Rebinding page', url });
    expect(twins.allowed.hitsFor('/rebind').map((h) => h.headers.host)).toEqual([`rebind.test:${twins.port}`]);
    expect(dns.asked('rebind.test', 'A').map((q) => q.answers)).toEqual([['127.0.0.2']]);

    // A browser's connection needs its own lookup, which now answers the private address: refused.
    const second = await scrape({ url, formats: ['screenshot'] });
    expect(second.status).toBe(400);
    expect(second.body).toEqual(notAllowed(byBrowser('remote', 'loopback', refusal('loopback', 'rebind.test'))));
    const answers = dns.asked('rebind.test', 'A').map((q) => q.answers);
    expect(answers.length).toBeGreaterThanOrEqual(2);
    expect(answers).toEqual([['127.0.0.2'], ...Array(answers.length - 1).fill(['127.0.0.1'])]);
    expect(twins.allowed.hitsFor('/rebind')).toHaveLength(1);
    expect(twins.private.hits).toEqual([]);
  });
});

describe('the witness', () => {
  it('the private twin received no request at all during this file', () => {
    expect(twins.private.hits).toEqual([]);
  });
});
