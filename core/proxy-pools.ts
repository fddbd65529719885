/**
 * Operator proxies (README "Proxies"): the pools from the settings (PROXY_URLS, STEALTH_PROXY_URLS,
 * PROXY_URLS_<CC>), and rotation with members that keep failing taken out for a while. The
 * tunnels through a member are egress/upstream.ts.
 */

export type ProxyTier = 'basic' | 'stealth';

export interface ProxyMember {
  url: URL;
  /** scheme://host:port: what may be shown (metadata, logs); never the credentials. */
  label: string;
  tier: ProxyTier;
  failures: number;
  downUntil: number;
}

/** Consecutive failures after which a member is taken out, and for how long. */
export const FAILURE_LIMIT = 3;
export const DOWN_MS = 60_000;

export interface ProxySettings {
  PROXY_URLS?: string;
  STEALTH_PROXY_URLS?: string;
}

/** Every PROXY_URLS_<CC> of `env` (two letters, ISO 3166-1), by lower-case country code. */
export function countryProxySettings(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((e): e is [string, string] => /^PROXY_URLS_[A-Z]{2}$/.test(e[0]) && Boolean(e[1]?.trim()))
      .map(([name, value]) => [name.slice(-2).toLowerCase(), value]),
  );
}

/** A comma-separated list of proxy URLs; throws naming the setting for a URL that is not one. */
export function parseProxyList(name: string, value: string | undefined, tier: ProxyTier): ProxyMember[] {
  if (!value?.trim()) return [];
  return value.split(',').map((raw) => {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new Error(`${name}: "${raw.trim().replace(/\/\/[^@/]*@/, '//***@')}" is not a URL (http://, https:// or socks5://, with user:password@ if needed)`);
    }
    if (!['http:', 'https:', 'socks5:'].includes(url.protocol) || !url.port) throw new Error(`${name}: ${url.protocol}//${url.host} needs the scheme http, https or socks5 and a port`);
    return { url, label: `${url.protocol}//${url.host}`, tier, failures: 0, downUntil: 0 };
  });
}

export class ProxyPools {
  private readonly next = new Map<ProxyMember[], number>();

  constructor(
    readonly basic: ProxyMember[],
    readonly stealth: ProxyMember[],
    readonly byCountry: Record<string, ProxyMember[]>,
  ) {}

  static fromSettings(settings: ProxySettings, countries: Record<string, string> = {}): ProxyPools {
    return new ProxyPools(
      parseProxyList('PROXY_URLS', settings.PROXY_URLS, 'basic'),
      parseProxyList('STEALTH_PROXY_URLS', settings.STEALTH_PROXY_URLS, 'stealth'),
      Object.fromEntries(Object.entries(countries).map(([cc, value]) => [cc, parseProxyList(`PROXY_URLS_${cc.toUpperCase()}`, value, 'basic')])),
    );
  }

  get configured(): boolean {
    return this.basic.length > 0 || this.stealth.length > 0 || Object.values(this.byCountry).some((p) => p.length > 0);
  }

  /** Every member, to find one by its label (the remote engine names the member it chose). */
  all(): ProxyMember[] {
    return [...this.basic, ...this.stealth, ...Object.values(this.byCountry).flat()];
  }

  /** The pool for a tier and country: stealth, or the country's pool, or the basic one. */
  pool(tier: ProxyTier, country?: string): ProxyMember[] {
    if (tier === 'stealth') return this.stealth;
    return (country && this.byCountry[country.toLowerCase()]?.length ? this.byCountry[country.toLowerCase()] : this.basic) ?? [];
  }

  /** The next healthy member of the pool, round robin; when all are out, the one back soonest. Undefined: an empty pool. */
  pick(tier: ProxyTier, country?: string, now = Date.now()): ProxyMember | undefined {
    const pool = this.pool(tier, country);
    if (!pool.length) return undefined;
    const start = this.next.get(pool) ?? 0;
    for (let i = 0; i < pool.length; i++) {
      const member = pool[(start + i) % pool.length]!;
      if (member.downUntil <= now) {
        this.next.set(pool, (start + i + 1) % pool.length);
        return member;
      }
    }
    return [...pool].sort((a, b) => a.downUntil - b.downUntil)[0];
  }

  /** A connection through `member` worked, or failed (FAILURE_LIMIT in a row takes it out for DOWN_MS). */
  report(member: ProxyMember, ok: boolean, now = Date.now()): void {
    if (ok) {
      member.failures = 0;
      return;
    }
    member.failures += 1;
    if (member.failures >= FAILURE_LIMIT) {
      member.downUntil = now + DOWN_MS;
      member.failures = 0;
    }
  }
}

/**
 * `proxy` on a request (scrape, crawl, batch): `stealth` (and the hosted `enhanced`) need stealth
 * proxies; `basic` and `auto` work with whatever is configured (without stealth proxies `auto` has
 * nothing to escalate to and is `basic`).
 */
export function proxyOptionProblem(proxy: string | undefined, settings: ProxySettings): { field: string; message: string } | undefined {
  if ((proxy === 'stealth' || proxy === 'enhanced') && !settings.STEALTH_PROXY_URLS) {
    return { field: 'proxy', message: `"${proxy}" needs stealth proxies and this server has none (its operator sets STEALTH_PROXY_URLS); use "basic" or "auto", or leave it out` };
  }
  return undefined;
}
