/**
 * Deterministic "realistic" article pages for the HTML pipeline benchmark: site chrome (header,
 * nav, sidebar, footer, cookie banner, scripts, styles) around an article with headings,
 * paragraphs with inline markup and relative links, images, lists, tables and code blocks.
 * Generated rather than committed so the repository carries no large fixtures.
 */

const words = ('lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore '
  + 'et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea '
  + 'commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur').split(' ');

/** Small linear congruential generator so every run builds byte-identical pages. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function sentence(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words[Math.floor(r() * words.length)]);
  return out.join(' ');
}

function paragraph(r: () => number, i: number): string {
  return `<p>${sentence(r, 12)} <a href="/articles/${i}/related?ref=p">${sentence(r, 3)}</a> `
    + `<strong>${sentence(r, 2)}</strong> ${sentence(r, 10)} <em>${sentence(r, 2)}</em> `
    + `<code>fn_${i}()</code> ${sentence(r, 14)}.</p>\n`;
}

function section(r: () => number, i: number): string {
  let html = `<h2 id="s${i}">${sentence(r, 4)}</h2>\n`;
  for (let p = 0; p < 3; p++) html += paragraph(r, i * 10 + p);
  html += `<figure><img src="../img/figure-${i}.png" alt="${sentence(r, 3)}" width="600"><figcaption>${sentence(r, 6)}</figcaption></figure>\n`;
  html += '<ul>\n';
  for (let l = 0; l < 4; l++) html += `  <li>${sentence(r, 6)} <a href="item-${i}-${l}.html">more</a></li>\n`;
  html += '</ul>\n';
  if (i % 2 === 0) {
    html += '<table>\n<thead><tr><th>Name</th><th>Value</th><th>Notes</th></tr></thead>\n<tbody>\n';
    for (let t = 0; t < 4; t++) html += `<tr><td>${sentence(r, 1)}</td><td>${Math.floor(r() * 1000)}</td><td>${sentence(r, 4)}</td></tr>\n`;
    html += '</tbody>\n</table>\n';
  } else {
    html += `<pre><code class="language-ts">const x${i} = compute(${i});\nif (x${i} &gt; 3) {\n  log("${sentence(r, 3)}");\n}\n</code></pre>\n`;
  }
  return html;
}

const chromeTop = (title: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta name="description" content="A generated article used to benchmark the HTML pipeline.">
<meta property="og:title" content="${title}">
<meta property="og:image" content="/static/og.png">
<link rel="canonical" href="https://example.com/articles/bench">
<style>body { font-family: sans-serif; } .nav a { color: blue; } .cookie-banner { position: fixed; }</style>
<script>window.dataLayer = window.dataLayer || []; function gtag(){ dataLayer.push(arguments); }</script>
</head>
<body>
<div class="cookie-banner" id="cookie-consent"><p>We use cookies.</p><button>Accept</button></div>
<header class="site-header"><a href="/"><img src="/logo.svg" alt="Logo"></a>
<nav class="nav"><ul><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li><li><a href="/docs">Docs</a></li><li><a href="/about">About</a></li></ul></nav>
</header>
<div class="layout">
<main>
<article>
<h1>${title}</h1>
`;

const chromeBottom = `</article>
</main>
<aside class="sidebar"><h3>Related</h3><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>
<div class="ad-slot advert">Buy now</div></aside>
</div>
<footer class="site-footer"><p>&copy; Example</p><a href="/privacy">Privacy</a> <a href="mailto:hi@example.com">Mail</a></footer>
<script src="/static/app.js"></script>
</body>
</html>
`;

/** A page of roughly `targetBytes` bytes (UTF-8), grown by whole sections. */
export function articlePage(targetBytes: number, seed = 42): string {
  const r = rng(seed);
  const top = chromeTop('Benchmark article');
  let body = '';
  let i = 0;
  while (top.length + body.length + chromeBottom.length < targetBytes) body += section(r, i++);
  return top + body + chromeBottom;
}
