import { describe, expect, it } from 'vitest';
import { processPage } from './index.js';

const url = 'https://example.com/post';

async function mainMarkdown(body: string, extra: { includeTags?: string[] } = {}) {
  return (await processPage({ body, url, formats: new Set(['markdown']), onlyMainContent: true, ...extra })).markdown;
}

const chrome = `
  <div id="cookie-banner"><p>We use cookies</p><button>Accept</button></div>
  <header class="site-header"><a href="/">Logo</a><nav><a href="/a">A</a></nav></header>
  <div class="breadcrumbs"><a href="/">Home</a> / Post</div>`;
const footer = `
  <aside class="sidebar"><h3>Popular</h3><p>Other posts</p></aside>
  <div class="ad-slot"><p>Buy things</p></div>
  <footer><p>Copyright</p></footer>`;

describe('onlyMainContent', () => {
  it('prunes nav, header, footer, aside, cookie banner, breadcrumbs and ads around div-based content', async () => {
    const html = `${chrome}<div class="content"><h1>Post</h1><p>Real text.</p>
      <div class="share-buttons"><a href="/s">Share</a></div>
      <form action="/newsletter"><input type="email"><button>Join</button></form></div>${footer}`;
    expect(await mainMarkdown(html)).toBe('# Post\n\nReal text.');
  });

  it('prefers <main>, keeping its own article header and footer', async () => {
    const html = `${chrome}<main><article><header class="article-header"><h1>Title</h1><p>By Ann</p></header>
      <p>Body.</p><footer><p>Corrections: none</p></footer></article></main>${footer}`;
    expect(await mainMarkdown(html)).toBe('# Title\n\nBy Ann\n\nBody.\n\nCorrections: none');
  });

  it('returns the chosen root itself as the html format', async () => {
    const result = await processPage({ body: '<nav>N</nav><main class="m"><p>In <a href="x">x</a></p></main>', url, formats: new Set(['html']), onlyMainContent: true });
    expect(result.html).toBe('<main class="m"><p>In <a href="https://example.com/x">x</a></p></main>');
  });

  it('uses a lone article holding the content, and drops a teaser article in a related block', async () => {
    const content = '<div><h1>Long read</h1><p>Plenty of words that make up most of the page text.</p></div>';
    const story = '<article><p>The story itself, long enough to be most of the page.</p></article>';
    expect(await mainMarkdown(`${chrome}<div class="wrap">${story}<p>Unmarked text outside</p></div>`)).toBe(
      'The story itself, long enough to be most of the page.',
    );
    expect(await mainMarkdown(`<div>${content}<div class="related"><article><p>Tiny</p></article></div></div>`)).toBe(
      '# Long read\n\nPlenty of words that make up most of the page text.',
    );
  });

  it('removes ARIA landmarks, dialogs, hidden elements and screen-reader-only text', async () => {
    const html = `<div role="navigation"><a href="/x">x</a></div><div role="banner">Banner</div><div role="dialog">Modal</div>
      <main><p>Keep</p><p hidden>Hidden</p><p aria-hidden="true">Aria</p><p style="display: none">Styled</p>
      <span class="sr-only">Skip</span><div class="popup-overlay">Pop</div><p class="shadow badge download">Not an ad</p>
      <div class="share is-hidden">Copied</div><div class="u-hidden">Later</div><div class="ipsHide">Menu</div>
      <div class="a-section a-hidden"><h3>Sorry, there was a problem.</h3></div><span class="aok-hidden">Try again</span></main>
      <div role="contentinfo">Footer</div>`;
    expect(await mainMarkdown(html)).toBe('Keep\n\nNot an ad');
  });

  it('keeps closed accordion sections and tab panels not shown yet, whatever hides them, and drops other hidden blocks', async () => {
    const description = Array.from({ length: 3 }, (_, i) => `<p>Part ${i} of the description: a solid oak desk, made by hand, oiled twice, and sized for a small room.</p>`).join('');
    const html = `<main><h1>Oak desk</h1>${description}
      <div class="accordion"><button>Details</button><div class="accordion__content" style="display: none"><p>Oiled oak, 120 by 60 cm, two drawers.</p></div></div>
      <div role="tablist"><button role="tab">Care</button></div><div role="tabpanel" hidden><p>Wipe with a dry cloth.</p></div>
      <div class="cdr-accordion__content_15-1-0" aria-hidden="true"><p>Ships flat, in one box.</p></div><div hidden><p>Hidden for good.</p></div>
      <div aria-hidden="true"><p>A decorative copy.</p></div></main>`;
    const markdown = await mainMarkdown(html);
    expect(markdown).toContain('Part 2 of the description');
    expect(markdown).toContain('Oiled oak, 120 by 60 cm, two drawers.');
    expect(markdown).toContain('Wipe with a dry cloth.');
    expect(markdown).toContain('Ships flat, in one box.');
    expect(markdown).not.toContain('A decorative copy');
    expect(markdown).not.toContain('Hidden for good');
  });

  it('keeps an answer folded under its question or a toggle title, unnamed, and drops a hidden menu a toggle opens', async () => {
    const intro = Array.from({ length: 3 }, (_, i) => `<p>Part ${i} of the guide: what a policy covers, what it costs, and how a claim is paid back.</p>`).join('');
    const html = `<main><h1>Pet insurance</h1>${intro}
      <div class="qa"><div class="q">What does pet insurance cover?</div><div class="a" style="display: none"><p>Accidents, illness and surgery, after a short waiting period.</p></div></div>
      <div class="row"><h3><button aria-expanded="false">Cushioning</button></h3><div class="panel" hidden><p>Soft foam under the heel, firmer at the toe.</p></div></div>
      <div class="bar"><button aria-expanded="false">Menu</button><ul style="display: none"><li><a href="/a">Plans for dogs and cats</a></li><li><a href="/b">Claims and help</a></li></ul></div>
      <div class="note"><span>Shipping</span><div style="display: none"><p>Hidden for good.</p></div></div></main>`;
    const markdown = await mainMarkdown(html);
    expect(markdown).toContain('Part 2 of the guide');
    expect(markdown).toContain('Accidents, illness and surgery, after a short waiting period.');
    expect(markdown).toContain('Soft foam under the heel, firmer at the toe.');
    expect(markdown).not.toContain('Plans for dogs and cats');
    expect(markdown).not.toContain('Hidden for good');
  });

  it('removes the options of drop-downs and toolbars inside the content (sizes, sort orders, review filters)', async () => {
    const options = (label: string, values: string[]) =>
      `<label>${label}</label><div role="combobox" aria-expanded="false">${values[0]}</div><div role="listbox">${values.map((v) => `<div role="option">${v}</div>`).join('')}</div>`;
    const html = `<main><h1>Arrival T-Shirt</h1><p>A lightweight training shirt, with sweat-wicking fabric, flatlock seams and a straight hem.</p>
      ${options('Size', ['xs', 's', 'm', 'l', 'xl'])}<div role="toolbar"><button>Zoom</button><button>Share</button></div>
      <h2>Reviews</h2>${options('Sort by', ['Most recent', 'Oldest first', 'Highest rated'])}<p>Fits well, and the fabric dries fast after a run.</p></main>`;
    const markdown = await mainMarkdown(html);
    expect(markdown).toContain('A lightweight training shirt');
    expect(markdown).toContain('Fits well, and the fabric dries fast');
    for (const control of ['xl', 'Oldest first', 'Highest rated', 'Zoom']) expect(markdown).not.toContain(control);
  });

  it('does not prune a wrapper whose class looks like chrome when it holds the content', async () => {
    const html = `<div class="layout has-sidebar menu-open"><nav>Menu</nav><div><h1>Heading</h1><p>Content</p></div></div>
      <div class="page-header"><h1>Second h1 keeps this</h1></div><div class="post-header"><h2>So does an h2</h2><p>Posted today</p></div>
      <div class="site-footer"><h2>Company</h2><p>Links</p></div>`;
    expect(await mainMarkdown(html)).toBe('# Heading\n\nContent\n\n# Second h1 keeps this\n\n## So does an h2\n\nPosted today');
  });

  it('never empties the page: falls back to the unpruned body when pruning leaves nothing', async () => {
    const html = '<nav><a href="/a">Only</a></nav><footer><p>links</p></footer>';
    expect(await mainMarkdown(html)).toBe('[Only](https://example.com/a)\n\nlinks');
  });

  it('keeps an image-only main content', async () => {
    expect(await mainMarkdown('<nav>Menu</nav><main><img src="/i.png" alt="i"></main>')).toBe('![i](https://example.com/i.png)');
  });

  it('with includeTags, keeps the selected elements and prunes only inside them', async () => {
    const html = '<nav id="n"><a href="/a">A</a></nav><div id="c"><p>Text</p><div class="social">Follow</div></div>';
    expect(await mainMarkdown(html, { includeTags: ['#n', '#c'] })).toBe('[A](https://example.com/a)\n\nText');
  });

  it('with includeTags, keeps a selected block that follows an empty comments anchor', async () => {
    const story = Array.from({ length: 8 }, (_, i) => `<p>The river report, published on day ${i + 1}, says that councils, schools and hospitals will share the cost of the plan over several years.</p>`).join('');
    const html = `<div id="story">${story}<a name="comments"></a></div><div id="replies"><p>Ann: I have lived by the river for years, and I doubt it.</p></div><div id="more"><p>Other stories</p></div>`;
    const md = await mainMarkdown(html, { includeTags: ['#story', '#replies'] });
    expect(md).toContain('published on day 8');
    expect(md).toContain('Ann: I have lived by the river for years, and I doubt it.');
    expect(md).not.toContain('Other stories');
    expect(await mainMarkdown(html)).not.toContain('Ann: I have lived by the river');
  });

  it('leaves the page alone when onlyMainContent is off', async () => {
    const result = await processPage({ body: '<nav>Menu</nav><p>Text</p><footer>Foot</footer>', url, formats: new Set(['markdown']) });
    expect(result.markdown).toBe('Menu\n\nText\n\nFoot');
  });

  it('chooses a block when the parts of an article sit in an inline wrapper (a <span> around <div>s)', async () => {
    const part = (n: number) => `<div class="part"><p>Part ${n} of the article, with plenty of words, commas, clauses, and sentences that read as prose. It goes on for a while, as articles do, so that it scores.</p><p>Another paragraph of part ${n}, again long enough, with commas, to count as a paragraph of the text.</p></div>`;
    const html = `<nav><a href="/">Home</a> <a href="/a">About</a></nav><div id="page"><span class="wrap">${part(1)}${part(2)}${part(3)}${part(4)}</span></div>
      <footer><p>Copyright, all rights reserved</p></footer>`;
    const markdown = await mainMarkdown(html);
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Part ${n} of the article`);
    expect(markdown).not.toContain('Copyright');
  });

  it('reads a page rendered for crawlers inside <noscript> (a Discourse topic) and still drops notices in <noscript>', async () => {
    const post = (who: string, n: number) => `<div class="topic-body crawler-post"><span class="creator">${who}</span><div class="post"><p>Post ${n}: we tried the importer on three servers, and the service stopped each time without a log line, so we set it to restart itself.</p></div></div>`;
    const html = `<section id="splash"><div class="dots"></div><noscript><p>Please enable JavaScript.</p></noscript></section>
      <noscript data-path="/t/a-topic/1"><header><a href="/">Forum</a></header><div id="main-outlet" role="main"><h1>Service will not stay started</h1>${post('ann', 1)}${post('bob', 2)}${post('cy', 3)}</div><footer><nav><a href="/about">About</a></nav></footer></noscript>`;
    const markdown = await mainMarkdown(html);
    expect(markdown).toContain('# Service will not stay started');
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Post ${n}: we tried the importer`);
    expect(markdown).not.toContain('enable JavaScript');
    const notice = await processPage({ body: '<noscript><p>Please enable JavaScript to use this site.</p></noscript><main><p>The article.</p></main>', url, formats: new Set(['markdown']) });
    expect(notice.markdown).toBe('The article.');
  });

  it('puts the parts React streams in hidden <div id="S:n"> (n in base 32) where its $RC/$RS scripts would, in order', async () => {
    const html = `<header><nav><a href="/">Home</a></nav></header><main><h1>Streamed story</h1>
      <!--$?--><template id="B:0"></template><div class="skeleton">Loading…</div><!--/$-->
      <p>The closing paragraph, rendered first, with enough words and commas, like the rest, to be prose of its own.</p></main>
      <footer><p>Footer</p></footer>
      <script>$RC=function(b,c){};$RS=function(a,b){}</script>
      <div hidden id="S:0"><p>The opening paragraph, sent late by the server, with enough words, and commas, to be prose.</p><template id="P:a"></template></div>
      <script>$RC("B:0","S:0")</script>
      <div hidden id="S:a"><p>The middle paragraph, streamed last, fills the placeholder, and it has words, commas, and clauses.</p></div>
      <script>$RS("S:a","P:a")</script>`;
    expect(await mainMarkdown(html)).toBe([
      '# Streamed story',
      'The opening paragraph, sent late by the server, with enough words, and commas, to be prose.',
      'The middle paragraph, streamed last, fills the placeholder, and it has words, commas, and clauses.',
      'The closing paragraph, rendered first, with enough words and commas, like the rest, to be prose of its own.',
    ].join('\n\n'));
    // A saved page that lost its scripts: the segment still fills the placeholder of its number (React's, in base 32).
    const saved = `<main><h1>Saved</h1><template id="P:1f"></template><p>Kept after the placeholder, a sentence, with commas, that reads as prose too.</p></main>
      <div hidden id="S:1f"><p>Streamed into the placeholder, this paragraph has words, commas, and a clause or two.</p></div>`;
    expect(await mainMarkdown(saved)).toBe('# Saved\n\nStreamed into the placeholder, this paragraph has words, commas, and a clause or two.\n\nKept after the placeholder, a sentence, with commas, that reads as prose too.');
  });

  it('places streamed parts that a tag manager\'s <noscript> with a self-closed <iframe /> swallowed', async () => {
    const html = `<main><h1>Deploy in minutes</h1><p>Ship your app with a platform that builds, deploys and scales it, from the first commit on.</p>
      <!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--></main>
      <noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display: none; visibility: hidden;" /></noscript>
      <div hidden id="S:0"><p>Every push builds a preview, every merge deploys to production, and rollbacks take one click, with logs kept for a month.</p></div>
      <script>$RC("B:0","S:0")</script>`;
    const markdown = await mainMarkdown(html);
    expect(markdown).toContain('Every push builds a preview, every merge deploys to production');
    expect(markdown).not.toContain('Loading');
  });

  it('reads a page whose only prose is a promotion beside its product cards as a page without a main block', async () => {
    const card = (n: number) => `<div class="tile"><a href="/p/${n}"><img src="/i/${n}.jpg" alt=""><div class="name">Trail Runner ${n} Hiking Boot</div></a><div class="price">$1${n}9.95</div></div>`;
    const html = `<header><nav><a href="/">Shop</a></nav></header><div class="hero-offer"><p>Limited-time offer! Get $30 in rewards when you open a member card, with no annual fee, today.</p></div>
      <main><h1>Hiking boots</h1><div class="grid">${Array.from({ length: 24 }, (_, i) => card(i)).join('')}</div></main>`;
    const markdown = await mainMarkdown(html);
    for (const n of [0, 12, 23]) expect(markdown).toContain(`Trail Runner ${n} Hiking Boot`);
    expect(markdown).toContain('# Hiking boots');
  });

  it('keeps blocks named like chrome when between them they are the whole page (product captions), but not a cookie notice', async () => {
    const tile = (n: number) => `<div class="tile"><img src="/i/${n}.jpg" alt=""><div class="product-caption"><a href="/p/${n}">Desk lamp ${n}</a> <span>$${n}9</span></div></div>`;
    const html = `<header><nav><a href="/">Shop</a></nav></header><div class="cookie-notice"><p>We use cookies to run this shop, and to measure it, as our notice says.</p></div>
      <div class="products">${Array.from({ length: 12 }, (_, i) => tile(i)).join('')}</div>`;
    const markdown = await mainMarkdown(html);
    for (const n of [0, 6, 11]) expect(markdown).toContain(`[Desk lamp ${n}](https://example.com/p/${n}) $${n}9`);
    expect(markdown).not.toContain('We use cookies');
  });

  it('keeps the posts of a forum thread whose blocks are named as comments, and drops comments under an article', async () => {
    const post = (n: number) => `<article class="cPost"><aside class="author">user${n}</aside><div class="ipsComment_content"><p>Reply ${n}: the new layout lost the borders between sections, and the old one, with its lines, was easier to scan.</p></div></article>`;
    const thread = `<header><nav><a href="/">Forums</a></nav></header><h1>New layout</h1><div class="posts">${[1, 2, 3, 4, 5, 6].map(post).join('')}</div><footer><p>Powered by a forum</p></footer>`;
    const markdown = await mainMarkdown(thread);
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Reply ${n}: the new layout`);
    const body = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} of the story, long enough to be prose, with commas, clauses, and a point to make about the layout.</p>`).join('');
    const article = `<article><h1>The story</h1>${body}</article><div class="comments">${post(1)}${post(2)}${post(3)}${post(4)}</div>`;
    const story = await mainMarkdown(article);
    expect(story).toContain('Paragraph 5 of the story');
    expect(story).not.toContain('Reply 1');
  });

  it('keeps the posts of a thread with the board\'s own text around them, and a short article stays an article under long comments', async () => {
    const reply = (n: number) => `<p>Reply ${n}: I switched back to the old theme, because the new one, with its tiny fonts, pale grey text and endless white space, hides the replies, the quotes and the dates.</p>`;
    const post = (n: number) => `<div id="comment-${n}_wrap" class="post-entry"><a href="/u/${n}">user${n}</a>${reply(n)}${reply(n + 10)}</div>`;
    // The thread's facts, top posters and the board's rules: over 500 characters, little prose.
    const facts = `<ul class="topic-facts">${['Replies 154', 'Views 26.2k', 'Created 1 yr', 'Last reply Sep 26'].map((f) => `<li>${f}</li>`).join('')}</ul>`;
    const posters = `<h4>Top posters in this topic</h4><ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/u/${i}">A regular poster number ${i}</a> 56 posts</li>`).join('')}</ul>`;
    const rules = `<div class="board-info"><h2>Important information</h2><p><a href="/terms">Terms of use</a> | <a href="/privacy">Privacy policy</a> | <a href="/rules">Guidelines</a></p></div>`;
    const thread = `<h1>AI discussion</h1>${facts}${posters}<div class="topic">${[1, 2, 3, 4].map(post).join('')}</div>${rules}`;
    const markdown = await mainMarkdown(thread);
    for (const n of [1, 4, 14]) expect(markdown).toContain(`Reply ${n}: I switched back`);
    // The same posts under a short article that opens the page: the article is the content.
    // Over 500 characters whose three paragraphs hold more prose than the first post, less than the longest one.
    const long = `<div id="comment-5_wrap" class="post-entry">${[5, 15, 25, 35].map(reply).join('')}</div>`;
    const story = `<h1>The new theme is out</h1><p>Our forum has a new theme today, with larger pictures, wider columns, and a darker header, as many of you asked, over the years.</p>
      <p>It took us a year, three designers, and a great many of your messages, most of them kind, some of them less so, to get here.</p>
      <ul>${['Larger pictures in every post', 'Wider columns on big screens', 'A darker header', 'Quotes that fold', 'Dates on every reply', 'Bigger buttons', 'A search box that remembers', 'Threads you follow, in bold', 'Fewer emails', 'Avatars in the margin', 'Polls in any thread'].map((c) => `<li>${c}</li>`).join('')}</ul>
      <p>Tell us what you think below, in the comments, and we will read every one, the kind ones, the angry ones, and the long ones.</p>${[1, 2].map(post).join('')}${long}`;
    const article = await mainMarkdown(story);
    expect(article).toContain('Tell us what you think below');
    expect(article).not.toContain('Reply 1: I switched back');
  });

  it('ends the article at a heading that opens other stories (a "Trending stories" line and what follows it)', async () => {
    const body = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i} of the review, long enough to read as prose, with commas, clauses, and a verdict at the end.</p>`).join('');
    const teaser = (n: number) => `<div class="card"><a href="/s${n}"><h3>Story ${n}: the cheapest places to fly to this winter</h3></a><p>A standfirst for story ${n}, a sentence of its own.</p></div>`;
    const html = `<main><article><h1>The review</h1>${body}<p class="label uppercase">Trending stories in world travel</p><div class="cards">${teaser(1)}${teaser(2)}${teaser(3)}</div></article></main>`;
    const markdown = await mainMarkdown(html);
    expect(markdown).toContain('Paragraph 7 of the review');
    expect(markdown).not.toContain('Trending stories');
    expect(markdown).not.toContain('standfirst for story');
    // A heading with those words that opens most of the page is not the end of anything.
    const guide = `<main><h1>Guide</h1><p>A short intro to the guide, with a comma.</p><h2>Related posts</h2>${body}</main>`;
    expect(await mainMarkdown(guide)).toContain('Paragraph 7 of the review');
  });

  it('keeps the headings of sections that are pictures (a gallery, screenshots), and drops a trailing heading left without its section', async () => {
    const body = Array.from({ length: 4 }, (_, i) => `<p>Paragraph ${i} of the guide, long enough to read as prose, with commas, clauses, and a point to make.</p>`).join('');
    const shot = (n: number) => `<h2>Step ${n}</h2><img src="/step-${n}.png" alt="">`;
    const gallery = await mainMarkdown(`<main><article><h1>The guide</h1>${body}${shot(1)}${shot(2)}</article></main>`);
    expect(gallery).toContain('## Step 1\n\n![](https://example.com/step-1.png)\n\n## Step 2\n\n![](https://example.com/step-2.png)');
    // A heading over linked thumbnails or a tracking pixel is still the end of the article.
    const thumbs = `<h2>More from us</h2><a href="/other"><img src="/other.jpg" alt=""></a><img src="/pixel.gif" width="1" height="1" alt="">`;
    const article = await mainMarkdown(`<main><article><h1>The guide</h1>${body}${thumbs}</article></main>`);
    expect(article).toContain('Paragraph 3 of the guide');
    expect(article).not.toContain('More from us');
  });

  it('keeps the headlines of a home page whose only prose is a few blurbs among them, and still drops an article\'s teaser list', async () => {
    const blurb = (n: number) => `<p>Show ${n}: founders, investors and operators talk about building companies, raising money, hiring, and what they would do differently next time.</p>`;
    const teaser = (n: number) => `<li><a href="/story/${n}">Headline number ${n} about a company that raised a round</a> <span>Reporter ${n}</span></li>`;
    const list = (title: string, from: number) => `<div class="river"><h2>${title}</h2><ul>${Array.from({ length: 10 }, (_, i) => teaser(i + from)).join('')}</ul></div>`;
    const home = `<header><a href="/">Tech news</a></header><main>${list('Top headlines', 0)}${blurb(1)}${list('Latest', 20)}${blurb(2)}${list('Science', 40)}${blurb(3)}</main>`;
    const markdown = await mainMarkdown(home);
    for (const n of [0, 9, 25, 49]) expect(markdown).toContain(`[Headline number ${n} about a company that raised a round](https://example.com/story/${n})`);
    expect(markdown).toContain('Show 3: founders');
    const body = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i} of the story, long enough to read as prose, with commas, clauses, and a point to make.</p>`).join('');
    const article = await mainMarkdown(`<main><article><h1>The story</h1>${body}${list('Latest', 0)}</article></main>`);
    expect(article).toContain('Paragraph 7 of the story');
    expect(article).not.toContain('Headline number');
  });

  it('drops a table of contents (links to the page\'s own sections) with its heading, on an article and on a manual', async () => {
    const sections = ['Install', 'Configure', 'Run', 'Upgrade'];
    const toc = `<h2>Contents</h2><ul>${sections.map((t) => `<li><a href="#${t.toLowerCase()}">${t}</a></li>`).join('')}</ul>`;
    const body = (code: string) => sections.map((t) => `<h2 id="${t.toLowerCase()}">${t}</h2><p>How to ${t.toLowerCase()} the tool, step by step, with the options that matter and why <a href="#notes">see note</a>.</p>${code}`).join('');
    const article = await mainMarkdown(`<main><article><h1>Guide</h1>${toc}${body('')}</article></main>`);
    const manual = await mainMarkdown(`<main><h1>Manual</h1>${toc}${body('<pre><code>tool --run --verbose --config ./tool.toml</code></pre>')}</main>`);
    for (const markdown of [article, manual]) {
      expect(markdown).not.toContain('Contents');
      expect(markdown).not.toContain('](https://example.com/post#install)');
      expect(markdown).toContain('## Install\n\nHow to install the tool, step by step, with the options that matter and why [see note](https://example.com/post#notes).');
      expect(markdown).toContain('## Upgrade');
    }
    expect(manual).toContain('tool --run --verbose');
  });
});
