/**
 * Webhook signatures: `X-Pagewright-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * The timestamp inside the signed text lets receivers refuse replays of old deliveries.
 *
 * The secret is the job's account's own (`accountWebhookSecret`), so a delivery of one tenant never
 * verifies for another; keys without an account use the server-wide WEBHOOK_SIGNING_SECRET.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-pagewright-signature';

export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** For receivers (and our tests): true when the header matches the body and is at most `toleranceSeconds` old. */
export function verifyWebhook(secret: string, body: string, header: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * An account's signing secret: derived from the server-wide secret, the account id and the
 * account's secret version (rotating bumps it), so no secret is stored and every account's differs.
 */
export function accountWebhookSecret(serverSecret: string, accountId: string, version: number): string {
  return `whsec_${createHmac('sha256', serverSecret).update(`account-webhook\n${accountId}\n${version}`).digest('base64url')}`;
}
