/**
 * Bearer API-key authentication. The key is hashed with the pepper and looked up by hash; a
 * missing, malformed, unknown or revoked key gets 401 with a message saying which.
 */
import { UnauthorizedError } from '../../core/errors.js';
import { isWellFormedApiKey } from '../../core/api-keys.js';
import { findActiveKey } from '../keys-store.js';
import type { AppContext } from '../route.js';

export function bearerToken(header: string): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

export async function authenticate(ctx: AppContext): Promise<void> {
  const header = ctx.get('authorization');
  if (!header) throw new UnauthorizedError('Missing API key: send the header "Authorization: Bearer <API_KEY>".');
  const token = bearerToken(header);
  if (!token) throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <API_KEY>".');
  if (!isWellFormedApiKey(token)) throw new UnauthorizedError('Invalid API key.');
  const { prisma, config } = ctx.state.deps;
  const found = await findActiveKey(prisma, token, config.API_KEY_PEPPER);
  if (found === 'revoked') throw new UnauthorizedError('This API key has been revoked; create a new one.');
  if (!found) throw new UnauthorizedError('Invalid API key.');
  ctx.state.auth = { apiKeyId: found.id, accountId: found.accountId };
}
