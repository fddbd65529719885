import { describe, expect, it } from 'vitest';
import { InvalidSelectorError, processPage, validateSelectors } from './index.js';

const url = 'https://example.com/';
const page = `<body>
  <div id="top" class="banner promo"><p>Top banner</p></div>
  <article class="post"><h1>Title</h1><p class="lead">Lead</p><div class="ad"><p>Ad</p></div>
    <section><p data-kind="note">Note</p><p>Plain</p></section></article>
  <aside><p>Aside</p><p class="lead">Aside lead</p></aside>
</body>`;

async function markdownWith(options: { includeTags?: string[]; excludeTags?: string[] }) {
  const result = await processPage({ body: page, url, formats: new Set(['markdown', 'html']), ...options });
  return { markdown: result.markdown, matchedNothing: result.includeTagsMatchedNothing };
}

describe('includeTags and excludeTags', () => {
  it('keeps only elements matching includeTags, with their descendants, in document order', async () => {
    expect(await markdownWith({ includeTags: ['aside', '#top'] })).toEqual({
      markdown: 'Top banner\n\nAside\n\nAside lead',
      matchedNothing: undefined,
    });
  });

  it('gives the included elements themselves, with their tags, as the html format', async () => {
    const result = await processPage({ body: page, url, formats: new Set(['html', 'markdown']), includeTags: ['h1', '.lead'] });
    expect(result.html).toBe('<h1>Title</h1><p class="lead">Lead</p><p class="lead">Aside lead</p>');
    expect(result.markdown).toBe('# Title\n\nLead\n\nAside lead');
  });

  it('supports class, attribute, child and descendant combinators and comma lists', async () => {
    expect((await markdownWith({ includeTags: ['article > .lead, [data-kind="note"]'] })).markdown).toBe('Lead\n\nNote');
    expect((await markdownWith({ includeTags: ['article section p'] })).markdown).toBe('Note\n\nPlain');
  });

  it('keeps an element once when it is nested inside another included element', async () => {
    expect((await markdownWith({ includeTags: ['section', 'section p'] })).markdown).toBe('Note\n\nPlain');
  });

  it('removes elements matching excludeTags', async () => {
    expect((await markdownWith({ excludeTags: ['.ad', 'aside', '#top', 'section p:first-child'] })).markdown).toBe('# Title\n\nLead\n\nPlain');
  });

  it('lets removal win over inclusion', async () => {
    expect((await markdownWith({ includeTags: ['article'], excludeTags: ['.ad', 'section'] })).markdown).toBe('# Title\n\nLead');
    expect((await markdownWith({ includeTags: ['.ad p', 'aside'], excludeTags: ['.ad'] })).markdown).toBe('Aside\n\nAside lead');
  });

  it('returns empty content and a flag when includeTags match nothing', async () => {
    const result = await processPage({ body: page, url, formats: new Set(['markdown', 'html', 'links']), includeTags: ['.missing'] });
    expect(result).toEqual({ markdown: '', html: '', links: [], includeTagsMatchedNothing: true, metadata: { contentType: 'text/html' } });
  });

  it('throws InvalidSelectorError naming the selector and the option', async () => {
    const error = await processPage({ body: page, url, formats: new Set(['markdown']), includeTags: ['p', 'div['] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSelectorError);
    expect(error).toMatchObject({ selector: 'div[', option: 'includeTags', code: 'invalid_selector' });
    expect((error as Error).message).toMatch(/^Invalid CSS selector in includeTags: "div\[" \(/);
  });

  it('rejects bad excludeTags even when no content format is requested', async () => {
    const error = await processPage({ body: page, url, formats: new Set(['links']), excludeTags: ['p >'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'InvalidSelectorError', selector: 'p >', option: 'excludeTags' });
  });

  it('validates selectors without a page, for the API edge', () => {
    const invalid = ['', '  ', 'a::before', 'p:hover', 'li:where(.x)', ':unknown', '##id', 'div..x', '>p'];
    for (const selector of invalid) {
      expect(() => validateSelectors({ excludeTags: [selector] }), selector).toThrow(InvalidSelectorError);
    }
    const valid = ['div', '.a.b', '#id', '[href^="http"]', 'a[title=":hover"]', 'ul > li:nth-child(2n+1)', 'p:not(.x)', 'div:has(p)', 'h1, h2', 'a ~ b', 'a + b'];
    expect(() => validateSelectors({ includeTags: valid })).not.toThrow();
  });
});
