/**
 * The API's side of x402 (protocol version 2), on the official packages: an `x402ResourceServer`
 * with the exact EVM scheme, talking to the configured facilitator through `HTTPFacilitatorClient`.
 * This module speaks the protocol (requirements, headers, verify, settle) and turns facilitator
 * trouble into our errors; api/x402/payment.ts runs one paid request through it.
 *
 * The facilitator's capabilities (`/supported`) are fetched on first use, not at boot, so the API
 * starts while the facilitator is down; until they load, paid requests get 503 and nothing is done.
 */
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { FacilitatorTimeoutError, HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { FacilitatorError, FacilitatorUnavailableError, PaymentRequiredError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { priceOf, type Charge, type PaidOperation, type X402Settings } from '../../core/x402-settings.js';

/** Request header with the client's signed payment, response headers of the 402 and of settlement. */
export const PAYMENT_SIGNATURE = 'PAYMENT-SIGNATURE';
export const PAYMENT_REQUIRED = 'PAYMENT-REQUIRED';
export const PAYMENT_RESPONSE = 'PAYMENT-RESPONSE';

const descriptions: Record<PaidOperation, string> = {
  scrape: 'Scrape one page',
  crawl: 'Start a crawl (the whole crawl)',
  batchScrape: 'Start a batch scrape (the whole batch)',
  crawlStatus: 'Crawl or batch status and one page of documents, or its errors',
  cancel: 'Cancel a crawl or batch scrape',
  map: 'Map a site',
};

/** An EIP-3009 authorization, the payload of the exact EVM scheme for USDC. */
export interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export type PaymentRefusal = ConstructorParameters<typeof PaymentRequiredError>[0];

export interface VerifiedPayment {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  authorization: Authorization;
}

/**
 * Facilitator failures: no answer in time or no connection → 503; an answer outside the protocol → 502.
 * Before settlement nothing was done or charged; a failed settle is indeterminate (it may still land).
 */
function facilitatorFailure(step: 'supported' | 'verify' | 'settle', err: unknown): Error {
  const outcome =
    step === 'settle'
      ? 'the result is withheld. If the payment settles late anyway, the operator can reconcile it (the request is recorded as settle_failed).'
      : 'nothing was done or charged. Try again shortly.';
  if (err instanceof FacilitatorTimeoutError) return new FacilitatorUnavailableError(`The payment facilitator did not answer the ${step} request within ${err.timeoutMs} ms; ${outcome}`);
  const cause = (err as { cause?: { code?: string } }).cause;
  if (err instanceof TypeError || cause?.code) {
    return new FacilitatorUnavailableError(`The payment facilitator cannot be reached (${step}: ${cause?.code ?? (err as Error).message}); ${outcome}`);
  }
  return new FacilitatorError(`The payment facilitator gave an invalid answer to ${step} (${(err as Error).message}); ${outcome}`);
}

function authorizationOf(payload: PaymentPayload): Authorization | undefined {
  const auth = (payload.payload as { authorization?: Partial<Authorization> }).authorization;
  const fields = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
  return auth && fields.every((f) => typeof auth[f] === 'string') ? (auth as Authorization) : undefined;
}

export class X402Gateway {
  private readonly server: x402ResourceServer;
  private ready?: Promise<void>;
  private readonly requirements = new Map<string, PaymentRequirements[]>();

  constructor(
    readonly settings: X402Settings,
    private readonly log: Logger,
  ) {
    const token = settings.facilitatorToken;
    const facilitator = new HTTPFacilitatorClient({
      url: settings.facilitatorUrl,
      timeoutMs: settings.facilitatorTimeoutMs,
      ...(token
        ? {
            createAuthHeaders: async () => {
              const headers = { Authorization: `Bearer ${token}` };
              return { verify: headers, settle: headers, supported: headers };
            },
          }
        : {}),
    });
    this.server = new x402ResourceServer(facilitator).register(settings.network, new ExactEvmScheme());
  }

  /** Fetch the facilitator's capabilities once; a failure is retried on the next paid request. */
  private async initialize(): Promise<void> {
    this.ready ??= this.server.initialize().catch((err: unknown) => {
      this.ready = undefined;
      this.log.warn('x402 facilitator capabilities could not be loaded', { url: this.settings.facilitatorUrl, error: String((err as Error).cause ?? err) });
      throw facilitatorFailure('supported', (err as Error).cause ?? err);
    });
    await this.ready;
  }

  /** What a payment for `charge` must look like: one exact-scheme option in USDC. */
  async requirementsFor(charge: Charge): Promise<PaymentRequirements[]> {
    const key = `${charge.operation}×${charge.units}`;
    const cached = this.requirements.get(key);
    if (cached) return cached;
    await this.initialize();
    const { payTo, network, maxTimeoutSeconds, prices } = this.settings;
    let built: PaymentRequirements[];
    try {
      built = await this.server.buildPaymentRequirements({ scheme: 'exact', payTo, network, price: priceOf(prices, charge), maxTimeoutSeconds });
    } catch (err) {
      // The facilitator does not support our network (or there is no default asset for it): an operator problem.
      throw new FacilitatorError(`Payments cannot be taken: ${(err as Error).message}`);
    }
    this.requirements.set(key, built);
    return built;
  }

  /** The 402 for `charge`: the PAYMENT-REQUIRED header, and its decoded form for the body. */
  async paymentRequired(charge: Charge, resourceUrl: string, code: PaymentRefusal, message: string, headers: Record<string, string> = {}): Promise<PaymentRequiredError> {
    const accepts = await this.requirementsFor(charge);
    const description = charge.units === 1 ? descriptions[charge.operation] : `${descriptions[charge.operation]}, ×${charge.units}`;
    const resource = { url: resourceUrl, description, mimeType: 'application/json' };
    const required = await this.server.createPaymentRequiredResponse(accepts, resource, code === 'payment_required' ? 'Payment required' : message);
    return new PaymentRequiredError(code, message, { [PAYMENT_REQUIRED]: encodePaymentRequiredHeader(required), 'Cache-Control': 'no-store', ...headers }, required);
  }

  /**
   * Check a PAYMENT-SIGNATURE header for `charge` without the facilitator: decodes, matches our
   * requirements, and has an EIP-3009 authorization. Refusals are 402 `payment_invalid`.
   */
  async decode(charge: Charge, header: string, resourceUrl: string): Promise<VerifiedPayment> {
    const refuse = (message: string) => this.paymentRequired(charge, resourceUrl, 'payment_invalid', message);
    let payload: PaymentPayload;
    try {
      payload = decodePaymentSignatureHeader(header);
    } catch {
      throw await refuse(`${PAYMENT_SIGNATURE} is not a base64-encoded JSON payment payload.`);
    }
    if (payload?.x402Version !== 2) throw await refuse(`Only x402 protocol version 2 is accepted (the payload says ${JSON.stringify(payload?.x402Version)}).`);
    const accepts = await this.requirementsFor(charge);
    // Version 2 (checked above), so matching cannot throw for an unsupported version.
    const requirements = this.server.findMatchingRequirements(accepts, payload);
    if (!requirements) throw await refuse('The payment does not match what this operation accepts (scheme, network, asset, amount, recipient or validity window differ); pay what the PAYMENT-REQUIRED header of a request without payment asks.');
    const authorization = authorizationOf(payload);
    if (!authorization) throw await refuse('Only EIP-3009 transfer authorizations (the exact scheme for USDC) are accepted.');
    return { payload, requirements, authorization };
  }

  /** Ask the facilitator whether the payment is good. Refusals are 402 `payment_invalid` naming its reason. */
  async verify(charge: Charge, payment: VerifiedPayment, resourceUrl: string): Promise<void> {
    let result;
    try {
      result = await this.server.verifyPayment(payment.payload, payment.requirements);
    } catch (err) {
      const invalidReason = (err as { invalidReason?: string }).invalidReason;
      if (invalidReason) result = { isValid: false, invalidReason };
      else throw facilitatorFailure('verify', err);
    }
    if (!result.isValid) {
      throw await this.paymentRequired(charge, resourceUrl, 'payment_invalid', `The facilitator refused the payment: ${result.invalidReason ?? 'invalid'}${result.invalidMessage ? ` (${result.invalidMessage})` : ''}.`);
    }
  }

  /** Settle a verified payment. Facilitator trouble throws (503/502); a refused settlement returns `success: false`. */
  async settle(payment: VerifiedPayment): Promise<SettleResponse> {
    try {
      return await this.server.settlePayment(payment.payload, payment.requirements);
    } catch (err) {
      const errorReason = (err as { errorReason?: string }).errorReason;
      if (errorReason) return { success: false, errorReason, transaction: '', network: payment.requirements.network };
      throw facilitatorFailure('settle', err);
    }
  }

  responseHeader(settlement: SettleResponse): Record<string, string> {
    return { [PAYMENT_RESPONSE]: encodePaymentResponseHeader(settlement) };
  }
}
