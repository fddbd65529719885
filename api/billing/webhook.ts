/**
 * POST /billing/webhook: the billing provider's signed events. The raw body is read here (the
 * signature covers its exact bytes), verified with the webhook secret, recorded and applied once
 * (api/billing/apply.ts). Answers: 202 applied or ignored, 200 for a replay, 403 for a bad
 * signature, 400 for a body that is not an event. Mounted only with billing on.
 */
import type { Middleware } from 'koa';
import type { BillingSettings } from '../../core/billing-settings.js';
import { ApiError, PayloadTooLargeError } from '../../core/errors.js';
import { Prisma } from '../../prisma/client.js';
import type { AppState } from '../route.js';
import { applyBillingEvent } from './apply.js';
import { PolarWebhookUnknownTypeError, PolarWebhookVerificationError, type BillingProvider } from './polar.js';

export const BILLING_WEBHOOK_PATH = '/billing/webhook';

async function rawBody(req: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw new PayloadTooLargeError(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function billingWebhook(settings: BillingSettings, provider: BillingProvider): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== BILLING_WEBHOOK_PATH) return next();
    if (ctx.method !== 'POST') throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${BILLING_WEBHOOK_PATH}; use POST.`, undefined, { Allow: 'POST' });
    const { deps } = ctx.state;
    const body = await rawBody(ctx.req, deps.config.API_BODY_LIMIT_BYTES);
    const headers = { 'webhook-id': ctx.get('webhook-id'), 'webhook-timestamp': ctx.get('webhook-timestamp'), 'webhook-signature': ctx.get('webhook-signature') };
    let event;
    try {
      event = await provider.verify(body, headers);
    } catch (err) {
      if (err instanceof PolarWebhookVerificationError) {
        deps.log.warn('billing webhook refused', { reason: err.message });
        throw new ApiError(403, 'invalid_signature', `The webhook signature does not verify: ${err.message}.`);
      }
      if (err instanceof PolarWebhookUnknownTypeError) {
        ctx.status = 202;
        ctx.body = { success: true, outcome: 'ignored' };
        return;
      }
      throw new ApiError(400, 'invalid_event', `Not a billing event: ${(err as Error).message}.`);
    }
    let fresh: boolean;
    try {
      fresh = await applyBillingEvent(deps.prisma, settings, deps.log, headers['webhook-id'], event);
    } catch (err) {
      // The same event delivered twice at once: the other delivery recorded it.
      if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002')) throw err;
      fresh = false;
    }
    ctx.status = fresh ? 202 : 200;
    ctx.body = { success: true, ...(fresh ? {} : { replay: true }) };
  };
}
