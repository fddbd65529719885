/**
 * Applies a route's rate limit (api/rate-limit.ts) to the authenticated caller. Runs after
 * authentication and before validation, so every authenticated request counts, whatever its
 * outcome; requests refused here do not count. Allowed requests get RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset headers (IETF draft names), refused ones 429 with those
 * and Retry-After.
 */
import { RateLimitedError } from '../../core/errors.js';
import { rateLimitRefusals } from '../../telemetry/metrics.js';
import { rateLimitLabels, type RateLimiter, type RateLimitName } from '../rate-limit.js';
import type { AppContext, AuthState } from '../route.js';

export interface RateLimitSubject {
  /** Counter key part: `account:<account id>` (all its keys share it), or `payer:<address>` for a caller paying per request (x402). */
  id: string;
  /** How the 429 message names the caller. */
  label: string;
}

/**
 * Who a request is counted for: the account of the API key (members can make any number of keys,
 * so a per-key count would bound nothing), or the paying wallet (verified by the facilitator).
 */
export function rateLimitSubject(auth: AuthState): RateLimitSubject {
  if (auth.payer) return { id: `payer:${auth.payer}`, label: 'paying address' };
  return auth.accountId ? { id: `account:${auth.accountId}`, label: 'account' } : { id: `key:${auth.apiKeyId}`, label: 'API key' };
}

/** `units`: how many requests this one counts as (a search that scrapes its results). */
export async function enforceRateLimit(ctx: AppContext, limiter: RateLimiter, name: RateLimitName, units = 1): Promise<void> {
  const auth = ctx.state.auth;
  if (!auth) throw new Error(`Rate limit "${name}" needs an authenticated caller`);
  const subject = rateLimitSubject(auth);
  const decision = await limiter.check(name, subject.id, units);
  if (!decision) return;
  if (!decision.allowed) {
    rateLimitRefusals.inc({ limit: name });
    throw new RateLimitedError(rateLimitLabels[name], decision.limit, decision.retryAfterSeconds, decision.resetSeconds, subject.label);
  }
  ctx.set({
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  });
}
