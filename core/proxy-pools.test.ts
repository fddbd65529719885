import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { DOWN_MS, FAILURE_LIMIT, ProxyPools, countryProxySettings, proxyOptionProblem } from './proxy-pools.js';

const pools = () => ProxyPools.fromSettings({ PROXY_URLS: 'http://u:p@10.0.0.1:8080, socks5://10.0.0.2:1080', STEALTH_PROXY_URLS: 'https://10.0.0.3:8443' }, { de: 'http://10.0.0.4:3128' });

describe('ProxyPools', () => {
  it('reads the settings into pools; labels never carry credentials', () => {
    const p = pools();
    expect(p.basic.map((m) => m.label)).toEqual(['http://10.0.0.1:8080', 'socks5://10.0.0.2:1080']);
    expect(p.stealth.map((m) => [m.label, m.tier])).toEqual([['https://10.0.0.3:8443', 'stealth']]);
    expect(p.pool('basic', 'DE').map((m) => m.label)).toEqual(['http://10.0.0.4:3128']);
    expect(p.pool('basic', 'FR')).toBe(p.basic);
    expect(p.configured).toBe(true);
    expect(ProxyPools.fromSettings({}).configured).toBe(false);
    expect(ProxyPools.fromSettings({}).pick('basic')).toBeUndefined();
  });

  it('rotates round robin, takes a member out after FAILURE_LIMIT failures in a row for DOWN_MS, then takes it back', () => {
    const p = pools();
    const [a, b] = p.basic;
    expect([p.pick('basic', undefined, 0), p.pick('basic', undefined, 0), p.pick('basic', undefined, 0)]).toEqual([a, b, a]);
    for (let i = 0; i < FAILURE_LIMIT - 1; i++) p.report(a!, false, 0);
    p.report(a!, true, 0);
    for (let i = 0; i < FAILURE_LIMIT - 1; i++) p.report(a!, false, 0);
    expect(a!.downUntil).toBe(0);
    p.report(a!, false, 1000);
    expect(a!.downUntil).toBe(1000 + DOWN_MS);
    expect([p.pick('basic', undefined, 2000), p.pick('basic', undefined, 2000)]).toEqual([b, b]);
    // Every member out: the one back soonest is still used.
    for (let i = 0; i < FAILURE_LIMIT; i++) p.report(b!, false, 3000);
    expect(p.pick('basic', undefined, 4000)).toBe(a);
    expect(p.pick('basic', undefined, 1000 + DOWN_MS)).toBe(a);
  });

  it('finds PROXY_URLS_<CC> settings by their names', () => {
    expect(countryProxySettings({ PROXY_URLS_DE: 'http://h:1', PROXY_URLS_us: 'x', PROXY_URLS_FRA: 'x', PROXY_URLS_GB: ' ', PROXY_URLS: 'x' })).toEqual({ de: 'http://h:1' });
  });

  it('refuses a setting that is not a list of proxy URLs at start, naming it and hiding credentials', () => {
    expect(() => loadConfig('worker', { env: { PROXY_URLS: 'http://user:secret@ host:1' } })).toThrow(/PROXY_URLS: "http:\/\/\*\*\*@ host:1" is not a URL/);
    expect(() => loadConfig('worker', { env: { PROXY_URLS_DE: 'ftp://h:2121' } })).toThrow(/PROXY_URLS_DE: ftp:\/\/h:2121 needs the scheme http, https or socks5 and a port/);
    expect(() => loadConfig('worker', { env: { STEALTH_PROXY_URLS: 'http://h' } })).toThrow(/STEALTH_PROXY_URLS: http:\/\/h needs the scheme http, https or socks5 and a port/);
  });

  it('proxy "stealth" and "enhanced" need stealth proxies; "basic" and "auto" never do', () => {
    expect(proxyOptionProblem('stealth', {})?.field).toBe('proxy');
    expect(proxyOptionProblem('enhanced', {})?.message).toMatch(/^"enhanced" needs stealth proxies/);
    expect([proxyOptionProblem('basic', {}), proxyOptionProblem('auto', {}), proxyOptionProblem(undefined, {}), proxyOptionProblem('stealth', { STEALTH_PROXY_URLS: 'http://h:1' })]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
