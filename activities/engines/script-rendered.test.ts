/** looksScriptRendered: explicit cases, and agreement with the plain whole-page definition on generated pages. */
import { describe, expect, it } from 'vitest';
import { looksScriptRendered, MIN_VISIBLE_TEXT } from './script-rendered.js';

/** The definition, written plainly over the whole page: what the scanning version must always agree with. */
function reference(html: string, contentType = 'text/html'): boolean {
  if (!contentType.includes('html')) return false;
  if (!/<script\b/i.test(html)) return false;
  if (/<div[^>]+id=["']?(root|app|__next|__nuxt)["']?[^>]*>\s*<\/div>/i.test(html)) return true;
  const bodyStart = html.search(/<body\b/i);
  const text = html
    .slice(bodyStart < 0 ? 0 : bodyStart)
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length < MIN_VISIBLE_TEXT;
}

const check = (html: string, contentType = 'text/html; charset=utf-8') => looksScriptRendered({ contentType, body: html });
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i % 10}`).join(' ');

describe('looksScriptRendered', () => {
  it('is false without scripts, however little text', () => {
    expect(check('<html><body><div id="root"></div></body></html>')).toBe(false);
  });

  it('is true for an empty app root with scripts, whatever the text', () => {
    expect(check(`<html><body><p>${words(100)}</p><div id="__next"> </div><script src="/app.js"></script></body></html>`)).toBe(true);
  });

  it('counts text outside scripts, styles, noscript and template; tags and entities are spaces', () => {
    const hidden = `<script>${'x'.repeat(500)}</script><style>${'y'.repeat(500)}</style><noscript>${'z'.repeat(500)}</noscript><template>${'t'.repeat(500)}</template>`;
    expect(check(`<html><body>${hidden}<p>short</p></body></html>`)).toBe(true);
    // 99 visible characters: a b&nbsp;c... collapses; one more makes 100.
    const ninetyNine = 'a'.repeat(97) + '&amp;b';
    expect(check(`<body><script></script><p>${ninetyNine}</p></body>`)).toBe(true);
    expect(check(`<body><script></script><p>${ninetyNine}c</p></body>`)).toBe(false);
  });

  it('reads only the body when there is one, and ignores non-HTML content types', () => {
    expect(check(`<html><head><title>${words(200)}</title><script></script></head><body></body></html>`)).toBe(true);
    expect(check(`<script></script>${words(10)}`, 'application/json')).toBe(false);
  });

  it('takes a byte body as well as a string', () => {
    expect(looksScriptRendered({ contentType: 'text/html', body: new TextEncoder().encode('<body><script></script><div id=app></div></body>') })).toBe(true);
  });

  it('agrees with the whole-page definition on 3,000 generated pages', () => {
    let state = 20261124; // xorshift32: the same pages every run
    const rand = (n: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % n;
    };
    const markup = ['<script>var a = 1;</script>', '<SCRIPT src=x></script >', '<style>p { color: red }</style>', '<noscript>enable JS</noscript>', '<template><p>t</p></template>', '<p>', '</p>', '<div id="root">', '<div class=a id=app>', '</div>', '<body>', '<BODY class=x>', '&amp;', '&#160;', '&bogus', '&;', '<>'];
    // Rare: a lone angle bracket, which takes everything up to the next one for a tag.
    const brackets = ['<', '>'];
    // Rare: an element left open swallows the rest of the page in the definition too.
    const unbalanced = ['<script>', '</script>', '<style>', '<noscript>', '</template>'];
    const text = [' ', '\n', '\u00a0', 'a', 'bc', 'lorem ipsum ', '1234567890', 'é'];
    const outcomes = { rendered: 0, content: 0 };
    for (let n = 0; n < 3000; n++) {
      let html = rand(4) === 0 ? '' : '<script src="/app.js"></script>';
      const length = rand(200);
      for (let k = 0; k < length; k++) {
        const r = rand(400);
        html += r === 0 ? unbalanced[rand(unbalanced.length)] : r < 4 ? brackets[rand(2)] : r < 120 ? markup[rand(markup.length)] : text[rand(text.length)];
      }
      const verdict = check(html);
      expect([html, verdict]).toEqual([html, reference(html)]);
      if (/<script\b/i.test(html)) outcomes[verdict ? 'rendered' : 'content']++;
    }
    expect(outcomes.rendered).toBeGreaterThan(300);
    expect(outcomes.content).toBeGreaterThan(300);
  });
});
