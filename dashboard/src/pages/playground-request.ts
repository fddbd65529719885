/**
 * The playground's request as the v1 body and as code a developer can paste: curl, the official
 * JavaScript SDK (FirecrawlAppV1 in @mendable/firecrawl-js) and the Python SDK (V1FirecrawlApp in
 * firecrawl-py), each pointed at this server.
 */

export type Operation = 'scrape' | 'map' | 'crawl';
export const scrapeFormats = ['markdown', 'html', 'rawHtml', 'links', 'screenshot'] as const;
export type ScrapeFormat = (typeof scrapeFormats)[number];

export interface PlaygroundForm {
  operation: Operation;
  url: string;
  formats: ScrapeFormat[];
  onlyMainContent: boolean;
  limit: number;
  search: string;
}

type Json = string | number | boolean | Json[] | { [key: string]: Json };

/** The v1 request body. Options the form leaves at the API's defaults are left out, to keep the samples short. */
export function requestBody(form: PlaygroundForm): { url: string } & Record<string, Json> {
  const url = form.url.trim();
  if (form.operation === 'scrape') {
    return { url, formats: form.formats, ...(form.onlyMainContent ? { onlyMainContent: true } : {}) };
  }
  if (form.operation === 'map') return { url, ...(form.search.trim() ? { search: form.search.trim() } : {}) };
  return { url, limit: form.limit };
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSample(form: PlaygroundForm, origin: string): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/v1/${form.operation}`)} \\`,
    `  -H 'Authorization: Bearer YOUR_API_KEY' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(requestBody(form), null, 2))}`,
  ].join('\n');
}

const jsString = (text: string): string =>
  `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;

function jsValue(value: Json): string {
  if (typeof value === 'string') return jsString(value);
  if (Array.isArray(value)) return `[${value.map(jsValue).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${jsValue(item)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(value);
}

const jsMethods: Record<Operation, string> = { scrape: 'scrapeUrl', map: 'mapUrl', crawl: 'asyncCrawlUrl' };

export function javascriptSample(form: PlaygroundForm, origin: string): string {
  const { url, ...options } = requestBody(form);
  return [
    `import { FirecrawlAppV1 } from '@mendable/firecrawl-js';`,
    '',
    `const app = new FirecrawlAppV1({ apiKey: 'YOUR_API_KEY', apiUrl: ${jsString(origin)} });`,
    `const result = await app.${jsMethods[form.operation]}(${jsString(url)}, ${jsValue(options)});`,
    'console.log(result);',
  ].join('\n');
}

// JSON string literals are valid Python string literals.
function pyValue(value: Json): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) return `[${value.map(pyValue).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pyValue(v)}`).join(', ')}}`;
  return JSON.stringify(value);
}

const pyMethods: Record<Operation, string> = { scrape: 'scrape_url', map: 'map_url', crawl: 'async_crawl_url' };
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function pythonSample(form: PlaygroundForm, origin: string): string {
  const { url, ...options } = requestBody(form);
  const args = [JSON.stringify(url), ...Object.entries(options).map(([key, value]) => `${snakeCase(key)}=${pyValue(value)}`)];
  return [
    'from firecrawl.v1 import V1FirecrawlApp',
    '',
    `app = V1FirecrawlApp(api_key="YOUR_API_KEY", api_url=${JSON.stringify(origin)})`,
    `result = app.${pyMethods[form.operation]}(${args.join(', ')})`,
    'print(result)',
  ].join('\n');
}
