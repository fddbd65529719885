import { describe, expect, it } from 'vitest';
import { UnsafeUrlError } from '../core/url-safety.js';
import { resolveAndCheck } from './resolve.js';
import { fakeLookup } from '../test/fixtures/egress.js';

async function refusal(p: Promise<unknown>): Promise<{ reason: string; url: string; address?: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof UnsafeUrlError)) throw new Error(`expected UnsafeUrlError, got ${String(err)}`);
  return { reason: err.reason, url: err.url, address: err.address };
}

describe('resolveAndCheck', () => {
  it('returns every checked address of a public name, resolving it once', async () => {
    const lookup = fakeLookup({ 'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    await expect(resolveAndCheck('example.com', { allowPrivate: false, lookup })).resolves.toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    expect(lookup.calls).toEqual(['example.com']);
  });

  it('refuses a name answering one public and one private address', async () => {
    const lookup = fakeLookup({ 'mixed.example': ['93.184.215.14', '10.0.0.7'] });
    expect(await refusal(resolveAndCheck('mixed.example', { allowPrivate: false, lookup }))).toEqual({
      reason: 'private',
      url: 'mixed.example',
      address: '10.0.0.7',
    });
  });

  it('refuses a name resolving to an IPv4-mapped loopback address', async () => {
    const lookup = fakeLookup({ 'sneaky.example': ['::ffff:127.0.0.1'] });
    expect(await refusal(resolveAndCheck('sneaky.example', { allowPrivate: false, lookup }))).toEqual({
      reason: 'loopback',
      url: 'sneaky.example',
      address: '::ffff:7f00:1',
    });
  });

  it('checks literals without a lookup, whatever their spelling', async () => {
    const lookup = fakeLookup({});
    expect(await refusal(resolveAndCheck('0x7f.1', { allowPrivate: false, lookup }))).toEqual({
      reason: 'loopback',
      url: '0x7f.1',
      address: '127.0.0.1',
    });
    await expect(resolveAndCheck('[2606:4700::1111]', { allowPrivate: false, lookup })).resolves.toEqual([
      { address: '2606:4700::1111', family: 6 },
    ]);
    expect(lookup.calls).toEqual([]);
  });

  it('applies name rules before asking DNS', async () => {
    const lookup = fakeLookup({ 'db.internal': ['93.184.215.14'], 'localhost.': ['93.184.215.14'] });
    expect((await refusal(resolveAndCheck('db.internal', { allowPrivate: false, lookup }))).reason).toBe('hostname');
    expect((await refusal(resolveAndCheck('localhost.', { allowPrivate: false, lookup }))).reason).toBe('loopback');
    expect(lookup.calls).toEqual([]);
  });

  it("reports a name that does not exist as 'dns'", async () => {
    expect(await refusal(resolveAndCheck('nowhere.example', { allowPrivate: false, lookup: fakeLookup({}) }))).toEqual({
      reason: 'dns',
      url: 'nowhere.example',
      address: undefined,
    });
    expect((await refusal(resolveAndCheck('empty.example', { allowPrivate: false, lookup: fakeLookup({ 'empty.example': [] }) }))).reason).toBe('dns');
  });

  it('rethrows a transient resolver failure unchanged, so it can be retried', async () => {
    const failure = Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.example'), { code: 'EAI_AGAIN' });
    const lookup = async () => Promise.reject(failure);
    await expect(resolveAndCheck('flaky.example', { allowPrivate: false, lookup })).rejects.toBe(failure);
  });

  it('fails closed when a resolver returns something that is not an address', async () => {
    const lookup = fakeLookup({ 'odd.example': ['not-an-ip'] });
    await expect(resolveAndCheck('odd.example', { allowPrivate: false, lookup })).rejects.toThrow(
      new TypeError('Resolver returned something that is not an IP address: "not-an-ip"'),
    );
  });

  it('with allowPrivate lets private answers through but never metadata', async () => {
    const lookup = fakeLookup({ 'dev.example': ['127.0.0.1'], 'imds.example': ['169.254.169.254'] });
    await expect(resolveAndCheck('dev.example', { allowPrivate: true, lookup })).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await refusal(resolveAndCheck('imds.example', { allowPrivate: true, lookup }))).toEqual({
      reason: 'metadata',
      url: 'imds.example',
      address: '169.254.169.254',
    });
  });

  it('uses the system resolver by default (localhost from /etc/hosts, with allowPrivate)', async () => {
    const answers = await resolveAndCheck('localhost', { allowPrivate: true });
    expect(answers.map((a) => a.address).every((a) => a === '127.0.0.1' || a === '::1')).toBe(true);
  });
});
