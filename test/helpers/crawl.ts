/** Start a crawl through the API, wait for it to end, and read every document by following `next`. */
import type { CrawlStatusBody } from '../../core/schemas/crawl.js';
import type { TestStack } from './stack.js';

export type { CrawlStatusBody };

export async function startCrawl(stack: TestStack, body: Record<string, unknown>): Promise<string> {
  const res = await stack.post('/v1/crawl', body);
  if (res.status !== 200) throw new Error(`POST /v1/crawl answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export async function waitForCrawl(stack: TestStack, id: string, timeoutMs = 120_000): Promise<CrawlStatusBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await stack.get(`/v1/crawl/${id}?limit=1`);
    const body = res.body as unknown as CrawlStatusBody;
    if (body.status !== 'scraping') return body;
    if (Date.now() > deadline) throw new Error(`crawl ${id} still scraping after ${timeoutMs} ms: ${JSON.stringify({ ...body, data: undefined })}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every document of a crawl, in order, by following `next` from offset 0. */
export async function allDocuments(stack: TestStack, id: string, limit = 100): Promise<CrawlStatusBody['data']> {
  const docs: CrawlStatusBody['data'] = [];
  let path: string | undefined = `/v1/crawl/${id}?limit=${limit}`;
  while (path) {
    const res = await stack.get(path);
    const body = res.body as unknown as CrawlStatusBody;
    docs.push(...body.data);
    path = body.next;
  }
  return docs;
}

export async function crawlToEnd(stack: TestStack, body: Record<string, unknown>) {
  const id = await startCrawl(stack, body);
  const status = await waitForCrawl(stack, id);
  return { id, status, docs: await allDocuments(stack, id) };
}

export const pathsOf = (docs: CrawlStatusBody['data']) => docs.map((d) => new URL(String(d.metadata.sourceURL)).pathname).sort();
