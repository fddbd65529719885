// Baseline runner for bench/extraction.ts: Mozilla Readability.js on a jsdom document, the way its
// README shows, text from `article.textContent`. Run from the throwaway folder holding both
// packages. Reads a JSON list of {id, path, url} on stdin, writes {id: {text, ms}} on stdout.
import { readFileSync } from 'node:fs';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';

const pages = JSON.parse(readFileSync(0, 'utf8'));
const out = {};
const quiet = new VirtualConsole();
for (const page of pages) {
  const start = process.cpuUsage();
  let text = '';
  try {
    // A Buffer lets jsdom sniff the encoding as a browser would.
    const dom = new JSDOM(readFileSync(page.path), { url: page.url, virtualConsole: quiet });
    text = new Readability(dom.window.document).parse()?.textContent ?? '';
    dom.window.close();
  } catch (err) {
    process.stderr.write(`readability: ${page.id}: ${err}\n`);
  }
  const used = process.cpuUsage(start);
  out[page.id] = { text, ms: (used.user + used.system) / 1000 };
}
process.stdout.write(JSON.stringify(out));
