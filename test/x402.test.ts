/**
 * Pay per request (x402) end to end: a real client (@x402/fetch, or viem signing the same EIP-3009
 * authorization by hand for the broken cases) with throwaway keys, the real API and worker, and a
 * local facilitator whose verification and settlement are the library's own (test/helpers/x402-facilitator.ts).
 */
import { randomBytes } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { getAddress, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCrawlSite } from './fixtures/crawl-site.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { startTestApi } from './helpers/api.js';
import { startTestStack, type TestStack } from './helpers/stack.js';
import { startTestFacilitator, type TestFacilitator } from './helpers/x402-facilitator.js';

const payTo = getAddress(toHex(randomBytes(20)));
const FACILITATOR_TIMEOUT_MS = 1500;
let facilitator: TestFacilitator;
let stack: TestStack;
let site: FixtureServer;
let crawlSite: Awaited<ReturnType<typeof startCrawlSite>>;

function x402Env(f: TestFacilitator): Record<string, string> {
  return {
    X402_PAY_TO: payTo,
    X402_FACILITATOR_URL: f.url,
    X402_FACILITATOR_BEARER_TOKEN: f.token,
    X402_FACILITATOR_TIMEOUT_MS: String(FACILITATOR_TIMEOUT_MS),
    X402_CRAWL_PRICE: '$0.05',
    X402_BATCH_SCRAPE_PRICE: '$0.03',
    X402_CRAWL_STATUS_PRICE: '0.001',
    RATE_LIMIT_MAP_PER_MIN: '2',
  };
}

beforeAll(async () => {
  facilitator = await startTestFacilitator();
  [stack, site, crawlSite] = await Promise.all([
    startTestStack(x402Env(facilitator)),
    startSite(),
    startCrawlSite({ pages: { '/': ['/one', '/two'], '/one': ['/two'], '/two': [] } }),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await Promise.allSettled([site?.close(), crawlSite?.close(), facilitator?.stop()]);
});
beforeEach(() => {
  facilitator.mode.delayMs = 0;
  facilitator.mode.settleDelayMs = 0;
  facilitator.mode.failSettle = false;
  facilitator.mode.forgetNonces = false;
});

/** A throwaway wallet holding 1 USDC on the fake chain. */
function wallet(): PrivateKeyAccount {
  const account = privateKeyToAccount(generatePrivateKey());
  facilitator.fund(account.address, 1_000_000n);
  return account;
}

function payingFetch(account: PrivateKeyAccount) {
  return wrapFetchWithPayment(fetch, new x402Client().register('eip155:*', new ExactEvmScheme(account)));
}

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function unpaid(method: string, path: string, body?: unknown) {
  const res = await fetch(stack.api.url + path, { method, ...(body ? json(body) : {}) });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

/** What the API asks for `path`, from its 402. */
async function requirementsFor(method: string, path: string, body?: unknown): Promise<PaymentRequired> {
  const { res } = await unpaid(method, path, body);
  return decodePaymentRequiredHeader(res.headers.get('payment-required')!);
}

interface Tamper {
  value?: string;
  to?: string;
  validBefore?: string;
  accepted?: Partial<PaymentRequirements>;
  signature?: (s: `0x${string}`) => `0x${string}`;
}

/** Sign an EIP-3009 authorization the way the exact EVM client does, with one thing changed. */
async function signedHeader(account: PrivateKeyAccount, required: PaymentRequired, tamper: Tamper = {}): Promise<string> {
  const req = required.accepts[0]!;
  const authorization = {
    from: account.address,
    to: tamper.to ?? getAddress(req.payTo),
    value: tamper.value ?? req.amount,
    validAfter: '0',
    validBefore: tamper.validBefore ?? String(Math.floor(Date.now() / 1000) + req.maxTimeoutSeconds),
    nonce: toHex(randomBytes(32)),
  };
  const signature = await account.signTypedData({
    domain: { name: req.extra.name as string, version: req.extra.version as string, chainId: 84532, verifyingContract: getAddress(req.asset) },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: { ...authorization, from: getAddress(authorization.from), to: getAddress(authorization.to), value: BigInt(authorization.value), validAfter: 0n, validBefore: BigInt(authorization.validBefore) },
  });
  const payload = { authorization, signature: tamper.signature ? tamper.signature(signature) : signature };
  return encodePaymentSignatureHeader({ x402Version: 2, resource: required.resource, accepted: { ...req, ...tamper.accepted }, payload });
}

async function paidWith(header: string, method: string, path: string, body?: unknown) {
  const res = await fetch(stack.api.url + path, { method, headers: { 'payment-signature': header, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

const payments = (payer: string) => stack.api.deps.prisma.x402Payment.findMany({ where: { payer: payer.toLowerCase() }, orderBy: { createdAt: 'asc' } });

describe('x402: the 402', () => {
  it('answers a protected operation without key or payment with 402, the PAYMENT-REQUIRED header and our envelope', async () => {
    const { res, body } = await unpaid('POST', '/v1/scrape', { url: site.url });
    expect(res.status).toBe(402);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const required = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    expect(required).toEqual({
      x402Version: 2,
      error: 'Payment required',
      resource: { url: `${stack.api.url}/v1/scrape`, description: 'Scrape one page', mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: 'eip155:84532', asset: facilitator.asset, amount: '10000', payTo, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } }],
    });
    expect(body).toEqual({ success: false, code: 'payment_required', error: expect.stringContaining('pay $0.01 with x402'), paymentRequired: required });
  });

  it('prices each operation from its own variable, else X402_PRICE', async () => {
    const amount = async (method: string, path: string, body?: unknown) => (await requirementsFor(method, path, body)).accepts[0]!.amount;
    expect(await amount('POST', '/v1/crawl', { url: site.url })).toBe('50000');
    expect(await amount('GET', '/v1/crawl/00000000-0000-0000-0000-000000000000')).toBe('1000');
    expect(await amount('DELETE', '/v1/crawl/00000000-0000-0000-0000-000000000000')).toBe('10000');
    expect(await amount('DELETE', '/v1/crawl/00000000-0000-0000-0000-000000000000/cancel')).toBe('10000');
    expect(await amount('POST', '/v1/map', { url: site.url })).toBe('10000');
    expect(await amount('POST', '/v1/batch/scrape', { urls: [site.url, `${site.url}/a`] })).toBe('30000');
    expect(await amount('GET', '/v1/batch/scrape/00000000-0000-0000-0000-000000000000')).toBe('1000');
    expect(await amount('GET', '/v1/crawl/00000000-0000-0000-0000-000000000000/errors')).toBe('1000');
    expect(await amount('DELETE', '/v1/batch/scrape/00000000-0000-0000-0000-000000000000')).toBe('10000');
    // v2 is priced as v1: the same operations.
    expect(await amount('POST', '/v2/scrape', { url: site.url })).toBe(await amount('POST', '/v1/scrape', { url: site.url }));
    expect(await amount('POST', '/v2/crawl', { url: site.url })).toBe('50000');
    expect(await amount('POST', '/v2/map', { url: site.url })).toBe('10000');
    expect(await amount('POST', '/v2/batch/scrape', { urls: [site.url, `${site.url}/a`] })).toBe('30000');
    expect(await amount('GET', '/v2/crawl/00000000-0000-0000-0000-000000000000')).toBe('1000');
    expect(await amount('DELETE', '/v2/batch/scrape/00000000-0000-0000-0000-000000000000')).toBe('10000');
    // A search is a scrape; one that scrapes its results, a scrape plus one per result it may scrape.
    expect(await amount('POST', '/v1/search', { query: 'x', scrapeOptions: { formats: [] } })).toBe('10000');
    expect(await amount('POST', '/v1/search', { query: 'x', scrapeOptions: { formats: ['markdown'] } })).toBe('60000');
    expect(await amount('POST', '/v2/search', { query: 'x', limit: 4, scrapeOptions: {} })).toBe('50000');
    expect((await requirementsFor('POST', '/v2/search', { query: 'x', limit: 4, scrapeOptions: {} })).resource.description).toBe('Scrape one page, ×5');
  });

  it('keeps the operational endpoints free and exposes the payment headers to browsers', async () => {
    for (const path of ['/health', '/api-reference']) expect((await fetch(stack.api.url + path)).status).toBe(200);
    const res = await fetch(stack.api.url + '/v1/scrape', { method: 'POST', headers: { origin: 'http://allowed.example', ...json({}).headers }, body: '{}' });
    expect(res.status).toBe(402);
    expect(res.headers.get('access-control-expose-headers')?.split(',')).toEqual(expect.arrayContaining(['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE']));
    const preflight = await fetch(stack.api.url + '/v1/scrape', { method: 'OPTIONS', headers: { origin: 'http://allowed.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'payment-signature,content-type' } });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('payment-signature');
  });

  it('never asks API-key callers to pay', async () => {
    const scrape = await stack.post('/v1/scrape', { url: site.url });
    expect(scrape.status).toBe(200);
    expect((await stack.get('/v1/crawl/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    const bad = await fetch(stack.api.url + '/v1/map', { method: 'POST', headers: { authorization: 'Bearer pw_nottherightkeynottherightkey00', 'content-type': 'application/json' }, body: JSON.stringify({ url: site.url }) });
    expect(bad.status).toBe(401);
    expect(facilitator.transfers).toHaveLength(0);
  });
});

describe('x402: paying', () => {
  it('serves a paid scrape and settles it, with the PAYMENT-RESPONSE header', async () => {
    const account = wallet();
    const hits = site.hitsFor('/article').length;
    const res = await payingFetch(account)(stack.api.url + '/v1/scrape', { method: 'POST', ...json({ url: `${site.url}/article`, formats: ['markdown'] }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { markdown: string } };
    expect(body.success).toBe(true);
    expect(body.data.markdown).toContain('# ');
    expect(site.hitsFor('/article')).toHaveLength(hits + 1);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532', payer: account.address });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(facilitator.balanceOf(account.address)).toBe(990_000n);
    expect(facilitator.transfers.at(-1)).toMatchObject({ from: account.address, to: payTo, value: 10_000n, transaction: settlement.transaction });
    const [row] = await payments(account.address);
    expect(row).toMatchObject({ operation: 'scrape', status: 'settled', amount: '10000', transaction: settlement.transaction });
  });

  it.each<[string, (account: PrivateKeyAccount) => Tamper, RegExp]>([
    ['a wrong amount', () => ({ value: '9999' }), /invalid_exact_evm_authorization_value|value/i],
    ['a wrong recipient', () => ({ to: getAddress(toHex(randomBytes(20))) }), /recipient/i],
    ['an expired authorization', () => ({ validBefore: String(Math.floor(Date.now() / 1000) - 10) }), /valid_before|expired/i],
    ['a tampered signature', () => ({ signature: (s) => `${s.slice(0, 10)}${s[10] === 'a' ? 'b' : 'a'}${s.slice(11)}` as `0x${string}` }), /signature/i],
  ])('refuses %s with 402 and does no work', async (_name, tamper, reason) => {
    const account = wallet();
    const required = await requirementsFor('POST', '/v1/scrape', { url: site.url });
    const hits = site.hits.length;
    const { res, body } = await paidWith(await signedHeader(account, required, tamper(account)), 'POST', '/v1/scrape', { url: `${site.url}/article` });
    expect(res.status).toBe(402);
    expect(body.code).toBe('payment_invalid');
    expect(body.error).toMatch(reason);
    expect(res.headers.get('payment-required')).toBeTruthy();
    expect(site.hits.length).toBe(hits);
    expect(facilitator.balanceOf(account.address)).toBe(1_000_000n);
    expect(await payments(account.address)).toEqual([]);
  });

  it('refuses a payment that does not match the requirements (a lower amount in `accepted`) before asking the facilitator', async () => {
    const account = wallet();
    const required = await requirementsFor('POST', '/v1/scrape', { url: site.url });
    const verifies = facilitator.calls.verify;
    const { res, body } = await paidWith(await signedHeader(account, required, { value: '1', accepted: { amount: '1' } }), 'POST', '/v1/scrape', { url: site.url });
    expect(res.status).toBe(402);
    expect(body).toMatchObject({ code: 'payment_invalid', error: expect.stringContaining('does not match') });
    expect(facilitator.calls.verify).toBe(verifies);
  });

  it('refuses a replayed payment, even when the facilitator would accept it again', async () => {
    const account = wallet();
    facilitator.mode.forgetNonces = true;
    const header = await signedHeader(account, await requirementsFor('POST', '/v1/scrape', { url: site.url }));
    const first = await paidWith(header, 'POST', '/v1/scrape', { url: `${site.url}/article` });
    expect(first.res.status).toBe(200);
    const hits = site.hits.length;
    const replay = await paidWith(header, 'POST', '/v1/scrape', { url: `${site.url}/article` });
    expect(replay.res.status).toBe(402);
    expect(replay.body).toMatchObject({ code: 'payment_invalid', error: expect.stringContaining('already used') });
    expect(site.hits.length).toBe(hits);
    expect(facilitator.balanceOf(account.address)).toBe(990_000n);
    expect((await payments(account.address)).map((p) => p.status)).toEqual(['settled']);
  });

  it('serves only one of two simultaneous requests carrying the same payment', async () => {
    const account = wallet();
    facilitator.mode.forgetNonces = true;
    const header = await signedHeader(account, await requirementsFor('POST', '/v1/scrape', { url: site.url }));
    const results = await Promise.all([1, 2].map(() => paidWith(header, 'POST', '/v1/scrape', { url: `${site.url}/article` })));
    expect(results.map((r) => r.res.status).sort()).toEqual([200, 402]);
    expect(facilitator.balanceOf(account.address)).toBe(990_000n);
  });

  it('does not charge a request that fails, and its authorization cannot be used again', async () => {
    const account = wallet();
    const header = await signedHeader(account, await requirementsFor('POST', '/v1/scrape', { url: site.url }));
    const invalid = await paidWith(header, 'POST', '/v1/scrape', { url: site.url, formats: ['nope'] });
    expect(invalid.res.status).toBe(400);
    expect(invalid.res.headers.get('payment-response')).toBeNull();
    expect((await payments(account.address)).map((p) => [p.status, p.error])).toEqual([['not_charged', '400 invalid_request']]);
    const again = await paidWith(header, 'POST', '/v1/scrape', { url: site.url });
    expect(again.res.status).toBe(402);
    expect(facilitator.balanceOf(account.address)).toBe(1_000_000n);
  });

  it('withholds the result and charges nothing when settlement fails', async () => {
    const account = wallet();
    facilitator.mode.failSettle = true;
    const res = await payingFetch(account)(stack.api.url + '/v1/scrape', { method: 'POST', ...json({ url: `${site.url}/article` }) });
    expect(res.status).toBe(402);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, code: 'payment_settlement_failed' });
    expect(body.data).toBeUndefined();
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: false, errorReason: expect.any(String) });
    expect(facilitator.balanceOf(account.address)).toBe(1_000_000n);
    expect((await payments(account.address)).map((p) => p.status)).toEqual(['settle_failed']);
  });

  it('withholds the result when settlement is not confirmed in time, and records it for reconciliation', async () => {
    const account = wallet();
    facilitator.mode.settleDelayMs = FACILITATOR_TIMEOUT_MS + 500;
    const res = await payingFetch(account)(stack.api.url + '/v1/scrape', { method: 'POST', ...json({ url: `${site.url}/article` }) });
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'payment_facilitator_unavailable', error: expect.stringContaining('the result is withheld') });
    expect(body.data).toBeUndefined();
    const [row] = await payments(account.address);
    expect(row).toMatchObject({ status: 'settle_failed', error: expect.stringContaining('did not answer the settle request within 1500 ms') });
  });

  it('answers 503 and does no work when the facilitator is slower than X402_FACILITATOR_TIMEOUT_MS', async () => {
    const account = wallet();
    const header = await signedHeader(account, await requirementsFor('POST', '/v1/scrape', { url: site.url }));
    facilitator.mode.delayMs = FACILITATOR_TIMEOUT_MS + 1000;
    const hits = site.hits.length;
    const started = Date.now();
    const { res, body } = await paidWith(header, 'POST', '/v1/scrape', { url: `${site.url}/article` });
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ code: 'payment_facilitator_unavailable', error: expect.stringContaining(`within ${FACILITATOR_TIMEOUT_MS} ms`) });
    expect(Date.now() - started).toBeLessThan(FACILITATOR_TIMEOUT_MS + 1000);
    expect(site.hits.length).toBe(hits);
    expect(await payments(account.address)).toEqual([]);
  });

  it('answers 503 and does no work when the facilitator is down', async () => {
    const own = await startTestFacilitator();
    const api = await startTestApi({ env: { ...x402Env(own), ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: 'x402-nothing-runs-here' } });
    try {
      const { res: first } = await unpaidAt(api.url, '/v1/scrape', { url: site.url });
      const required = decodePaymentRequiredHeader(first.headers.get('payment-required')!);
      await own.stop();
      const account = wallet();
      const res = await fetch(api.url + '/v1/scrape', { method: 'POST', headers: { 'payment-signature': await signedHeader(account, required), 'content-type': 'application/json' }, body: JSON.stringify({ url: site.url }) });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'payment_facilitator_unavailable', error: expect.stringContaining('cannot be reached') });
      expect(await api.deps.prisma.x402Payment.count({ where: { payer: account.address.toLowerCase() } })).toBe(0);
    } finally {
      await api.close();
    }
  });

  it('answers 502 and does no work when the facilitator rejects our credentials or answers outside the protocol', async () => {
    const own = await startTestFacilitator();
    const wrongToken = await startTestApi({ env: { ...x402Env(own), X402_FACILITATOR_BEARER_TOKEN: 'not-the-token', TEMPORAL_TASK_QUEUE: 'x402-nothing-runs-here' } });
    // Serves the real /supported (so the 402 can be built) but answers /verify with an HTML error page.
    const broken = await startFixtureServer({
      '/supported': async (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(await (await fetch(`${own.url}/supported`, { headers: { authorization: `Bearer ${own.token}` } })).text()),
      '/verify': (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>'),
    });
    const brokenApi = await startTestApi({ env: { ...x402Env(own), X402_FACILITATOR_URL: broken.url, TEMPORAL_TASK_QUEUE: 'x402-nothing-runs-here' } });
    try {
      const refused = await unpaidAt(wrongToken.url, '/v1/scrape', { url: site.url });
      expect(refused.res.status).toBe(502);
      expect(refused.body).toMatchObject({ code: 'payment_facilitator_error', error: expect.stringContaining('401') });
      const { res: first } = await unpaidAt(brokenApi.url, '/v1/scrape', { url: site.url });
      expect(first.status).toBe(402);
      const account = wallet();
      const header = await signedHeader(account, decodePaymentRequiredHeader(first.headers.get('payment-required')!));
      const res = await fetch(brokenApi.url + '/v1/scrape', { method: 'POST', headers: { 'payment-signature': header, 'content-type': 'application/json' }, body: JSON.stringify({ url: site.url }) });
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ code: 'payment_facilitator_error', error: expect.stringContaining('(500)') });
      expect(await brokenApi.deps.prisma.x402Payment.count({ where: { payer: account.address.toLowerCase() } })).toBe(0);
    } finally {
      await Promise.allSettled([wrongToken.close(), brokenApi.close(), broken.close(), own.stop()]);
    }
  });

  it('counts paid requests per paying address for rate limits', async () => {
    const [a, b] = [wallet(), wallet()];
    const map = (account: PrivateKeyAccount) => payingFetch(account)(stack.api.url + '/v1/map', { method: 'POST', ...json({ url: site.url }) });
    expect((await map(a)).status).toBe(200);
    expect((await map(a)).status).toBe(200);
    const third = await map(a);
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('per paying address') });
    expect(facilitator.balanceOf(a.address)).toBe(980_000n);
    expect((await map(b)).status).toBe(200);
  });
});

async function unpaidAt(base: string, path: string, body: unknown) {
  const res = await fetch(base + path, { method: 'POST', ...json(body) });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

/** The crawl row once it is no longer scraping (read from PostgreSQL: polling through the API would cost). */
async function crawlEnded(id: string) {
  const prisma = stack.api.deps.prisma;
  for (let i = 0; i < 240 && (await prisma.job.findUniqueOrThrow({ where: { id } })).status === 'scraping'; i++) await new Promise((r) => setTimeout(r, 250));
  return prisma.job.findUniqueOrThrow({ where: { id } });
}

describe('x402: crawls', () => {
  it('settles a paid crawl before it starts, runs it once, and lets only the payer read it', async () => {
    const account = wallet();
    const pay = payingFetch(account);
    const res = await pay(stack.api.url + '/v1/crawl', { method: 'POST', ...json({ url: crawlSite.url }) });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: true });
    expect(facilitator.balanceOf(account.address)).toBe(950_000n);
    const prisma = stack.api.deps.prisma;
    const row = await crawlEnded(id);
    expect(row).toMatchObject({ status: 'completed', payer: account.address.toLowerCase(), apiKeyId: null, completed: 3 });
    for (const path of ['/', '/one', '/two']) expect(crawlSite.pageHits(path)).toBe(1);

    const status = await pay(`${stack.api.url}/v1/crawl/${id}`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ status: 'completed', completed: 3 });
    expect(facilitator.balanceOf(account.address)).toBe(949_000n);
    const stranger = wallet();
    expect((await payingFetch(stranger)(`${stack.api.url}/v1/crawl/${id}`)).status).toBe(404);
    expect(facilitator.balanceOf(stranger.address)).toBe(1_000_000n);
    expect((await stack.get(`/v1/crawl/${id}`)).status).toBe(404);
    expect(await prisma.job.count({ where: { payer: account.address.toLowerCase() } })).toBe(1);
  });

  it('starts a crawl once for one payment: its replay is refused', async () => {
    const account = wallet();
    facilitator.mode.forgetNonces = true;
    const header = await signedHeader(account, await requirementsFor('POST', '/v1/crawl', { url: crawlSite.url }));
    const first = await paidWith(header, 'POST', '/v1/crawl', { url: crawlSite.url, limit: 1 });
    expect(first.res.status).toBe(200);
    expect(await crawlEnded(first.body.id as string)).toMatchObject({ status: 'completed', completed: 1 });
    const replay = await paidWith(header, 'POST', '/v1/crawl', { url: crawlSite.url, limit: 1 });
    expect(replay.res.status).toBe(402);
    expect(replay.body).toMatchObject({ code: 'payment_invalid', error: expect.stringContaining('already used') });
    expect(await stack.api.deps.prisma.job.count({ where: { payer: account.address.toLowerCase() } })).toBe(1);
    expect(facilitator.balanceOf(account.address)).toBe(950_000n);
  });

  it('does not start a crawl whose payment cannot be settled', async () => {
    const account = wallet();
    facilitator.mode.failSettle = true;
    const hits = crawlSite.hits.length;
    const res = await payingFetch(account)(stack.api.url + '/v1/crawl', { method: 'POST', ...json({ url: crawlSite.url }) });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'payment_settlement_failed' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(crawlSite.hits.length).toBe(hits);
    expect(await stack.api.deps.prisma.job.count({ where: { payer: account.address.toLowerCase() } })).toBe(0);
    expect((await payments(account.address)).map((p) => p.status)).toEqual(['settle_failed']);
  });
});

describe('x402: the reference', () => {
  it('documents the payment on exactly the protected operations, and the 402 body matches it', async () => {
    const doc = (await (await fetch(`${stack.api.url}/api-reference`)).json()) as { paths: Record<string, Record<string, { security: object[]; responses: Record<string, unknown> }>> };
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    const paid = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const))
      .filter(([, op]) => op.security.some((s) => 'x402' in s));
    expect(paid.map(([name]) => name).sort()).toEqual([
      'DELETE /v1/batch/scrape/{id}',
      'DELETE /v1/batch/scrape/{id}/errors',
      'DELETE /v1/crawl/{id}',
      'DELETE /v1/crawl/{id}/cancel',
      'DELETE /v1/crawl/{id}/errors',
      'GET /v1/batch/scrape/{id}',
      'GET /v1/batch/scrape/{id}/errors',
      'GET /v1/crawl/{id}',
      'GET /v1/crawl/{id}/errors',
      'POST /v1/batch/scrape',
      'POST /v1/crawl',
      'POST /v1/map',
      'POST /v1/scrape',
      'DELETE /v2/batch/scrape/{id}',
      'DELETE /v2/crawl/{id}',
      'GET /v2/batch/scrape/{id}',
      'GET /v2/batch/scrape/{id}/errors',
      'GET /v2/crawl/active',
      'GET /v2/crawl/{id}',
      'GET /v2/crawl/{id}/errors',
      'POST /v2/batch/scrape',
      'POST /v2/crawl',
      'POST /v2/map',
      'POST /v2/scrape',
      'POST /v1/search',
      'POST /v2/search',
      'POST /v1/extract',
      'GET /v1/extract/{id}',
      'POST /v2/extract',
      'GET /v2/extract/{id}',
      'POST /v2/crawl/params-preview',
      'POST /v1/llmstxt',
      'GET /v1/llmstxt/{id}',
    ].sort());
    for (const [, op] of paid) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '402', '502', '503']));
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ ...doc, $id: 'openapi' } as never);
    const validate = ajv.getSchema('openapi#/components/schemas/PaymentError')!;
    const { body } = await unpaid('POST', '/v1/map', { url: site.url });
    expect(validate(body)).toBe(true);
  });
});
