/** The local x402 facilitator, driven only by the x402 libraries' own clients (no API server). */
import { x402Client } from '@x402/core/client';
import { FacilitatorTimeoutError, HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { registerExactEvmScheme } from '@x402/evm/exact/server';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestFacilitator, type TestFacilitator } from './helpers/x402-facilitator.js';

function facilitatorClient(f: TestFacilitator, token = f.token, timeoutMs?: number): HTTPFacilitatorClient {
  const auth = { Authorization: `Bearer ${token}` };
  return new HTTPFacilitatorClient({
    url: f.url,
    timeoutMs,
    createAuthHeaders: async () => ({ verify: auth, settle: auth, supported: auth }),
  });
}

describe('test x402 facilitator', () => {
  let f: TestFacilitator;
  let client: HTTPFacilitatorClient;
  let resourceServer: x402ResourceServer;
  let requirements: PaymentRequirements;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;

  beforeAll(async () => {
    f = await startTestFacilitator();
    client = facilitatorClient(f);
    resourceServer = new x402ResourceServer(client);
    registerExactEvmScheme(resourceServer, { networks: [f.network] });
    await resourceServer.initialize(); // GET /supported
    [requirements] = await resourceServer.buildPaymentRequirements({
      scheme: 'exact',
      payTo,
      price: '$0.01',
      network: f.network,
      maxTimeoutSeconds: 60,
    });
  });
  afterAll(async () => {
    await f?.stop();
  });
  afterEach(() => {
    Object.assign(f.mode, { delayMs: 0, failSettle: false, forgetNonces: false });
  });

  /** A throwaway payer (funded with `funds`) signs a payment for `requirements` through x402Client. */
  async function pay(funds: bigint): Promise<{ payer: `0x${string}`; payload: PaymentPayload }> {
    const account = privateKeyToAccount(generatePrivateKey());
    if (funds > 0n) f.fund(account.address, funds);
    const payerClient = new x402Client().register(f.network, new ExactEvmClientScheme(account));
    const paymentRequired = await resourceServer.createPaymentRequiredResponse([requirements], { url: 'http://resource.test/page' });
    return { payer: account.address, payload: await payerClient.createPaymentPayload(paymentRequired) };
  }

  it('advertises the exact scheme on Base Sepolia with the library default asset', async () => {
    expect(f.calls.supported).toBe(1);
    const supported = await client.getSupported();
    expect(supported.kinds).toEqual([{ x402Version: 2, scheme: 'exact', network: 'eip155:84532' }]);
    expect(supported.signers['eip155:*']).toHaveLength(1);
    expect(requirements.asset).toBe(f.asset);
    expect(requirements.amount).toBe('10000');
    expect(requirements.extra).toMatchObject({ name: 'USDC', version: '2' });
  });

  it('verifies and settles a funded payment, then refuses to settle it again', async () => {
    const { payer, payload } = await pay(1_000_000n);
    const payeeBefore = f.balanceOf(payTo);

    const verified = await client.verify(payload, requirements);
    expect(verified).toEqual({ isValid: true, payer });

    const settled = await client.settle(payload, requirements);
    expect(settled.success).toBe(true);
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settled.network).toBe('eip155:84532');
    expect(settled.payer).toBe(payer);
    expect(f.balanceOf(payer)).toBe(990_000n);
    expect(f.balanceOf(payTo) - payeeBefore).toBe(10_000n);
    expect(f.transfers).toHaveLength(1);
    expect(f.transfers[0]).toMatchObject({ from: payer, to: payTo, value: 10_000n, transaction: settled.transaction });

    const replay = await client.settle(payload, requirements);
    expect(replay).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_nonce_already_used', transaction: '' });
    const reverify = await client.verify(payload, requirements);
    expect(reverify).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_nonce_already_used' });
    expect(f.balanceOf(payer)).toBe(990_000n);
    expect(f.transfers).toHaveLength(1);
  });

  it('rejects a tampered signature', async () => {
    const { payload } = await pay(1_000_000n);
    const inner = payload.payload as { signature: string };
    // Change one hex digit of r.
    const flipped = inner.signature[10] === 'a' ? 'b' : 'a';
    const tampered = { ...payload, payload: { ...inner, signature: inner.signature.slice(0, 10) + flipped + inner.signature.slice(11) } };
    const verified = await client.verify(tampered, requirements);
    expect(verified).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_signature' });
    const settled = await client.settle(tampered, requirements);
    expect(settled).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_signature' });
  });

  it('rejects an unfunded payer', async () => {
    const { payer, payload } = await pay(0n);
    const verified = await client.verify(payload, requirements);
    expect(verified).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance', payer });
    expect(verified.invalidMessage).toContain('ERC20: transfer amount exceeds balance');
  });

  it('answers 401 to a wrong bearer token and 400 to an unparseable body', async () => {
    const { payload } = await pay(1_000_000n);
    const verifyCalls = f.calls.verify;
    await expect(facilitatorClient(f, 'wrong').verify(payload, requirements)).rejects.toThrow(/\(401\)/);
    await expect(facilitatorClient(f, 'wrong').getSupported()).rejects.toThrow(/\(401\)/);
    expect(f.calls.verify).toBe(verifyCalls);

    const res = await fetch(`${f.url}/verify`, { method: 'POST', headers: { Authorization: `Bearer ${f.token}` }, body: '{nope' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid JSON body' });
  });

  it('reports a failed settlement when the chain reverts', async () => {
    const { payer, payload } = await pay(1_000_000n);
    expect((await client.verify(payload, requirements)).isValid).toBe(true);
    f.mode.failSettle = true;
    const transfers = f.transfers.length;
    const settled = await client.settle(payload, requirements);
    expect(settled).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_transaction_failed', transaction: '' });
    expect(settled.errorMessage).toContain('execution reverted');
    expect(f.balanceOf(payer)).toBe(1_000_000n);
    expect(f.transfers).toHaveLength(transfers);
  });

  it('settles a replay twice when the chain forgets nonces', async () => {
    f.mode.forgetNonces = true;
    const { payer, payload } = await pay(1_000_000n);
    expect((await client.settle(payload, requirements)).success).toBe(true);
    expect((await client.settle(payload, requirements)).success).toBe(true);
    expect(f.balanceOf(payer)).toBe(980_000n);
  });

  it('times out a client whose timeoutMs is below the delay', async () => {
    const { payload } = await pay(1_000_000n);
    f.mode.delayMs = 500;
    const impatient = facilitatorClient(f, f.token, 100);
    await expect(impatient.verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorTimeoutError);
  });
});
