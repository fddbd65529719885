/**
 * What protects the dashboard's cookie-authenticated endpoints, needed because the cookie is
 * SameSite=None (sent on cross-site requests too):
 * - Origin: a request that names an Origin must come from the dashboard's own origin (AUTH_URL) or
 *   one listed in DASHBOARD_ORIGINS (`*` does not count: credentials are never shared with anyone).
 *   CORS_ORIGIN is not enough: it opens the key-authenticated API to browsers, not the session.
 * - CSRF: every state-changing request carries `X-CSRF-Token` equal to its session's token. A
 *   cross-origin form cannot set that header, and a cross-origin script cannot read the token.
 * - JSON only (api/middleware/body.ts answers 415 to form encodings), so a plain form post fails
 *   even on the endpoints that have no session yet (sign-in, sign-up, accepting an invite).
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequiredFor } from '../../core/config.js';
import { ForbiddenError } from '../../core/errors.js';
import type { AppContext } from '../route.js';
import type { DashboardSession } from './session.js';

export function dashboardOrigins(config: RequiredFor<'api'>): Set<string> {
  const listed = (config.DASHBOARD_ORIGINS ?? '').split(',').map((s) => s.trim()).filter((s) => s && s !== '*');
  return new Set([new URL(config.AUTH_URL).origin, ...listed]);
}

export const isStateChanging = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

export function checkOrigin(ctx: AppContext, origins: Set<string>): void {
  const origin = ctx.get('origin');
  if (origin && !origins.has(origin)) throw new ForbiddenError(`Requests from ${origin} are not allowed: add it to DASHBOARD_ORIGINS to serve the dashboard from there.`, 'origin_not_allowed');
}

export function checkCsrf(ctx: AppContext, session: DashboardSession): void {
  const given = Buffer.from(ctx.get('x-csrf-token'));
  const expected = Buffer.from(session.csrfToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ForbiddenError('Missing or wrong CSRF token: send the X-CSRF-Token header from GET /dashboard/api/session.', 'csrf_failed');
  }
}
