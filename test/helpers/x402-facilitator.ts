/**
 * A local x402 facilitator for end-to-end tests.
 *
 * Real:
 * - The HTTP protocol that `HTTPFacilitatorClient` (@x402/core/server) speaks: POST /verify and
 *   POST /settle with `{ x402Version, paymentPayload, paymentRequirements }`, GET /supported with
 *   `{ kinds, extensions, signers }`, answered 200 with the library's VerifyResponse /
 *   SettleResponse even when invalid / unsuccessful; bearer-token auth.
 * - All verification and settlement logic: an `x402Facilitator` (@x402/core) with the EVM exact
 *   scheme (@x402/evm) registered, so EIP-712 signature recovery, recipient, amount, expiry,
 *   simulation and error mapping are the library's own.
 *
 * Fake:
 * - The chain. The `FacilitatorEvmSigner` handed to the library is backed by an in-memory ledger
 *   that behaves like USDC (FiatTokenV2) with EIP-3009 `transferWithAuthorization`: it recovers the
 *   signer over the TransferWithAuthorization typed data itself, checks the validity window, the
 *   nonce and the balance, and reverts with USDC's messages. Multicall3 `tryAggregate` (used by the
 *   library to diagnose a failed simulation) is emulated for calls to the token. Receipts carry no
 *   logs; the library skips its Transfer-event check when `logs` is absent.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { eip3009ABI, getDefaultAsset } from '@x402/evm';
import type { FacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import {
  decodeFunctionData,
  encodeFunctionResult,
  getAddress,
  isAddressEqual,
  recoverTypedDataAddress,
  verifyTypedData,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

export interface FacilitatorMode {
  /** Delay before answering every request (verify, settle, supported), ms. */
  delayMs: number;
  /** Extra delay before answering POST /settle only, ms (a settlement slower than the API waits). */
  settleDelayMs: number;
  /** Settlement (the on-chain transfer) fails: writeContract throws a revert-like error. */
  failSettle: boolean;
  /** The fake chain forgets used nonces, so a replayed authorization would verify and settle again (to prove the API's own replay protection). */
  forgetNonces: boolean;
}

export interface TestFacilitator {
  /** e.g. http://127.0.0.1:45678 ; endpoints POST /verify, POST /settle, GET /supported */
  url: string;
  /** Bearer token; every endpoint answers 401 JSON without `Authorization: Bearer <token>`. */
  token: string;
  network: 'eip155:84532';
  /** The library's default asset for eip155:84532 (USDC on Base Sepolia). */
  asset: `0x${string}`;
  /** Mutable by tests. */
  mode: FacilitatorMode;
  calls: { verify: number; settle: number; supported: number };
  /** Successful on-chain transfers, in order. */
  transfers: Array<{ from: string; to: string; value: bigint; nonce: string; transaction: string }>;
  /** Credit atomic units (6 decimals) to an address. */
  fund(address: string, amount: bigint): void;
  balanceOf(address: string): bigint;
  /** Close the server (connections too). */
  stop(): Promise<void>;
}

const NETWORK = 'eip155:84532' as const;
const CHAIN_ID = 84532;
// Multicall3 is deployed at this address on every EVM chain; the library calls tryAggregate on it.
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';

// EIP-3009 struct, as USDC defines it (kept here rather than taken from the library so the fake
// contract checks signatures independently of the code that produced them).
const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

type ReadArgs = { address: `0x${string}`; abi: readonly unknown[]; functionName: string; args?: readonly unknown[] };

/** In-memory USDC-like token: balances, used EIP-3009 nonces, mined transactions. */
class FakeChain {
  readonly balances = new Map<string, bigint>();
  readonly usedNonces = new Set<string>();
  readonly minedTxs = new Set<string>();
  readonly transfers: TestFacilitator['transfers'] = [];

  constructor(
    readonly asset: `0x${string}`,
    readonly tokenName: string,
    readonly tokenVersion: string,
    readonly mode: FacilitatorMode,
  ) {}

  balanceOf(address: string): bigint {
    return this.balances.get(getAddress(address)) ?? 0n;
  }

  isUsed(from: string, nonce: string): boolean {
    return this.usedNonces.has(`${getAddress(from)}:${nonce.toLowerCase()}`);
  }

  /** The checks FiatTokenV2 makes in transferWithAuthorization, in its order; throws like a revert. */
  async checkTransfer(args: readonly unknown[]): Promise<{ from: `0x${string}`; to: `0x${string}`; value: bigint; nonce: Hex }> {
    const [fromRaw, toRaw, valueRaw, validAfterRaw, validBeforeRaw, nonceRaw, ...sig] = args;
    const from = getAddress(String(fromRaw));
    const to = getAddress(String(toRaw));
    const value = BigInt(valueRaw as bigint);
    const validAfter = BigInt(validAfterRaw as bigint);
    const validBefore = BigInt(validBeforeRaw as bigint);
    const nonce = nonceRaw as Hex;
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (now <= validAfter) throw new Error('execution reverted: FiatTokenV2: authorization is not yet valid');
    if (now >= validBefore) throw new Error('execution reverted: FiatTokenV2: authorization is expired');
    if (this.isUsed(from, nonce)) throw new Error('execution reverted: FiatTokenV2: authorization is used or canceled');

    // Either (v, r, s) or one `bytes signature` (the overload taking bytes).
    let signature: Hex | { r: Hex; s: Hex; v: bigint };
    if (sig.length === 3) {
      let v = BigInt(sig[0] as number | bigint);
      if (v < 27n) v += 27n; // a yParity (0/1) was passed
      signature = { r: sig[1] as Hex, s: sig[2] as Hex, v };
    } else {
      signature = sig[0] as Hex;
    }
    let signer: `0x${string}` | undefined;
    try {
      signer = await recoverTypedDataAddress({
        domain: { name: this.tokenName, version: this.tokenVersion, chainId: CHAIN_ID, verifyingContract: this.asset },
        types: TRANSFER_WITH_AUTHORIZATION_TYPES,
        primaryType: 'TransferWithAuthorization',
        message: { from, to, value, validAfter, validBefore, nonce },
        signature,
      });
    } catch {
      signer = undefined; // malformed signature: ecrecover yields nothing useful
    }
    if (!signer || !isAddressEqual(signer, from)) throw new Error('execution reverted: FiatTokenV2: invalid signature');

    if (to === '0x0000000000000000000000000000000000000000') throw new Error('execution reverted: ERC20: transfer to the zero address');
    if (this.balanceOf(from) < value) throw new Error('execution reverted: ERC20: transfer amount exceeds balance');
    return { from, to, value, nonce };
  }

  /** A view call (or simulated write) against the token contract; returns the decoded result. */
  async callToken(functionName: string, args: readonly unknown[]): Promise<unknown> {
    switch (functionName) {
      case 'balanceOf':
        return this.balanceOf(String(args[0]));
      case 'name':
        return this.tokenName;
      case 'version':
        return this.tokenVersion;
      case 'authorizationState':
        return this.isUsed(String(args[0]), String(args[1]));
      case 'transferWithAuthorization':
        await this.checkTransfer(args);
        return undefined;
      default:
        throw new Error(`execution reverted: unknown function ${functionName}`);
    }
  }

  /** Multicall3.tryAggregate(false, calls): raw calldata in, ABI-encoded return data out. */
  async tryAggregate(calls: ReadonlyArray<{ target: `0x${string}`; callData: Hex }>): Promise<Array<{ success: boolean; returnData: Hex }>> {
    const results: Array<{ success: boolean; returnData: Hex }> = [];
    for (const call of calls) {
      if (!isAddressEqual(call.target, this.asset)) {
        results.push({ success: false, returnData: '0x' }); // no other contracts exist here
        continue;
      }
      try {
        const { functionName, args } = decodeFunctionData({ abi: eip3009ABI, data: call.callData });
        const result = await this.callToken(functionName, args ?? []);
        const returnData =
          functionName === 'transferWithAuthorization'
            ? '0x'
            : encodeFunctionResult({ abi: eip3009ABI, functionName, result } as Parameters<typeof encodeFunctionResult>[0]);
        results.push({ success: true, returnData });
      } catch {
        results.push({ success: false, returnData: '0x' });
      }
    }
    return results;
  }

  signer(facilitatorAddress: `0x${string}`): FacilitatorEvmSigner {
    return {
      getAddresses: () => [facilitatorAddress],
      getCode: async ({ address }) => (isAddressEqual(address, this.asset) ? '0x6080604052' : '0x'),
      verifyTypedData: (args) => verifyTypedData(args as Parameters<typeof verifyTypedData>[0]),
      readContract: async ({ address, functionName, args = [] }: ReadArgs) => {
        if (isAddressEqual(address, MULTICALL3) && functionName === 'tryAggregate') {
          return this.tryAggregate(args[1] as Array<{ target: `0x${string}`; callData: Hex }>);
        }
        if (isAddressEqual(address, this.asset)) return this.callToken(functionName, args);
        throw new Error(`execution reverted: no contract at ${address}`);
      },
      writeContract: async ({ address, functionName, args }) => {
        if (!isAddressEqual(address, this.asset) || functionName !== 'transferWithAuthorization') {
          throw new Error(`execution reverted: unsupported call ${functionName} on ${address}`);
        }
        if (this.mode.failSettle) throw new Error('execution reverted: test facilitator: settlement forced to fail');
        const { from, to, value, nonce } = await this.checkTransfer(args);
        this.balances.set(from, this.balanceOf(from) - value);
        this.balances.set(to, this.balanceOf(to) + value);
        if (!this.mode.forgetNonces) this.usedNonces.add(`${from}:${nonce.toLowerCase()}`);
        const transaction = `0x${randomBytes(32).toString('hex')}` as const;
        this.minedTxs.add(transaction);
        this.transfers.push({ from, to, value, nonce, transaction });
        return transaction;
      },
      sendTransaction: async () => {
        throw new Error('sendTransaction is not supported by the test facilitator');
      },
      waitForTransactionReceipt: async ({ hash }) => {
        if (!this.minedTxs.has(hash)) throw new Error(`transaction receipt not found: ${hash}`);
        return { status: 'success' }; // no logs: the library then skips its Transfer-event check
      },
    };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function startTestFacilitator(options: { token?: string } = {}): Promise<TestFacilitator> {
  const token = options.token ?? randomBytes(16).toString('hex');
  const defaultAsset = getDefaultAsset(NETWORK); // { asset, name: 'USDC', version: '2', decimals: 6 }
  const asset = getAddress(defaultAsset.asset);
  const mode: FacilitatorMode = { delayMs: 0, settleDelayMs: 0, failSettle: false, forgetNonces: false };
  const calls = { verify: 0, settle: 0, supported: 0 };
  const chain = new FakeChain(asset, defaultAsset.name, defaultAsset.version, mode);

  const facilitatorAccount = privateKeyToAccount(generatePrivateKey());
  const facilitator = new x402Facilitator();
  // Only the v2 kind for Base Sepolia (registerExactEvmScheme would also add every v1 network).
  facilitator.register(NETWORK, new ExactEvmScheme(chain.signer(facilitatorAccount.address)));

  // Pending delays, so stop() does not wait on (or get kept alive by) them.
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = `${req.method} ${path}`;
    if (!['POST /verify', 'POST /settle', 'GET /supported'].includes(route)) {
      sendJson(res, 404, { error: `not found: ${route}` });
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      sendJson(res, 401, { error: 'unauthorized' });
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : '';
    // The request is still processed after the delay even if the client has given up, as a real
    // facilitator would (a timed-out settle is an indeterminate outcome).
    if (mode.delayMs > 0) await sleep(mode.delayMs);
    if (route === 'POST /settle' && mode.settleDelayMs > 0) await sleep(mode.settleDelayMs);

    if (route === 'GET /supported') {
      calls.supported++;
      sendJson(res, 200, facilitator.getSupported());
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      sendJson(res, 400, { error: 'invalid JSON body' });
      return;
    }
    if (!isObject(parsed) || !isObject(parsed.paymentPayload) || !isObject(parsed.paymentRequirements)) {
      sendJson(res, 400, { error: 'body must be { x402Version, paymentPayload, paymentRequirements }' });
      return;
    }
    const payload = parsed.paymentPayload as unknown as PaymentPayload;
    const requirements = parsed.paymentRequirements as unknown as PaymentRequirements;
    if (route === 'POST /verify') {
      calls.verify++;
      sendJson(res, 200, await facilitator.verify(payload, requirements));
    } else {
      calls.settle++;
      sendJson(res, 200, await facilitator.settle(payload, requirements));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The library throws for what it cannot route (unknown scheme/network, malformed payload).
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    network: NETWORK,
    asset,
    mode,
    calls,
    transfers: chain.transfers,
    fund(address, amount) {
      chain.balances.set(getAddress(address), chain.balanceOf(address) + amount);
    },
    balanceOf: (address) => chain.balanceOf(address),
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
