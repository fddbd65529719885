/**
 * One paid request (x402), from the PAYMENT-SIGNATURE header to settlement:
 *
 *   no header                → 402 with PAYMENT-REQUIRED (nothing recorded)
 *   decode + match + verify  → 402 `payment_invalid` when refused; 503/502 when the facilitator fails
 *   record payer + nonce     → a second use of the same authorization is refused (402), even if a
 *                              facilitator would accept it, even when both arrive at once
 *   the work                 → failed requests (4xx/5xx) are not charged: the row says `not_charged`
 *   settle                   → PAYMENT-RESPONSE header; if settlement fails the result is withheld
 *                              (402 `payment_settlement_failed`): nothing is delivered unpaid
 *
 * Operations with lasting effects settle before the effect instead (`chargeNow`): a crawl is paid
 * before its workflow starts, a cancel before the crawl is cancelled.
 */
import { randomUUID } from 'node:crypto';
import type { SettleResponse } from '@x402/core/types';
import { ApiError } from '../../core/errors.js';
import { priceOf, SETTLEMENT_MARGIN_MS, type Charge } from '../../core/x402-settings.js';
import { isUniqueViolation } from '../../prisma/client.js';
import type { AppContext } from '../route.js';
import { PAYMENT_SIGNATURE, type VerifiedPayment, type X402Gateway } from './gateway.js';

export class Payment {
  private state: 'verified' | 'settled' | 'settle_failed' | 'not_charged' = 'verified';

  constructor(
    private readonly ctx: AppContext,
    private readonly gateway: X402Gateway,
    readonly charge: Charge,
    readonly id: string,
    readonly payer: string,
    private readonly verified: VerifiedPayment,
    private readonly resourceUrl: string,
  ) {}

  /** How long paid work may take: it must end while the authorization can still be settled. */
  workBudgetMs(): number {
    return Number(this.verified.authorization.validBefore) * 1000 - Date.now() - SETTLEMENT_MARGIN_MS;
  }

  /** Settle now (once). Sets PAYMENT-RESPONSE; throws 402 if settlement fails, 503/502 if the facilitator does. */
  async chargeNow(): Promise<void> {
    if (this.state === 'settled') return;
    if (this.state !== 'verified') throw new Error(`payment ${this.id} is ${this.state}; it cannot be charged`);
    let result: SettleResponse;
    try {
      result = await this.gateway.settle(this.verified);
    } catch (err) {
      // A timed-out settle is indeterminate: the facilitator may still have settled it. The row says so.
      await this.mark('settle_failed', { error: `facilitator: ${(err as Error).message}` });
      throw err;
    }
    this.ctx.set(this.gateway.responseHeader(result));
    if (!result.success) {
      await this.mark('settle_failed', { error: result.errorReason ?? 'unknown' });
      const message = `The payment could not be settled (${result.errorReason ?? 'unknown reason'}), so the result is withheld and nothing was charged. Pay again with a new authorization.`;
      throw await this.gateway.paymentRequired(this.charge, this.resourceUrl, 'payment_settlement_failed', message, this.gateway.responseHeader(result));
    }
    // Paid: the caller gets the result even if the ledger cannot be updated right now.
    await this.mark('settled', { transaction: result.transaction, settledAt: new Date() }).catch((err: unknown) => {
      this.ctx.state.deps.log.error('x402 payment settled but not recorded', { paymentId: this.id, transaction: result.transaction, error: (err as Error).message });
    });
  }

  /** The request failed before it was charged: record that nothing was charged. */
  async release(reason: unknown): Promise<void> {
    if (this.state !== 'verified') return;
    const error = reason instanceof ApiError ? `${reason.status} ${reason.code}` : 'internal error';
    await this.mark('not_charged', { error }).catch(() => undefined);
  }

  private async mark(state: 'settled' | 'not_charged' | 'settle_failed', data: { transaction?: string; settledAt?: Date; error?: string }): Promise<void> {
    this.state = state;
    await this.ctx.state.deps.prisma.x402Payment.update({ where: { id: this.id }, data: { status: state, ...data } });
  }
}

/**
 * Accept the request's payment for `operation`, or throw the answer: 402 without or with a bad
 * payment, 503/502 when the facilitator cannot be asked. Nothing runs before this returns.
 */
export async function acceptPayment(ctx: AppContext, gateway: X402Gateway, charge: Charge): Promise<Payment> {
  const { prisma, config } = ctx.state.deps;
  const resourceUrl = `${config.AUTH_URL.replace(/\/+$/, '')}${ctx.path}`;
  const header = ctx.get(PAYMENT_SIGNATURE);
  if (!header) {
    throw await gateway.paymentRequired(charge, resourceUrl, 'payment_required', `Payment required: send "Authorization: Bearer <API_KEY>", or pay ${priceOf(gateway.settings.prices, charge)} with x402 (the PAYMENT-REQUIRED header says how; clients such as @x402/fetch do it for you).`);
  }
  const verified = await gateway.decode(charge, header, resourceUrl);
  const payer = verified.authorization.from.toLowerCase();
  const nonce = verified.authorization.nonce.toLowerCase();
  const replay = () => gateway.paymentRequired(charge, resourceUrl, 'payment_invalid', 'This payment authorization was already used; each one pays for one request. Sign a new one.');
  // Cheap refusal of a known replay before asking the facilitator; the unique index below is the guarantee.
  if (await prisma.x402Payment.findUnique({ where: { payer_nonce: { payer, nonce } }, select: { id: true } })) throw await replay();
  await gateway.verify(charge, verified, resourceUrl);
  const id = randomUUID();
  const { requirements } = verified;
  try {
    await prisma.x402Payment.create({ data: { id, payer, nonce, network: requirements.network, asset: requirements.asset, amount: requirements.amount, operation: charge.operation } });
  } catch (err) {
    if (isUniqueViolation(err)) throw await replay();
    throw err;
  }
  return new Payment(ctx, gateway, charge, id, payer, verified, resourceUrl);
}
