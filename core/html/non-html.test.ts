import { describe, expect, it } from 'vitest';
import { processPage, UnsupportedContentTypeError } from './index.js';

const url = 'https://example.com/data';
const all = new Set(['markdown', 'html', 'rawHtml', 'links'] as const);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('non-HTML bodies', () => {
  it('returns text/plain as markdown unchanged', async () => {
    const text = '# not a heading?\nLine 2 <b>not html</b>\n';
    expect(await processPage({ body: bytes(text), contentType: 'text/plain; charset=utf-8', url, formats: all })).toEqual({
      markdown: text,
      html: '<pre># not a heading?\nLine 2 &lt;b&gt;not html&lt;/b&gt;\n</pre>',
      rawHtml: text,
      links: [],
      metadata: { contentType: 'text/plain' },
    });
  });

  it('pretty-prints JSON in a json code fence', async () => {
    const json = '{"a":1,"b":["x","```"]}';
    const result = await processPage({ body: bytes(json), contentType: 'application/json', url, formats: all });
    expect(result).toEqual({
      markdown: '````json\n{\n  "a": 1,\n  "b": [\n    "x",\n    "```"\n  ]\n}\n````',
      html: '<pre><code class="language-json">{&quot;a&quot;:1,&quot;b&quot;:[&quot;x&quot;,&quot;```&quot;]}</code></pre>',
      rawHtml: json,
      links: [],
      metadata: { contentType: 'application/json' },
    });
  });

  it('treats +json media types as JSON and keeps invalid JSON as it came', async () => {
    const result = await processPage({ body: '{"broken": ', contentType: 'application/ld+json', url, formats: new Set(['markdown']) });
    expect(result).toEqual({ markdown: '```json\n{"broken": \n```', metadata: { contentType: 'application/ld+json' } });
  });

  it('fences XML feeds as xml', async () => {
    const xml = '<?xml version="1.0"?>\n<rss><channel><title>T</title></channel></rss>\n';
    const result = await processPage({ body: xml, contentType: 'application/rss+xml', url, formats: new Set(['markdown']) });
    expect(result.markdown).toBe('```xml\n<?xml version="1.0"?>\n<rss><channel><title>T</title></channel></rss>\n```');
  });

  it('sniffs markup served as application/octet-stream', async () => {
    const result = await processPage({ body: bytes('  <p>Hi</p>'), contentType: 'application/octet-stream', url, formats: new Set(['markdown']) });
    expect(result).toEqual({ markdown: 'Hi', metadata: { contentType: 'text/html' } });
  });

  it('rejects binary bodies that are not PDF', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await expect(processPage({ body: png, contentType: 'image/png', url, formats: all })).rejects.toThrow(UnsupportedContentTypeError);
    await expect(processPage({ body: png, url, formats: all })).rejects.toMatchObject({ contentType: 'application/octet-stream' });
  });
});
