import { describe, expect, it } from 'vitest';
import { parseHtml } from './dom.js';
import { processPage } from './index.js';
import { toMarkdown } from './markdown.js';

const url = 'https://example.com/docs/page.html';

async function markdownOf(body: string): Promise<string | undefined> {
  return (await processPage({ body, url, formats: new Set(['markdown']) })).markdown;
}

describe('markdown: tables', () => {
  it('renders a table with a header row as a GFM table', async () => {
    const html = `<table><thead><tr><th>Name</th><th>Qty</th></tr></thead>
      <tbody><tr><td>Apple</td><td>3</td></tr><tr><td><b>Pear</b></td><td>10</td></tr></tbody></table>`;
    expect(await markdownOf(html)).toBe('| Name | Qty |\n| --- | --- |\n| Apple | 3 |\n| **Pear** | 10 |');
  });

  it('treats a first row of th cells as the header even without thead', async () => {
    const html = '<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>';
    expect(await markdownOf(html)).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |');
  });

  it('gives a header-less table an empty header so every row stays data', async () => {
    const html = '<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>';
    expect(await markdownOf(html)).toBe('|  |  |\n| --- | --- |\n| a | b |\n| c | d |');
  });

  it('escapes pipes in cells and flattens line breaks and paragraphs to one line', async () => {
    const html = '<table><tr><th>Expr</th><th>Note</th></tr><tr><td>a | b</td><td><p>one</p><p>two<br>three</p></td></tr></table>';
    expect(await markdownOf(html)).toBe('| Expr | Note |\n| --- | --- |\n| a \\| b | one two three |');
  });

  it('pads short rows and expands colspan', async () => {
    const html = '<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td colspan="2">wide</td><td>c</td></tr><tr><td>x</td></tr></table>';
    expect(await markdownOf(html)).toBe('| A | B | C |\n| --- | --- | --- |\n| wide |  | c |\n| x |  |  |');
  });

  it('writes a row or cell converted on its own (a main content root) as plain blocks', () => {
    const doc = parseHtml('<table><tr><td><p>First paragraph.</p><p>Second one.</p></td><td>side</td></tr></table>');
    const row = doc.querySelector('tr')!;
    expect(toMarkdown(doc.querySelector('td')!)).toBe('First paragraph.\n\nSecond one.');
    expect(toMarkdown(row)).toContain('First paragraph.');
  });

  it('writes a data table converted on its own (a main content root) as a table, not as nothing', () => {
    const doc = parseHtml('<table class="tableList"><tr><td>1</td><td><a href="/b/1">The Hunger Games</a> by Suzanne Collins</td></tr><tr><td>2</td><td>Pride and Prejudice</td></tr></table>');
    expect(toMarkdown(doc.querySelector('table')!)).toBe('|  |  |\n| --- | --- |\n| 1 | [The Hunger Games](/b/1) by Suzanne Collins |\n| 2 | Pride and Prejudice |');
  });

  it('keeps the caption above the table', async () => {
    const html = '<table><caption>Prices</caption><tr><th>A</th></tr><tr><td>1</td></tr></table>';
    expect(await markdownOf(html)).toBe('Prices\n\n| A |\n| --- |\n| 1 |');
  });

  it('unwraps a layout table whose cell holds the article with its title', async () => {
    const html = '<table><tr><td><a href="/">Home</a></td></tr><tr><td><h1>Council approves</h1><p>The plan passed.</p><p>It starts in May.</p></td></tr></table>';
    expect(await markdownOf(html)).toBe('[Home](https://example.com/)\n\n# Council approves\n\nThe plan passed.\n\nIt starts in May.');
  });

  it('unwraps layout tables that contain tables, rendering the inner data table', async () => {
    const html = `<table><tr><td><p>Site</p></td></tr><tr><td>
      <table><tr><th>K</th><th>V</th></tr><tr><td>k</td><td>v</td></tr></table></td></tr></table>`;
    expect(await markdownOf(html)).toBe('Site\n\n| K | V |\n| --- | --- |\n| k | v |');
  });
});

describe('markdown: code', () => {
  it('fences a code block and keeps the language from class="language-x"', async () => {
    const html = '<pre><code class="language-python">def f(x):\n    return x * 2\n</code></pre>';
    expect(await markdownOf(html)).toBe('```python\ndef f(x):\n    return x * 2\n```');
  });

  it('drops highlighter markup and keeps blank lines inside code', async () => {
    const html = '<pre class="lang-js"><code><span class="k">const</span> a = 1;\n\n\n\n<span>a</span>++;</code></pre>';
    expect(await markdownOf(html)).toBe('```js\nconst a = 1;\n\n\n\na++;\n```');
  });

  it('ends a line at each span a highlighter names as a line, once', async () => {
    // Gatsby's highlighted lines carry no newline of their own; Shiki's are followed by one.
    const gatsby = '<pre><code><span class="gatsby-highlight-code-line">a();</span><span class="gatsby-highlight-code-line">  // b</span>\nc();</code></pre>';
    expect(await markdownOf(gatsby)).toBe('```\na();\n  // b\nc();\n```');
    const shiki = '<pre><code><span class="line">x = 1</span>\n<span class="line">y = 2</span></code></pre>';
    expect(await markdownOf(shiki)).toBe('```\nx = 1\ny = 2\n```');
    const prism = '<pre><code><span class="token-line">p</span><span class="token-line">q</span></code></pre>';
    expect(await markdownOf(prism)).toBe('```\np\nq\n```');
    // Not a line: a class that only contains the word (`inline`, `outline`).
    expect(await markdownOf('<pre><code><span class="inline">r</span><span class="outline">s</span></code></pre>')).toBe('```\nrs\n```');
  });

  it('turns <br> inside pre into newlines and uses a longer fence when the code has one', async () => {
    const html = '<pre>line 1<br>```<br>line 3</pre>';
    expect(await markdownOf(html)).toBe('````\nline 1\n```\nline 3\n````');
  });

  it('keeps inline code as code spans', async () => {
    expect(await markdownOf('<p>Call <code>run()</code> now.</p>')).toBe('Call `run()` now.');
  });
});

describe('markdown: links, images and structure', () => {
  it('drops soft hyphens from the text, not from code, and the html format keeps them', async () => {
    const body = '<p>Das Mit&shy;tel&shy;al&shy;ter und <a href="/x">Appli\u00adcations</a> &shy; open</p><pre>a\u00adb</pre>';
    const page = await processPage({ body, url, formats: new Set(['markdown', 'html']) });
    expect(page.markdown).toBe('Das Mittelalter und [Applications](https://example.com/x) open\n\n```\na\u00adb\n```');
    expect(page.html).toContain('Mit\u00adtel\u00adal\u00adter');
  });

  it('renders images with absolute src and alt text', async () => {
    const html = '<p><img src="../img/a.png" alt="A [cat]"> <img src="/b.png"></p>';
    expect(await markdownOf(html)).toBe('![A \\[cat\\]](https://example.com/img/a.png) ![](https://example.com/b.png)');
  });

  it('uses the lazy-loading source when src is a placeholder and drops data: images', async () => {
    const html = '<img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg" alt="r"><img src="data:image/png;base64,AAAA" alt="x">';
    expect(await markdownOf(html)).toBe('![r](https://example.com/real.jpg)');
  });

  it('renders links with absolute hrefs, escapes parentheses, and drops empty and javascript: links', async () => {
    const html = '<p><a href="a(1).html">one</a> <a href="/x"><svg></svg></a> <a href="javascript:void(0)">js</a> <a href="#s">sec</a></p>';
    expect(await markdownOf(html)).toBe('[one](https://example.com/docs/a\\(1\\).html) js [sec](https://example.com/docs/page.html#s)');
  });

  it('flattens block content inside a link into one line of link text', async () => {
    const html = '<a href="/post"><h3>Post title</h3><p>Summary</p></a>';
    expect(await markdownOf(html)).toBe('[Post title Summary](https://example.com/post)');
  });

  it('uses ATX headings, - bullets, numbered lists from start, and * emphasis', async () => {
    const html = `<h1>Title</h1><h2>Sub<br>title</h2><ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul>
      <ol start="3"><li>three</li><li>four</li></ol><p>in<em>word</em> and <strong>bold</strong> and <del>gone</del></p>`;
    expect(await markdownOf(html)).toBe(
      '# Title\n\n## Sub title\n\n- one\n  - nested\n- two\n\n3. three\n4. four\n\nin*word* and **bold** and ~~gone~~',
    );
  });

  it('writes bold in bold once, and one bold word split in two elements as one (no **** runs)', async () => {
    const html = `<h2><b><strong>What is a keyboard?</strong></b></h2><ul><li><a href="/sl"><b><strong>Supervised Learning</strong></b></a><b><strong>:</strong></b> trains on labels.</li>
      <li><strong>S</strong><b>pecific</b> and <em>ta<i>ll</i></em><i>er</i>, <b>a</b> <b>b</b>, <strong><em>both</em></strong></li></ul>`;
    const page = await processPage({ body: html, url, formats: new Set(['markdown', 'html']) });
    expect(page.markdown).toBe('## **What is a keyboard?**\n\n- [**Supervised Learning**](https://example.com/sl)**:** trains on labels.\n- **Specific** and *taller*, **a** **b**, ***both***');
    expect(page.html).toContain('<h2><b>What is a keyboard?</b></h2>');
  });

  it('collapses runs of blank lines and whitespace-only blocks', async () => {
    const html = '<p>a</p><div>   </div><div><br><br></div><p>b</p><p>&nbsp;</p><p>c</p>';
    expect(await markdownOf(html)).toBe('a\n\nb\n\nc');
  });

  it('never lets <title>, scripts, styles, noscript, templates, iframes or svg into the markdown', async () => {
    const html = `<html><head><title>Page title</title><style>p{}</style><script>var a;</script></head>
      <body><script>alert(1)</script><noscript>Enable JS</noscript><template><p>tpl</p></template>
      <iframe src="/x">frame</iframe><svg><title>icon</title><text>svg text</text></svg><p>Body text</p></body></html>`;
    expect(await markdownOf(html)).toBe('Body text');
  });

  it("drops a video's or an audio's fallback for browsers that cannot play it, and keeps the player's images list", async () => {
    const html = `<p>Before</p><video poster="/poster.jpg" controls><source src="/river.mp4" type="video/mp4"><track kind="captions" src="/river.vtt">
      <p>Your browser does not support the video tag.</p></video><audio controls><source src="/talk.mp3"><a href="/talk.mp3">talk.mp3</a></audio><p>After</p>`;
    const page = await processPage({ body: html, url, formats: new Set(['markdown', 'html', 'images']) });
    expect(page.markdown).toBe('Before\n\nAfter');
    expect(page.html).toContain('<source src="https://example.com/river.mp4" type="video/mp4">');
    expect(page.html).not.toContain('does not support');
    expect(page.images).toEqual(['https://example.com/poster.jpg']);
  });

  it('escapes markdown syntax in text', async () => {
    expect(await markdownOf('<p># not a heading</p><p>1. not a list, a_b *c*</p>')).toBe(
      '\\# not a heading\n\n1\\. not a list, a\\_b \\*c\\*',
    );
  });
});
