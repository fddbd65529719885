import { describe, expect, it } from 'vitest';
import { jsonLdArticleBody } from './article-body.js';
import { parseHtml } from './dom.js';
import { processPage } from './index.js';

const sentences = (topic: string) =>
  [1, 2, 3, 4].map((day) => `The ${topic} report, published on day ${day}, says the council, the city and the county agreed on the plan after a long debate.`).join(' ');
const topics = ['river', 'budget', 'flood', 'bridge', 'school'];
const storyText = topics.map(sentences).join('\n\n');

/** The markdown of a page at a story's address, with onlyMainContent. */
const markdownOf = async (html: string) =>
  (await processPage({ body: html, contentType: 'text/html', url: 'https://news.example/2026/11/river-plan', formats: new Set(['markdown']), onlyMainContent: true })).markdown ?? '';

const scripts = (...blocks: string[]): Element[] =>
  Array.from(parseHtml(blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join('')).querySelectorAll('script') as unknown as ArrayLike<Element>);

describe('jsonLdArticleBody', () => {
  it('reads the articleBody of an article nested in a @graph, as text: HTML and entities, even escaped twice, become words', () => {
    const graph = (body: string) => JSON.stringify({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebPage' }, { '@type': 'NewsArticle', articleBody: body }] });
    expect(jsonLdArticleBody(scripts(graph(storyText)))).toBe(storyText);
    expect(jsonLdArticleBody(scripts(graph(`<p><strong>RIVERTON</strong> &ndash; ${storyText}</p>`)))).toBe(`RIVERTON – ${storyText}`);
    expect(jsonLdArticleBody(scripts(graph(`&lt;b&gt;RIVERTON&lt;/b&gt; ${storyText}`)))).toBe(`RIVERTON ${storyText}`);
  });

  it('states nothing for a summary (under 200 characters), for two different bodies, or for broken JSON', () => {
    const article = (body: string) => JSON.stringify({ '@type': 'Article', articleBody: body });
    expect(jsonLdArticleBody(scripts(article('The council approved the river plan.')))).toBeUndefined();
    expect(jsonLdArticleBody(scripts(article(storyText), article(`${storyText} And more.`)))).toBeUndefined();
    // The same body stated twice (an Article and its NewsArticle copy) is one.
    expect(jsonLdArticleBody(scripts(article(storyText), article(storyText)))).toBe(storyText);
    expect(jsonLdArticleBody(scripts(`{"@type": "Article", "articleBody": "${storyText}`))).toBeUndefined();
  });
});

describe('onlyMainContent with the body a page states in its JSON-LD', () => {
  const faq = `<div class="faq"><h2>Frequently asked questions</h2>${[0, 1, 2, 3, 4, 5, 6].map((i) => `<div class="item"><h3>What does question ${i} ask about the plan?</h3><p>The council, the city and the county will answer question ${i} in the spring, after the hearings, the surveys and the vote.</p></div>`).join('')}</div>`;
  const page = (jsonLd: string) =>
    `<html><head><title>River plan</title>${jsonLd}</head><body><main><article class="post"><div class="entry"><h1>Council approves the river plan</h1>${topics.map((t) => `<p>${sentences(t)}</p>`).join('')}</div>${faq}</article></main></body></html>`;

  it('keeps to the block where that text stands: the FAQ after it goes', async () => {
    const stated = `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', headline: 'Council approves the river plan', articleBody: storyText })}</script>`;
    const without = await markdownOf(page(''));
    expect(without).toContain('What does question 3 ask about the plan?');
    const withBody = await markdownOf(page(stated));
    expect(withBody).toContain('# Council approves the river plan');
    for (const topic of topics) expect(withBody).toContain(`The ${topic} report, published on day 4`);
    expect(withBody).not.toContain('Frequently asked questions');
    expect(withBody).not.toContain('What does question 3 ask about the plan?');
  });

  it('is not taken when the stated text is not on the page', async () => {
    const harbour = [1, 2, 3, 4, 5, 6].map((week) => `Ferries to the harbour will run every ${week} hours while the old pier is rebuilt by the port's own crews.`).join(' ');
    const elsewhere = `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', articleBody: harbour })}</script>`;
    expect(await markdownOf(page(elsewhere))).toBe(await markdownOf(page('')));
  });
});

describe('onlyMainContent inside the body a page states', () => {
  const stated = (text: string) => `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', articleBody: text })}</script>`;
  const paragraphs = topics.map((t) => `<p>${sentences(t)}</p>`);
  const productBox = '<div class="product"><h3>Riverside Folding Chair, Set of 2</h3><p>Weatherproof teak that folds flat for the boot of a car. Now 20% off.</p><a href="https://shop.example/chair">$75 at Shop Example</a></div>';
  const bio = '<div class="about"><p>Dana Reyes covers city hall and the county board for the Riverton Ledger, and before that wrote about schools, transit and housing for six years.</p></div>';
  const list = '<ul><li>Hearings start on the first of March</li><li>Surveys close on the last day of April</li><li>The final vote is due in June</li></ul>';
  const subheading = '<div class="heading-wrap"><h2>What happens next for the plan</h2></div>';
  const page = (jsonLd: string, inside: string[]) =>
    `<html><head><title>River plan</title>${jsonLd}</head><body><main><article><h1>Council approves the river plan</h1><div class="story">${inside.join('')}</div></article></main></body></html>`;
  const inside = [paragraphs[0], paragraphs[1], productBox, paragraphs[2], subheading, list, paragraphs[3], paragraphs[4], bio];

  it('drops the blocks the statement leaves out (a product box, the author bio) and keeps its lists and sub-headings', async () => {
    const without = await markdownOf(page('', inside));
    expect(without).toContain('Dana Reyes covers city hall');
    expect(without).toContain('$75 at Shop Example');
    const markdown = await markdownOf(page(stated(storyText), inside));
    expect(markdown).toContain('# Council approves the river plan');
    for (const topic of topics) expect(markdown).toContain(`The ${topic} report, published on day 4`);
    expect(markdown).toContain('## What happens next for the plan');
    expect(markdown).toContain('- Surveys close on the last day of April');
    expect(markdown).not.toContain('Dana Reyes covers city hall');
    expect(markdown).not.toContain('Riverside Folding Chair');
    expect(markdown).not.toContain('$75 at Shop Example');
  });

  it('drops nothing when the statement skips a whole section of the story', async () => {
    const section =
      '<section><h2>How the county voted</h2><p>Seven supervisors met on Tuesday evening; five backed the motion, one abstained, and the chair cast no ballot because she owns land beside the levee.</p>' +
      '<p>Opponents from the farming districts warned that higher water would flood their lower fields every spring, and asked for compensation before any dredging begins.</p></section>';
    const withSection = [...inside.slice(0, 7), section, ...inside.slice(7)];
    const markdown = await markdownOf(page(stated(storyText), withSection));
    expect(markdown).toContain('## How the county voted');
    expect(markdown).toContain('asked for compensation before any dredging begins.');
    expect(markdown).toContain('Dana Reyes covers city hall');
    expect(markdown).toContain('$75 at Shop Example');
  });
});
