import { describe, expect, it } from 'vitest';
import { processPage } from './index.js';

async function metadataOf(body: string, url = 'https://example.com/blog/post') {
  return (await processPage({ body, url, formats: new Set(['markdown']) })).metadata;
}

describe('metadata', () => {
  it('collects named keys and every other meta as open, lower-cased keys (arrays when repeated)', async () => {
    const html = `<!doctype html><html lang="en-GB"><head>
      <title>  The   Post
      </title>
      <meta name="Description" content="What the post is about">
      <meta name="keywords" content="a, b">
      <meta name="robots" content="index, follow">
      <meta property="og:title" content="OG Post">
      <meta property="og:image" content="/img/cover.png">
      <meta property="og:image" content="/img/second.png">
      <meta name="twitter:card" content="summary">
      <meta property="article:tag" content="x"><meta property="article:tag" content="y"><meta property="article:tag" content="x">
      <meta name="DC.Title" content="Dublin">
      <meta name="viewport" content="width=device-width">
      <meta name="empty" content="">
      <meta name="statusCode" content="999"><meta name="__proto__" content="polluted">
      <meta charset="utf-8"><meta http-equiv="refresh" content="30">
      <link rel="canonical" href="/blog/post?ref=canon">
      <link rel="shortcut icon" href="/favicon.ico">
    </head><body><p>x</p></body></html>`;
    expect(await metadataOf(html)).toEqual({
      contentType: 'text/html',
      title: 'The Post',
      description: 'What the post is about',
      language: 'en-GB',
      ogImage: 'https://example.com/img/cover.png',
      keywords: 'a, b',
      robots: 'index, follow',
      canonical: 'https://example.com/blog/post?ref=canon',
      favicon: 'https://example.com/favicon.ico',
      'og:title': 'OG Post',
      'og:image': ['/img/cover.png', '/img/second.png'],
      'twitter:card': 'summary',
      'article:tag': ['x', 'y'],
      'dc.title': 'Dublin',
      viewport: 'width=device-width',
    });
  });

  it('falls back to og:title, og:description and the content-language meta', async () => {
    const html = `<head><meta property="og:title" content="From OG"><meta property="og:description" content="OG desc">
      <meta http-equiv="Content-Language" content="de, en"></head><body><svg><title>icon</title></svg></body>`;
    expect(await metadataOf(html)).toEqual({
      contentType: 'text/html',
      title: 'From OG',
      description: 'OG desc',
      language: 'de',
      'og:title': 'From OG',
      'og:description': 'OG desc',
    });
  });

  it('resolves og:image and canonical against <base href>', async () => {
    const html = '<head><base href="https://cdn.example.net/assets/"><meta property="og:image" content="og.png"><link rel="canonical" href="page"></head>';
    const metadata = await metadataOf(html);
    expect([metadata.ogImage, metadata.canonical]).toEqual(['https://cdn.example.net/assets/og.png', 'https://cdn.example.net/assets/page']);
  });

  it('has only contentType for a bare document', async () => {
    expect(await metadataOf('<p>hello</p>')).toEqual({ contentType: 'text/html' });
  });
});
