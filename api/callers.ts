/** Who a job request comes from, and how its links are written for that client. */
import type { Caller } from '../jobs/deps.js';
import type { LinkStyle } from '../jobs/read.js';
import type { AppContext } from './route.js';

/** The official SDKs, by the HTTP clients they send with (axios, requests, aiohttp). */
export function isOfficialSdk(userAgent: string): boolean {
  return /^(axios\/|python-requests\/)|\baiohttp\//.test(userAgent);
}

/** The official SDKs fetch `next` as a URL: they get an absolute one. */
function linkStyleFor(userAgent: string, setting: 'auto' | LinkStyle): LinkStyle {
  if (setting !== 'auto') return setting;
  return isOfficialSdk(userAgent) ? 'absolute' : 'relative';
}

/** How this request gets `next` links (README "Paging"). */
export const linkStyle = (ctx: AppContext) => linkStyleFor(ctx.get('user-agent'), ctx.state.deps.config.NEXT_URL_STYLE);

/** The job's owner: an API key, or the paying wallet (x402). A paid job is charged before it starts, a paid cancel before it cancels. */
export function caller(ctx: AppContext): Caller {
  const { auth, payment } = ctx.state;
  const idempotencyKey = ctx.get('x-idempotency-key');
  return { apiKeyId: auth?.apiKeyId, payer: auth?.payer, ...(payment ? { charge: () => payment.chargeNow() } : {}), ...(ctx.headers['x-idempotency-key'] !== undefined ? { idempotencyKey } : {}) };
}
