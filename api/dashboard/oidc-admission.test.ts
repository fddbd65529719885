import { describe, expect, it } from 'vitest';
import type { RequiredFor } from '../../core/config.js';
import { admitted } from './routes/oidc.js';

const config = (settings: { OIDC_ALLOWED_DOMAINS?: string; OIDC_ALLOWED_GROUPS?: string }) =>
  ({ OIDC_GROUPS_CLAIM: 'groups', ...settings }) as RequiredFor<'api'>;

describe('who joins through OpenID Connect without an invite', () => {
  it('nobody when neither OIDC_ALLOWED_DOMAINS nor OIDC_ALLOWED_GROUPS is set', () => {
    expect(admitted(config({}), 'ann@example.com', { email_verified: true, groups: ['staff'] })).toBe(false);
  });

  it('an allowed domain, only with an address the provider verified', () => {
    const c = config({ OIDC_ALLOWED_DOMAINS: 'example.com, Example.org' });
    expect(admitted(c, 'ann@example.com', { email_verified: true })).toBe(true);
    expect(admitted(c, 'ann@example.org', { email_verified: true })).toBe(true);
    expect(admitted(c, 'ann@example.com', { email_verified: false })).toBe(false);
    expect(admitted(c, 'ann@evil-example.com', { email_verified: true })).toBe(false);
    expect(admitted(c, 'ann@sub.example.com', { email_verified: true })).toBe(false);
  });

  it('an allowed group in the groups claim', () => {
    const c = config({ OIDC_ALLOWED_GROUPS: 'Scrapers' });
    expect(admitted(c, 'bob@anywhere.test', { groups: ['staff', 'scrapers'] })).toBe(true);
    expect(admitted(c, 'bob@anywhere.test', { groups: ['staff'] })).toBe(false);
    expect(admitted(c, 'bob@anywhere.test', { groups: 'scrapers' })).toBe(false);
  });
});
