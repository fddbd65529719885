/**
 * core/html/markdown.ts writes what turndown (with the same options and rules,
 * test/helpers/turndown-markdown.ts) writes, on generated pages that mix every element the
 * converter treats specially with the whitespace, markdown syntax and nesting that make its edge
 * rules matter; on the benchmark's article pages; and on the pipeline's own cleaned trees.
 */
import { describe, expect, it } from 'vitest';
import { articlePage } from '../../bench/html-fixture.js';
import { turndownMarkdown } from '../../test/helpers/turndown-markdown.js';
import { parseHtml } from './dom.js';
import { toMarkdown } from './markdown.js';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const TEXTS = [
  'word', 'two words', ' lead', 'trail ', '  both  ', ' ', '\n', '\t \n ', '\u00a0', ' \u00a0 ', '\u2003x\u2003', 'a\u00a0 b',
  '*star*', '_under_', '`tick`', '``', '[br]ack', 'back\\slash', '# hash', '#no', '- dash', '+ plus', '+x', '=== eq', '> quote',
  '~~~ fence', '1. one', '12. twelve', '3.x', 'a | pipe', '<escaped>', '&amp; &lt;', 'line\r\nbreak', '```', 'x```y', '\u200b',
];
const INLINE = ['b', 'strong', 'i', 'em', 'code', 'span', 'a', 'del', 's', 'sup', 'label', 'small', 'mark', 'abbr', 'kbd', 'u'];
const BLOCKS = ['p', 'div', 'section', 'article', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'ul', 'ol', 'table', 'figure', 'figcaption', 'dl', 'dt', 'dd', 'header', 'footer', 'nav', 'aside', 'address', 'center', 'form', 'fieldset'];
const VOIDS = ['<br>', '<hr>', '<img src="/a.png" alt="a [b]">', '<img src="data:image/png;base64,AAAA" alt="x">', '<img alt="no src">', '<img src="/p (1).png">', '<img src="/sp ace.png" alt="  many\n spaces ">', '<input type="text">', '<wbr>'];
const HREFS = ['https://example.com/x', '/rel', 'a (b)', 'with space', '', '#frag', 'https://e.com/<x>'];
const ATTRS: Record<string, (r: () => number) => string> = {
  a: (r) => (r() < 0.85 ? ` href="${HREFS[Math.floor(r() * HREFS.length)]}"` : ''),
  ol: (r) => (r() < 0.4 ? ` start="${['3', '0', '-2', 'x', '10'][Math.floor(r() * 5)]}"` : ''),
  pre: (r) => (r() < 0.5 ? ` class="language-${['js', 'py', 'c++'][Math.floor(r() * 3)]}"` : r() < 0.3 ? ' data-lang="rust!"' : ''),
  code: (r) => (r() < 0.3 ? ' class="lang-ts"' : ''),
  td: (r) => (r() < 0.2 ? ` colspan="${Math.floor(r() * 3) + 1}"` : ''),
};

/** A random fragment of HTML, `depth` levels deep at most. */
function fragment(r: () => number, depth: number): string {
  const n = Math.floor(r() * 5);
  let html = '';
  for (let i = 0; i < n; i++) {
    const pick = r();
    if (pick < 0.3 || depth === 0) html += TEXTS[Math.floor(r() * TEXTS.length)].replace(/</g, '&lt;');
    else if (pick < 0.55) html += element(r, INLINE[Math.floor(r() * INLINE.length)], depth);
    else if (pick < 0.8) html += element(r, BLOCKS[Math.floor(r() * BLOCKS.length)], depth);
    else if (pick < 0.9) html += VOIDS[Math.floor(r() * VOIDS.length)];
    else if (pick < 0.95) html += '<!-- comment -->';
    else html += r() < 0.5 ? '\n  ' : ' ';
  }
  return html;
}

function element(r: () => number, tag: string, depth: number): string {
  const attrs = ATTRS[tag]?.(r) ?? '';
  if (tag === 'ul' || tag === 'ol') {
    let items = '';
    const n = Math.floor(r() * 4);
    for (let i = 0; i < n; i++) items += `${r() < 0.3 ? '\n ' : ''}<li>${fragment(r, depth - 1)}</li>`;
    return `<${tag}${attrs}>${items}</${tag}>`;
  }
  if (tag === 'table') {
    const rows = Math.floor(r() * 4);
    let body = r() < 0.3 ? `<caption>${fragment(r, depth - 1)}</caption>` : '';
    const head = r() < 0.5;
    if (head) body += `<thead><tr><th>${fragment(r, 0)}</th><th>h</th></tr></thead>`;
    body += r() < 0.5 ? '<tbody>' : '';
    for (let i = 0; i < rows; i++) {
      const cells = Math.floor(r() * 4);
      let row = '';
      for (let c = 0; c < cells; c++) {
        const cell = r() < 0.2 ? 'th' : 'td';
        row += `<${cell}${ATTRS.td(r)}>${fragment(r, depth - 1)}</${cell}>`;
      }
      body += `<tr>${row}</tr>`;
    }
    return `<table>${body}</table>`;
  }
  if (tag === 'pre') {
    const inner = r() < 0.6 ? `<code${ATTRS.code(r)}>${fragment(r, 1)}\n\`\`\`\`\nx<br>y</code>` : `${fragment(r, 1)}<div>line</div>  two\n\n`;
    return `<pre${attrs}>${inner}</pre>`;
  }
  if (tag === 'dl') return `<dl><dt>${fragment(r, depth - 1)}</dt><dd>${fragment(r, depth - 1)}</dd></dl>`;
  return `<${tag}${attrs}>${fragment(r, depth - 1)}</${tag}>`;
}

function both(html: string): [string, string] {
  const reference = turndownMarkdown(parseHtml(html).body);
  const ours = toMarkdown(parseHtml(html).body);
  return [ours, reference];
}

describe('markdown converter against turndown', () => {
  it('writes the same markdown as turndown on 4,000 generated pages', () => {
    const r = rng(20261124);
    let differences = 0;
    for (let i = 0; i < 4000; i++) {
      const html = `<body>${fragment(r, 5)}</body>`;
      const [ours, reference] = both(html);
      if (ours !== reference) differences++;
      expect({ html, markdown: ours }).toEqual({ html, markdown: reference });
    }
    expect(differences).toBe(0);
  });

  it('writes the same markdown as turndown on the benchmark article pages', () => {
    for (const size of [5_000, 20_000, 200_000]) {
      const [ours, reference] = both(articlePage(size));
      expect(ours.length).toBeGreaterThan(size / 10);
      expect(ours).toBe(reference);
    }
  });

  it('writes the same markdown as turndown for a root that is not the body, and an empty one', () => {
    const html = '<body><main><h1>T</h1><p> a <b> b </b>c</p></main><p></p></body>';
    const ours = toMarkdown(parseHtml(html).querySelector('main')!);
    expect(ours).toBe(turndownMarkdown(parseHtml(html).querySelector('main')!));
    expect(ours).toBe('# T\n\na **b** c');
    expect(toMarkdown(parseHtml('').body)).toBe('');
  });
});
