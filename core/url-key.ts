/**
 * The dedupe key of a URL (spec, "Crawl rules"): variants that differ only in scheme, a `www.`
 * prefix, host case, default port, trailing slash or fragment are the same page. The query string
 * is kept as is (reordering parameters can change what a server returns), unless `ignoreQuery`
 * (a crawl's ignoreQueryParameters) drops it.
 */
export function urlKey(input: string | URL, options: { ignoreQuery?: boolean } = {}): string {
  const url = typeof input === 'string' ? new URL(input) : input;
  const host = url.hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
  const defaultPort = url.port === '' || (url.protocol === 'http:' && url.port === '80') || (url.protocol === 'https:' && url.port === '443');
  let path = url.pathname || '/';
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  return `${host}${defaultPort ? '' : `:${url.port}`}${path}${options.ignoreQuery ? '' : url.search}`;
}
