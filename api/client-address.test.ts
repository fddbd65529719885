import { describe, expect, it } from 'vitest';
import { clientAddress, trustProxyOf } from './client-address.js';

describe('clientAddress', () => {
  it('is the socket peer without TRUST_PROXY, whatever X-Forwarded-For says', () => {
    expect(clientAddress('10.0.0.5', '203.0.113.9', trustProxyOf(undefined))).toBe('10.0.0.5');
    expect(clientAddress('::ffff:10.0.0.5', undefined, trustProxyOf('1'))).toBe('10.0.0.5');
  });

  it('with a hop count, takes the address that many proxies back', () => {
    expect(clientAddress('10.0.0.5', '203.0.113.9', trustProxyOf('1'))).toBe('203.0.113.9');
    // A client that sends its own X-Forwarded-For cannot choose its address: the proxy appended the real one.
    expect(clientAddress('10.0.0.5', '1.2.3.4, 203.0.113.9', trustProxyOf('1'))).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.5', '1.2.3.4, 203.0.113.9, 10.0.0.7', trustProxyOf('2'))).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.5', '203.0.113.9', trustProxyOf('3'))).toBe('203.0.113.9');
  });

  it('with CIDRs, takes the first address from the right that is not a proxy', () => {
    const trust = trustProxyOf('10.0.0.0/8, fd00::/8');
    expect(clientAddress('10.0.0.5', '1.2.3.4, 203.0.113.9, 10.1.2.3', trust)).toBe('203.0.113.9');
    expect(clientAddress('fd00::1', '2001:db8::7', trust)).toBe('2001:db8::7');
    // A peer outside the list is the client itself: its X-Forwarded-For is not believed.
    expect(clientAddress('198.51.100.1', '203.0.113.9', trust)).toBe('198.51.100.1');
  });
});
