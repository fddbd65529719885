import { describe, expect, it } from 'vitest';
import { processPage } from './index.js';
import { resolveSrcset } from './resolve.js';

const url = 'https://example.com/docs/guide/intro.html?lang=en#top';

async function run(body: string, formats: Array<'markdown' | 'html' | 'links'>) {
  return processPage({ body, url, formats: new Set(formats) });
}

describe('links format', () => {
  it('returns absolute http(s) links, fragment-free, deduplicated in document order', async () => {
    const html = `<nav><a href="/">Home</a><a href="#top">Top</a><a href="#">Hash</a><a href="">Self</a></nav>
      <a href="next.html">Next</a> <a href="next.html#part-2">Next, part 2</a> <a href="../api/">API</a>
      <a href="https://Other.example.org:443/a?b=1#c">Other</a> <a href="//cdn.example.com/x">Proto-relative</a>
      <a href="mailto:a@b.c">Mail</a> <a href="tel:+1">Tel</a> <a href="javascript:go()">JS</a> <a href="data:text/html,x">Data</a>
      <a href="ftp://files.example.com/f">FTP</a> <a href="http://[bad">Bad</a> <a href="/">Home again</a>
      <map><area href="/area" alt="a"></map> <a name="anchor">No href</a>`;
    expect((await run(html, ['links'])).links).toEqual([
      'https://example.com/',
      'https://example.com/docs/guide/next.html',
      'https://example.com/docs/api/',
      'https://other.example.org/a?b=1',
      'https://cdn.example.com/x',
      'https://example.com/area',
    ]);
  });

  it('resolves against <base href>, itself relative to the page URL', async () => {
    const html = '<head><base href="/v2/"></head><body><a href="start">Start</a><a href="/root">Root</a></body>';
    expect((await run(html, ['links'])).links).toEqual(['https://example.com/v2/start', 'https://example.com/root']);
  });

  it('takes links from the whole page even when onlyMainContent and includeTags narrow the content', async () => {
    const html = '<nav><a href="/nav">Nav</a></nav><main><p>Body <a href="/in">in</a></p></main><footer><a href="/foot">F</a></footer>';
    const result = await processPage({ body: html, url, formats: new Set(['links', 'markdown']), onlyMainContent: true, includeTags: ['main'] });
    expect(result.links).toEqual(['https://example.com/nav', 'https://example.com/in', 'https://example.com/foot']);
    expect(result.markdown).toBe('Body [in](https://example.com/in)');
  });
});

describe('URL resolution in content', () => {
  it('makes href, src, srcset and poster absolute against the page URL', async () => {
    const html = `<a href="a.html">a</a><img src="img/x.png" srcset="img/x1.png 1x, /img/x2.png 2x" alt="x">
      <video poster="p.jpg" src="v.mp4"></video><picture><source srcset="s.webp" type="image/webp"></picture>`;
    expect((await run(html, ['html'])).html).toBe(
      '<a href="https://example.com/docs/guide/a.html">a</a><img src="https://example.com/docs/guide/img/x.png" '
        + 'srcset="https://example.com/docs/guide/img/x1.png 1x, https://example.com/img/x2.png 2x" alt="x">\n      '
        + '<video poster="https://example.com/docs/guide/p.jpg" src="https://example.com/docs/guide/v.mp4"></video>'
        + '<picture><source srcset="https://example.com/docs/guide/s.webp" type="image/webp"></picture>',
    );
  });

  it('resolves against <base href> in html and markdown', async () => {
    const html = '<head><base href="https://static.example.net/b/"></head><body><p><a href="x">x</a> <img src="i.png" alt="i"></p></body>';
    const result = await run(html, ['html', 'markdown']);
    expect(result.html).toBe('<p><a href="https://static.example.net/b/x">x</a> <img src="https://static.example.net/b/i.png" alt="i"></p>');
    expect(result.markdown).toBe('[x](https://static.example.net/b/x) ![i](https://static.example.net/b/i.png)');
  });

  it('ignores a <base href> that does not parse', async () => {
    const result = await run('<head><base href="http://[bad/"></head><body><a href="x">x</a></body>', ['markdown']);
    expect(result.markdown).toBe('[x](https://example.com/docs/guide/x)');
  });

  it('parses srcset as HTML does: URLs run to whitespace, so inner commas stay, trailing ones end it', () => {
    expect(resolveSrcset(' a.png, b.png 2x ,c.png,  d,e.png 100w', 'https://e.com/p/')).toBe(
      'https://e.com/p/a.png, https://e.com/p/b.png 2x, https://e.com/p/c.png, https://e.com/p/d,e.png 100w',
    );
  });
});
