/** POST /v1/map end to end: sitemaps (index, gzip), the seed page's links, filters, search ranking and limit. */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

let site: FixtureServer;
let stack: TestStack;
let base: string;

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;

beforeAll(async () => {
  const routes = {
    '/': (_q: unknown, res: import('node:http').ServerResponse) =>
      html(
        `<html><body><a href="/pricing">Pricing</a> <a href="/docs/api/auth">Auth</a> <a href="/blog/">Blog</a> <a href="/docs/intro#top">Intro again</a>
         <a href="http://docs.localhost:${site.port}/guide">Docs subdomain</a> <a href="https://other.example/x">Elsewhere</a> <a href="/logo.png">Logo</a></body></html>`,
      )(_q as never, res, ''),
    '/robots.txt': (_q: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap-index.xml\n`),
    '/sitemap-index.xml': (_q: unknown, res: import('node:http').ServerResponse) =>
      void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/pages.xml.gz</loc></sitemap></sitemapindex>`),
    '/pages.xml.gz': (_q: unknown, res: import('node:http').ServerResponse) =>
      void res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(urlset([`${base}/docs/intro`, `${base}/docs/api/errors`, `${base}/about`, `${base}/blog/2026/11/hello`]))),
  };
  site = await startFixtureServer(routes as never);
  base = `http://localhost:${site.port}`;
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const map = (body: Record<string, unknown>) => stack.post('/v1/map', body);

describe('POST /v1/map', () => {
  it('lists the seed, sitemap URLs (index and gzip) and page links once each, same site only, no content', async () => {
    const res = await map({ url: base });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['links', 'scrape_id', 'success']);
    expect(res.body.links).toEqual([
      `${base}/`,
      `${base}/docs/intro`,
      `${base}/docs/api/errors`,
      `${base}/about`,
      `${base}/blog/2026/11/hello`,
      `${base}/pricing`,
      `${base}/docs/api/auth`,
      `${base}/blog/`,
    ]);
    // The sitemap's pages were listed, not fetched.
    expect(site.hitsFor('/docs/intro')).toHaveLength(0);
    expect(site.hitsFor('/about')).toHaveLength(0);
  });

  it('ranks URLs matching the search first and cuts at limit', async () => {
    const res = await map({ url: base, search: 'docs api', limit: 3 });
    expect(res.body.links).toEqual([`${base}/docs/api/errors`, `${base}/docs/api/auth`, `${base}/docs/intro`]);
  });

  it('adds subdomains with includeSubdomains and other sites with allowExternalLinks', async () => {
    const subs = (await map({ url: base, includeSubdomains: true })).body.links as string[];
    expect(subs).toContain(`http://docs.localhost:${site.port}/guide`);
    expect(subs).not.toContain('https://other.example/x');
    const external = (await map({ url: base, allowExternalLinks: true })).body.links as string[];
    expect(external).toContain('https://other.example/x');
  });

  it('applies includePaths, excludePaths and maxDepth', async () => {
    expect((await map({ url: base, includePaths: ['/docs/**'] })).body.links).toEqual([`${base}/docs/intro`, `${base}/docs/api/errors`, `${base}/docs/api/auth`]);
    expect((await map({ url: base, excludePaths: ['^/blog'] })).body.links).toEqual([`${base}/`, `${base}/docs/intro`, `${base}/docs/api/errors`, `${base}/about`, `${base}/pricing`, `${base}/docs/api/auth`]);
    expect((await map({ url: base, maxDepth: 1 })).body.links).toEqual([`${base}/`, `${base}/about`, `${base}/pricing`, `${base}/blog/`]);
  });

  it('skips sitemaps with ignoreSitemap', async () => {
    const before = site.hitsFor('/robots.txt').length;
    expect((await map({ url: base, ignoreSitemap: true })).body.links).toEqual([`${base}/`, `${base}/pricing`, `${base}/docs/api/auth`, `${base}/blog/`, `${base}/docs/intro`]);
    expect(site.hitsFor('/robots.txt')).toHaveLength(before);
  });

  it.each([0, 5001])('refuses limit %i with 400', async (limit) => {
    const res = await map({ url: base, limit });
    expect(res.status).toBe(400);
    expect((res.body.details as { field: string }[])[0]!.field).toBe('limit');
  });
});
