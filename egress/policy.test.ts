/** The operator settings behind the egress policy: EGRESS_ALLOW_CIDRS, DNS_SERVERS, and egressPolicyFrom joining them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.js';
import { classifierAllowing, classifyAddress, parseCidrList, safetyOptionsFrom, UnsafeUrlError } from '../core/url-safety.js';
import { startDnsServer, type DnsServer } from '../test/fixtures/dns-server.js';
import { parseDnsServers, resolverLookup } from './dns.js';
import { egressPolicyFrom } from './policy.js';
import { resolveAndCheck } from './resolve.js';

describe('parseCidrList', () => {
  it('reads ranges and bare addresses, either family, ignoring spaces', () => {
    const parsed = parseCidrList(' 10.20.0.0/16, 127.0.0.2 ,fd12:3456::/48,::1');
    expect(parsed.map(([net, bits]) => `${net.toString()}/${bits}`)).toEqual(['10.20.0.0/16', '127.0.0.2/32', 'fd12:3456::/48', '::1/128']);
    expect(parseCidrList('')).toEqual([]);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', '10.0.0/8', '010.0.0.1/32', '0x7f000001', '10.0.0.0/8/8', 'fe80::1%eth0', 'intranet.example', '10.0.0.0/-1'])(
    'refuses %s, naming it',
    (entry) => {
      expect(() => parseCidrList(`127.0.0.2/32,${entry}`)).toThrow(new TypeError(`${JSON.stringify(entry)} is not an IPv4 or IPv6 address with an optional /prefix (0-32 for IPv4, 0-128 for IPv6)`));
    },
  );
});

describe('classifierAllowing', () => {
  const classify = classifierAllowing(parseCidrList('127.0.0.2/32, 10.1.0.0/16, 169.254.0.0/16, fd00:ec2::/32, 64:ff9b::/96'));

  it('allows listed addresses whatever their class, in any spelling of the same address', () => {
    for (const ip of ['127.0.0.2', '10.1.200.3', '169.254.1.1', '::ffff:127.0.0.2', '::ffff:a01:1', 'fd00:ec2::1']) expect(classify(ip)).toEqual({ allowed: true });
  });

  it('leaves everything else to the address classes', () => {
    for (const ip of ['127.0.0.1', '127.0.0.3', '10.2.0.1', '::1', 'fd00::1', '93.184.215.14']) expect(classify(ip)).toEqual(classifyAddress(ip));
  });

  it('still refuses cloud metadata inside a listed range, however it is spelled', () => {
    for (const ip of ['169.254.169.254', '169.254.170.2', '::ffff:169.254.169.254', 'fd00:ec2::254', '64:ff9b::a9fe:a9fe']) {
      expect(classify(ip)).toEqual({ allowed: false, reason: 'metadata' });
    }
  });

  it('is the plain classifier when nothing is listed', () => {
    expect(classifierAllowing([])).toBe(classifyAddress);
  });
});

describe('safetyOptionsFrom', () => {
  it('adds the allow list only when one is set, and builds once per config', () => {
    const plain = { ALLOW_PRIVATE_ADDRESSES: false };
    expect(safetyOptionsFrom(plain)).toEqual({ allowPrivate: false });
    const listed = { ALLOW_PRIVATE_ADDRESSES: false, EGRESS_ALLOW_CIDRS: '127.0.0.2/32' };
    expect(safetyOptionsFrom(listed)).toBe(safetyOptionsFrom(listed));
    expect(safetyOptionsFrom(listed).classify?.('127.0.0.2')).toEqual({ allowed: true });
  });

  it('names the variable when the list is malformed', () => {
    expect(() => safetyOptionsFrom({ ALLOW_PRIVATE_ADDRESSES: false, EGRESS_ALLOW_CIDRS: '10.0.0.0/99' })).toThrow(
      new TypeError('EGRESS_ALLOW_CIDRS: "10.0.0.0/99" is not an IPv4 or IPv6 address with an optional /prefix (0-32 for IPv4, 0-128 for IPv6)'),
    );
  });
});

describe('parseDnsServers', () => {
  it('takes ip, ip:port, [v6] and [v6]:port', () => {
    expect(parseDnsServers('10.0.0.53, 10.0.0.54:5353,[fd00::53],[fd00::54]:53')).toEqual(['10.0.0.53', '10.0.0.54:5353', '[fd00::53]', '[fd00::54]:53']);
  });

  it.each(['fd00::53', '10.0.0.53:0', '10.0.0.53:65536', 'dns.example', '[10.0.0.53]', '10.0.0.256'])('refuses %s, naming it', (entry) => {
    expect(() => parseDnsServers(entry)).toThrow(new TypeError(`${JSON.stringify(entry)} is not a DNS server address: use a.b.c.d, a.b.c.d:port, [v6] or [v6]:port`));
  });
});

describe('the boot check (config table patterns)', () => {
  const base = { DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/db', REDIS_URL: 'redis://127.0.0.1:6379', WEBHOOK_SIGNING_SECRET: 'w'.repeat(16), SCRAPE_SERVICE_TOKEN: 's'.repeat(32) };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig('worker', { env: { ...base, ...env } });
      return [];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return err.problems.map((p) => p.split(' is invalid')[0]);
    }
  };

  it('accepts well-formed lists', () => {
    expect(problems({ EGRESS_ALLOW_CIDRS: '127.0.0.2/32, 10.0.0.0/8,fd12:3456::/48,::1', DNS_SERVERS: '127.0.0.1:5353, [::1]:53, 9.9.9.9' })).toEqual([]);
  });

  it.each([
    ['EGRESS_ALLOW_CIDRS', '10.0.0.0/33'],
    ['EGRESS_ALLOW_CIDRS', '10.0.0.256/8'],
    ['EGRESS_ALLOW_CIDRS', '1:2:3:4:5:6:7::8/64'],
    ['EGRESS_ALLOW_CIDRS', '10.0.0.0/8,'],
    ['EGRESS_ALLOW_CIDRS', 'intranet.example'],
    ['DNS_SERVERS', '127.0.0.1:70000'],
    ['DNS_SERVERS', 'fd00::53'],
    ['DNS_SERVERS', 'dns.example'],
  ])('refuses %s=%s at boot, naming the variable', (name, value) => {
    expect(problems({ [name]: value })).toEqual([`${name}=${JSON.stringify(value)}`]);
  });

  it('accepts everything the patterns accept in the parsers too', () => {
    const config = loadConfig('worker', { env: { ...base, EGRESS_ALLOW_CIDRS: '0.0.0.0/0, ::/0, 1:2:3:4:5:6:7:8/128', DNS_SERVERS: '[1:2:3:4:5:6:7::]:65535' } });
    expect(() => egressPolicyFrom(config)).not.toThrow();
  });
});

describe('resolverLookup and egressPolicyFrom (DNS_SERVERS)', () => {
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({
      'public.test': ['127.0.0.2', '::ffff:127.0.0.2'],
      'rebind.test': (n) => (n === 1 ? ['127.0.0.2'] : ['127.0.0.1']),
      'only-v6.test': ['::1'],
      'mixed.test': ['127.0.0.2', '10.0.0.7'],
    });
  });
  afterAll(async () => dns?.close());

  it('asks the configured server for A and AAAA, IPv4 answers first', async () => {
    const lookup = resolverLookup([dns.address]);
    expect(await lookup('public.test')).toEqual([
      { address: '127.0.0.2', family: 4 },
      { address: '::ffff:127.0.0.2', family: 6 },
    ]);
    expect(dns.asked('public.test').map((q) => q.type).sort()).toEqual(['A', 'AAAA']);
  });

  it('reports a name with no records as not found, so resolveAndCheck refuses it as dns', async () => {
    const err = await resolveAndCheck('nowhere.test', { allowPrivate: false, lookup: resolverLookup([dns.address]) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect((err as UnsafeUrlError).reason).toBe('dns');
  });

  it('rethrows a server that does not answer as the transient failure it is', async () => {
    const err = (await resolverLookup(['127.0.0.1:9'], { timeoutMs: 200, tries: 1 })('public.test').catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err).not.toBeInstanceOf(UnsafeUrlError);
    expect(['ECONNREFUSED', 'ETIMEOUT']).toContain(err.code);
  });

  it('gives the allow list and the resolver to every check, once per config', async () => {
    const config = { ALLOW_PRIVATE_ADDRESSES: false, EGRESS_ALLOW_CIDRS: '127.0.0.2/32', DNS_SERVERS: dns.address };
    const policy = egressPolicyFrom(config);
    expect(egressPolicyFrom(config)).toBe(policy);
    expect(await resolveAndCheck('public.test', policy)).toEqual([
      { address: '127.0.0.2', family: 4 },
      { address: '::ffff:7f00:2', family: 6 },
    ]);
    // Checked once: the first answer is the one connected to; the second (private) one is refused.
    expect(await resolveAndCheck('rebind.test', policy)).toEqual([{ address: '127.0.0.2', family: 4 }]);
    await expect(resolveAndCheck('rebind.test', policy)).rejects.toMatchObject({ reason: 'loopback', url: 'rebind.test', address: '127.0.0.1' });
    await expect(resolveAndCheck('only-v6.test', policy)).rejects.toMatchObject({ reason: 'loopback', address: '::1' });
    await expect(resolveAndCheck('mixed.test', policy)).rejects.toMatchObject({ reason: 'private', address: '10.0.0.7' });
  });

  it('names the variable when the server list is malformed', () => {
    expect(() => egressPolicyFrom({ ALLOW_PRIVATE_ADDRESSES: false, DNS_SERVERS: 'dns.example' })).toThrow(
      new TypeError('DNS_SERVERS: "dns.example" is not a DNS server address: use a.b.c.d, a.b.c.d:port, [v6] or [v6]:port'),
    );
  });
});
