/**
 * API key format and hashing. A key is `pw_` + 32 base64url characters (192 random bits); it is shown
 * once and stored only as HMAC-SHA256(API_KEY_PEPPER, key). Lookups go by the hash, so the database
 * never holds anything a thief could replay.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'pw_';
const KEY_PATTERN = /^pw_[A-Za-z0-9_-]{32}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function hashApiKey(key: string, pepper: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

/** The part of a key that may be shown in listings and logs: enough to recognise it, useless to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}
