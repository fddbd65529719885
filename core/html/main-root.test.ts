import { describe, expect, it } from 'vitest';
import { measure } from './content-score.js';
import { isWithin, parseHtml } from './dom.js';
import { chooseRoot, isDocumentUrl } from './main-root.js';

const prose = (topic: string) =>
  `<p>${[1, 2, 3, 4].map((day) => `The ${topic} report, published on day ${day}, says the council, the city and the county agreed on the plan after a long debate.`).join(' ')}</p>`;

describe('chooseRoot', () => {
  it('does not widen the story to a wrapper whose added prose is half in links (a column of other stories); does when the sections it adds are prose', () => {
    const story = `<h1>Council approves the river plan</h1>${['river', 'budget', 'flood', 'bridge'].map(prose).join('')}`;
    const card = (i: number) => `<div class="k"><p>Upgrade your home, cut your costs, and compare the plans, the prices and the people who sell them, in ${i} steps.</p><p><a href="/2025/11/other-${i}">Other story number ${i}: what the week brought to the homes of the city</a></p></div>`;
    const rootOf = (html: string): string => {
      const body = parseHtml(`<html><body>${html}</body></html>`).body;
      return chooseRoot(body, measure(body), 'https://news.example/2026/11/story').root.className;
    };
    // The column adds 30 points of prose to the story's 64, with 38 % of its text in links.
    expect(rootOf(`<div class="node"><div class="body">${story}</div><div class="col2">${[0, 1, 2, 3, 4, 5].map(card).join('')}</div></div>`)).toBe('body');
    // The same amount of prose outside links: the page's text goes on in the next section.
    const section = (i: number) => `<div class="k"><p>Upgrade your home, cut your costs, and compare the plans, the prices and the people who sell them, in ${i} steps.</p></div>`;
    expect(rootOf(`<div class="node"><div class="body">${story}</div><div class="col2">${[0, 1, 2, 3, 4, 5].map(section).join('')}</div></div>`)).toBe('node');
  });
});

describe('chooseRoot with a body the page marks (itemprop="articleBody")', () => {
  const story = `<h1>Council approves the river plan</h1>${['river', 'budget', 'flood', 'bridge', 'school'].map(prose).join('')}`;
  const faq = `<div class="faq"><h2>Frequently asked questions</h2>${[0, 1, 2, 3, 4, 5, 6].map((i) => `<div class="item"><h3>What does question ${i} ask about the plan?</h3><p>The council, the city and the county will answer question ${i} in the spring, after the hearings, the surveys and the vote.</p></div>`).join('')}</div>`;
  const choose = (html: string) => {
    const body = parseHtml(`<html><body>${html}</body></html>`).body;
    const chosen = chooseRoot(body, measure(body), 'https://news.example/2026/11/river-plan');
    const kept = (selector: string): boolean => {
      const el = body.querySelector(selector)!;
      return isWithin(el, chosen.root) && ![...chosen.drop].some((d) => isWithin(el, d));
    };
    return { root: chosen.root, kept };
  };

  it('keeps to the marked body: a FAQ after it in the article is not the story', () => {
    const page = (marked: string) => `<main><article class="post"><div class="entry"${marked}>${story}</div>${faq}</article></main>`;
    // Unmarked, the FAQ's answers outscore the story and the whole main is the root.
    expect(choose(page('')).root.localName).toBe('main');
    expect(choose(page('')).kept('.faq')).toBe(true);
    const marked = choose(page(' itemprop="articleBody"'));
    expect(marked.root.className).toBe('entry');
    expect(marked.kept('.faq')).toBe(false);
  });

  it('still widens to a thread whose first post is the one marked: three good replies share the thread', () => {
    const post = (who: string) => `<div class="post"${who === 'ann' ? ' itemprop="articleBody"' : ''}>${prose(`${who}'s`)}</div>`;
    expect(choose(`<div class="thread">${['ann', 'bob', 'cy', 'dee'].map(post).join('')}</div>`).root.className).toBe('thread');
  });

  it('is not taken when two blocks are marked: the page does not say which is the story', () => {
    const page = `<main><article class="post"><div class="entry" itemprop="articleBody">${story}</div><div itemprop="articleBody">${faq}</div></article></main>`;
    expect(choose(page).root.localName).toBe('main');
  });
});

describe('chooseRoot on a short intro above a hub\'s items', () => {
  it('takes the whole page on a category\'s URL, where the intro is not most of the text; the intro alone on a document\'s', () => {
    const intro = `<div class="intro"><h1>Air fryer recipes</h1><p>Crisp, quick and easy: these recipes, tested at home, use little oil, few dishes and ten minutes of work, and most of them are ready in half an hour.</p></div>`;
    const items = Array.from({ length: 12 }, (_, i) => `<li><a href="/recipes/dish-${i}">Air fryer dish number ${i} with crispy potatoes and garlic</a></li>`).join('');
    const rootOf = (url: string): string => {
      const body = parseHtml(`<html><body>${intro}<ul class="grid">${items}</ul></body></html>`).body;
      return chooseRoot(body, measure(body), url).root.localName;
    };
    expect(rootOf('https://food.example/category/recipes/air-fryer/')).toBe('body');
    expect(rootOf('https://food.example/2026/11/air-fryer-recipes/')).toBe('div');
  });
});

describe('isDocumentUrl', () => {
  it('names one document by a date in the path or a part of it, a long numeric id or a slug of four or more words (a year is one)', () => {
    for (const url of [
      'http://livenews.example/Articles/2008/01/14/Rabbitohs_ready',
      'https://news.example/2024/03/',
      'http://publications.example/index.cfm?fuseaction=Articles.show&art_aid=73388',
      'https://shop.example/listing/615442107/ceramic-mug',
      'https://forum.example/showthread.php?t=186269',
      'https://www.meininger.example/wein/lvmh-mit-ordentlichem-wachstum',
      'https://blog.example/posts/how_to_write_a_parser.html',
      'https://zeitung.example/politik/%C3%BCber-die-neue-br%C3%BCcke',
      'http://blog.example/blog/briefe/2010-10-26-18',
      'https://weather.example/news/histalp-oesterreich-jahresbericht-2021',
    ]) expect(isDocumentUrl(url), url).toBe(true);
  });

  it('does not for hubs: a home, a category, a service page, a short path, pagination, or no URL', () => {
    for (const url of [
      'https://example.com/',
      'https://clinic.example/dental-care/',
      'https://shop.example/products/bike',
      'https://agency.example/services/hr-solutions/hr-consulting/',
      'https://news.example/category/world?page=12',
      'https://shop.example/collections/summer-sale-2024',
      'https://news.example/%E0%A4%A',
      'not a url',
    ]) expect(isDocumentUrl(url), url).toBe(false);
  });
});
