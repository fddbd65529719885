import { describe, expect, it } from 'vitest';
import {
  canonicalHost,
  checkUrlSyntax,
  classifyAddress,
  classifyHostname,
  normalizeTargetUrl,
  parseHostLiteral,
  UnsafeUrlError,
  type BlockReason,
} from './url-safety.js';

const safe = { allowPrivate: false };

function refusal(run: () => unknown): { reason: BlockReason; url: string } | 'accepted' {
  try {
    run();
    return 'accepted';
  } catch (err) {
    if (!(err instanceof UnsafeUrlError)) throw err;
    return { reason: err.reason, url: err.url };
  }
}

// Every target here must be refused by checkUrlSyntax alone (no DNS), with exactly this reason.
const hostile: [string, BlockReason][] = [
  ['http://127.0.0.1/', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://0x7f.0.0.1/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://017700000001/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://127.0.0.1./', 'loopback'],
  ['http://127.000.000.001/', 'loopback'],
  ['http://[::1]/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', 'loopback'],
  ['http://[::127.0.0.1]/', 'loopback'], // IPv4-compatible
  ['http://[64:ff9b::127.0.0.1]/', 'loopback'], // NAT64
  ['http://[2002:7f00:1::]/', 'loopback'], // 6to4
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'loopback'], // Teredo client 127.0.0.1
  ['http://localhost/', 'loopback'],
  ['http://LOCALHOST./', 'loopback'],
  ['http://app.localhost:3000/', 'loopback'],
  ['http://\u24dbocalhost/', 'loopback'], // circled l, IDNA-mapped to "localhost"
  ['http://10.1/', 'private'],
  ['http://0x0a.0.0.1/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.255/', 'private'],
  ['http://[::ffff:10.0.0.1]/', 'private'],
  ['http://[64:ff9b:1::a00:1]/', 'private'], // local-use NAT64 of 10.0.0.1
  ['http://[2002:c0a8:101::1]/', 'private'], // 6to4 of 192.168.1.1
  ['http://[fec0::1]/', 'private'], // site-local
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['http://0251.0376.0251.0376/', 'metadata'],
  ['http://0xa9fea9fe/', 'metadata'],
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'metadata'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://100.100.100.200/', 'metadata'],
  ['http://169.254.170.2/v2/credentials', 'metadata'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['http://metadata/', 'metadata'],
  ['http://instance-data/', 'metadata'],
  ['http://169.254.1.1/', 'link_local'],
  ['http://[fe80::1]/', 'link_local'],
  ['http://[fc00::1]/', 'unique_local'],
  ['http://[fd12:3456::1]/', 'unique_local'],
  ['http://100.64.0.1/', 'cgnat'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://192.0.2.1/', 'reserved'],
  ['http://198.18.0.1/', 'reserved'],
  ['http://192.0.0.1/', 'reserved'],
  ['http://[2001:db8::1]/', 'reserved'],
  ['http://[::8.8.8.8]/', 'reserved'], // IPv4-compatible is refused even for a public address
  ['http://[100::1]/', 'reserved'],
  ['http://db.internal/', 'hostname'],
  ['http://printer.local/', 'hostname'],
  ['http://router.home.arpa/', 'hostname'],
  ['http://redis:6380/', 'hostname'],
  ['file:///etc/passwd', 'scheme'],
  ['gopher://example.com:70/_SET', 'scheme'],
  ['ftp://example.com/', 'scheme'],
  ['data:text/html,<h1>hi</h1>', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['ws://example.com/', 'scheme'],
  ['dict://example.com:11211/', 'scheme'],
  ['http://user:secret@example.com/', 'credentials'],
  ['http://example.com@127.0.0.1/', 'credentials'],
  ['http://example.com:25/', 'port'],
  ['https://example.com:0/', 'port'],
  ['http://', 'invalid_url'],
  ['http://[::1/', 'invalid_url'],
];

describe('checkUrlSyntax refuses hostile targets without DNS', () => {
  it('has a table of at least 40 cases', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(40);
  });

  it.each(hostile)('%s → %s', (target, reason) => {
    const result = refusal(() => checkUrlSyntax(target, safe));
    expect(result).not.toBe('accepted');
    expect((result as { reason: BlockReason }).reason).toBe(reason);
  });

  it('redacts credentials from the refused URL it reports', () => {
    expect(refusal(() => checkUrlSyntax('http://user:secret@example.com/x', safe))).toEqual({
      reason: 'credentials',
      url: 'http://example.com/x',
    });
  });
});

describe('checkUrlSyntax accepts public targets', () => {
  it.each([
    ['http://8.8.8.8/', 'http://8.8.8.8/'],
    ['https://1.1.1.1/dns-query', 'https://1.1.1.1/dns-query'],
    ['http://[2606:4700::1111]/', 'http://[2606:4700::1111]/'],
    ['http://[::ffff:8.8.8.8]/', 'http://[::ffff:808:808]/'],
    ['http://[64:ff9b::8.8.8.8]/', 'http://[64:ff9b::808:808]/'],
    ['example.com', 'https://example.com/'],
    ['https://Example.COM:8443/a?b#c', 'https://example.com:8443/a?b#c'],
  ])('%s', (target, normalised) => {
    expect(checkUrlSyntax(target, safe).href).toBe(normalised);
  });
});

describe('allowPrivate', () => {
  const dev = { allowPrivate: true };

  it('lets loopback, private and local names through', () => {
    expect(checkUrlSyntax('http://127.0.0.1:3000/', dev).href).toBe('http://127.0.0.1:3000/');
    expect(checkUrlSyntax('http://10.0.0.5/', dev).href).toBe('http://10.0.0.5/');
    expect(checkUrlSyntax('http://localhost:8080/', dev).href).toBe('http://localhost:8080/');
    expect(checkUrlSyntax('http://redis:8080/', dev).href).toBe('http://redis:8080/');
  });

  it('still refuses metadata, schemes, credentials and bad ports', () => {
    expect(refusal(() => checkUrlSyntax('http://169.254.169.254/', dev))).toEqual({ reason: 'metadata', url: 'http://169.254.169.254/' });
    expect(refusal(() => checkUrlSyntax('http://metadata.google.internal/', dev))).toEqual({
      reason: 'metadata',
      url: 'http://metadata.google.internal/',
    });
    expect(refusal(() => checkUrlSyntax('file:///etc/passwd', dev))).toEqual({ reason: 'scheme', url: 'file:///etc/passwd' });
    expect(refusal(() => checkUrlSyntax('http://a:b@localhost/', dev))).toEqual({ reason: 'credentials', url: 'http://localhost/' });
    expect(refusal(() => checkUrlSyntax('http://localhost:25/', dev))).toEqual({ reason: 'port', url: 'http://localhost:25/' });
  });
});

describe('normalizeTargetUrl', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  example.com/path?q=1  ', 'https://example.com/path?q=1'],
    ['example.com:8080/x', 'https://example.com:8080/x'],
    ['//example.com/a', 'https://example.com/a'],
    ['HTTP://Example.COM/A', 'http://example.com/A'],
    ['http:\\\\example.com\\a', 'http://example.com/a'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeTargetUrl(input).href).toBe(expected);
  });

  it('refuses non-http schemes instead of prefixing https://', () => {
    expect(refusal(() => normalizeTargetUrl('file:/etc/passwd'))).toEqual({ reason: 'scheme', url: 'file:///etc/passwd' });
    expect(refusal(() => normalizeTargetUrl('mailto:a@example.com'))).toEqual({ reason: 'scheme', url: 'mailto:a@example.com' });
  });
});

describe('parseHostLiteral', () => {
  // Raw spellings as they may arrive outside a URL (CONNECT lines, resolver answers).
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7F.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[::]', '::'],
    ['[2606:4700:0:0:0:0:0:1111]', '2606:4700::1111'],
  ])('%s → %s', (raw, address) => {
    expect(parseHostLiteral(raw)?.address).toBe(address);
  });

  it.each(['example.com', '1.2.3.4.5', '256.1.1.1', '08.0.0.1', '0x7f.evil', '4294967296', '[fe80::1%eth0]', ''])(
    '%s is not a literal',
    (raw) => {
      expect(parseHostLiteral(raw)).toBeNull();
    },
  );

  it.each(['2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '10.1', '127.0.0.1.', '0x', '192.168.257'])(
    'agrees with the WHATWG URL parser on %s',
    (raw) => {
      expect(parseHostLiteral(raw)?.address).toBe(new URL(`http://${raw}/`).hostname);
    },
  );
});

describe('canonicalHost', () => {
  it.each([
    ['LOCALHOST.', 'localhost'],
    ['[::1]', '::1'],
    ['0x7f.1', '127.0.0.1'],
    ['\u24dbocalhost', 'localhost'],
    ['Example.COM..', 'example.com'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalHost(raw)).toBe(canonical);
  });
});

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', { allowed: true }],
    ['2606:4700::1111', { allowed: true }],
    ['2002:808:808::1', { allowed: true }],
    ['64:ff9b:1::808:808', { allowed: true }],
    ['64:ff9b:1:7f00:1::', { allowed: false, reason: 'loopback' }],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', { allowed: true }],
    ['168.63.129.16', { allowed: false, reason: 'metadata' }],
    ['fd20:ce::254', { allowed: false, reason: 'metadata' }],
    ['::ffff:0.0.0.0', { allowed: false, reason: 'unspecified' }],
    ['3fff::1', { allowed: false, reason: 'reserved' }],
    ['4000::1', { allowed: false, reason: 'reserved' }],
  ])('%s', (ip, verdict) => {
    expect(classifyAddress(ip)).toEqual(verdict);
  });

  it('throws for something that is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow(new TypeError('Not an IP address: "example.com"'));
  });
});

describe('classifyHostname', () => {
  it.each([
    ['example.com', { allowed: true }],
    ['sub.example.co.uk.', { allowed: true }],
    ['instance-data.ec2.internal', { allowed: false, reason: 'metadata' }],
    ['metadata.goog', { allowed: false, reason: 'metadata' }],
    ['localhost.localdomain', { allowed: false, reason: 'hostname' }],
    ['api', { allowed: false, reason: 'hostname' }],
  ])('%s', (name, verdict) => {
    expect(classifyHostname(name)).toEqual(verdict);
  });
});

describe('UnsafeUrlError', () => {
  it('carries reason and url, and tells the reader what to do', () => {
    const err = new UnsafeUrlError('private', 'http://10.0.0.1/', { address: '10.0.0.1' });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('UnsafeUrlError');
    expect(err.reason).toBe('private');
    expect(err.address).toBe('10.0.0.1');
    expect(err.message).toBe(
      'Refused http://10.0.0.1/: the host is on a private network. Only publicly reachable addresses can be fetched: ' +
        'use a public URL. Operators of a self-hosted deployment can allow private targets for development with ALLOW_PRIVATE_ADDRESSES=true.',
    );
  });

  it('names the redirect hop', () => {
    const err = new UnsafeUrlError('scheme', 'file:///etc/passwd').atHop('file:///etc/passwd', 2, 'https://example.com/b');
    expect(err.hop).toBe(2);
    expect(err.message).toBe(
      'Refused file:///etc/passwd (redirect 2 from https://example.com/b): only http:// and https:// URLs can be fetched. Use an http:// or https:// URL.',
    );
  });
});
