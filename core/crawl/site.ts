/**
 * Which URLs belong to the same site, for the crawl filter and for map. A site is a host name
 * with a `www.` prefix, letter case and a trailing dot folded away, plus a non-default port: the
 * same folding as the dedupe key (core/url-key.ts), so `http://www.Example.com` and
 * `https://example.com` are one site, while `example.com:8443` is another server and another site.
 * The scheme is not part of the site.
 */

function siteParts(url: URL): { host: string; port: string } {
  return { host: url.hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, ''), port: url.port };
}

/** The site a URL belongs to: `example.com`, `docs.example.com`, `example.com:8443`. */
export function siteOf(url: URL): string {
  const { host, port } = siteParts(url);
  return port ? `${host}:${port}` : host;
}

export function isSameSite(url: URL, seed: URL): boolean {
  return siteOf(url) === siteOf(seed);
}

/**
 * A strict subdomain of the seed's site, on the same port: `docs.example.com` for a seed on
 * `www.example.com` or `example.com`. The seed's parent domain is not included.
 */
export function isSubdomainOf(url: URL, seed: URL): boolean {
  const own = siteParts(url);
  const site = siteParts(seed);
  return own.port === site.port && own.host.endsWith(`.${site.host}`);
}
