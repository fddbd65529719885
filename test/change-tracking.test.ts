/**
 * The changeTracking format (README "Change tracking"): each scrape of a page is compared with the
 * last version its owner saw at that URL and tag. Real API, worker, Temporal and PostgreSQL against
 * a loopback site whose pages the test rewrites; an LLM fake for json mode.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired } from '../activities/expire.js';
import { createKey } from '../api/keys-store.js';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { crawlToEnd } from './helpers/crawl.js';
import { TEST_PEPPER } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

/** The site's pages, by path: the test edits them between scrapes. */
const pages: Record<string, string | undefined> = {};
const send = (res: ServerResponse, path: string): void => {
  const body = pages[path];
  if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${path}</title></head><body>${body}</body></html>`);
};

let site: FixtureServer;
let llm: FakeLlm;
let stack: TestStack;
let noLlm: TestStack;

beforeAll(async () => {
  [site, llm] = await Promise.all([startFixtureServer({}, (req, res) => send(res, (req.url ?? '/').split('?')[0]!)), startFakeLlm(['{"price": "$10"}', '{"price": "$12"}'])]);
  [stack, noLlm] = await Promise.all([startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' }), startTestStack()]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), noLlm?.close()]);
  await Promise.all([site?.close(), llm?.close()]);
});

type Tracking = { previousScrapeAt: string | null; changeStatus: string; visibility: string; diff?: { text: string; json: { files: { chunks: { changes: { type: string; content: string }[] }[] }[] } }; json?: unknown };
async function track(on: TestStack, path: string, options: Record<string, unknown> = {}): Promise<{ tracking: Tracking; warning?: string }> {
  const res = await on.post('/v1/scrape', { url: `${site.url}${path}`, formats: ['markdown', 'changeTracking'], ...options });
  expect(res.status).toBe(200);
  return { tracking: (res.body.data as { changeTracking: Tracking }).changeTracking, warning: res.body.warning as string | undefined };
}

describe('changeTracking on scrape', () => {
  it('says new, then same, then changed with the diff, and keeps whitespace-only edits as same', async () => {
    pages['/pricing'] = '<h1>Pricing</h1><p>Pro plan: $10/month</p><p>Contact us</p>';
    const first = await track(stack, '/pricing', { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(first.tracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });

    const second = await track(stack, '/pricing', { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(second.tracking).toEqual({ previousScrapeAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), changeStatus: 'same', visibility: 'visible' });

    pages['/pricing'] = '<h1>Pricing</h1><p>Pro plan:   $10/month</p>\n\n<p>Contact   us</p>';
    expect((await track(stack, '/pricing')).tracking.changeStatus).toBe('same');

    pages['/pricing'] = '<h1>Pricing</h1><p>Pro plan: $12/month</p><p>Contact us</p>';
    const changed = await track(stack, '/pricing', { changeTrackingOptions: { modes: ['git-diff'] } });
    expect(changed.tracking.changeStatus).toBe('changed');
    expect(changed.tracking.diff!.text).toContain('-Pro plan: $10/month\n+Pro plan: $12/month');
    const changes = changed.tracking.diff!.json.files[0]!.chunks[0]!.changes.filter((c) => c.type !== 'normal');
    expect(changes).toEqual([
      { type: 'del', del: true, ln: 3, content: '-Pro plan: $10/month' },
      { type: 'add', add: true, ln: 3, content: '+Pro plan: $12/month' },
    ]);
    // Without git-diff mode there is no diff, only the status.
    pages['/pricing'] = '<h1>Pricing</h1><p>Pro plan: $15/month</p><p>Contact us</p>';
    const plain = await track(stack, '/pricing');
    expect(plain.tracking.changeStatus).toBe('changed');
    expect(plain.tracking.diff).toBeUndefined();
  });

  it('says removed for a page that answers 404, and keeps separate histories per tag and per API key', async () => {
    pages['/job'] = '<h1>Job opening</h1>';
    expect((await track(stack, '/job')).tracking.changeStatus).toBe('new');
    pages['/job'] = undefined;
    expect((await track(stack, '/job')).tracking.changeStatus).toBe('removed');
    pages['/job'] = '<h1>Job opening</h1>';
    expect((await track(stack, '/job', { changeTrackingOptions: { tag: 'weekly' } })).tracking.changeStatus).toBe('new');
    expect((await track(stack, '/job', { changeTrackingOptions: { tag: 'weekly' } })).tracking.changeStatus).toBe('same');
    const { key } = await createKey(stack.api.deps.prisma, 'other-team', TEST_PEPPER);
    const other = await fetch(`${stack.api.url}/v1/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/job`, formats: ['markdown', 'changeTracking'] }) });
    expect(((await other.json()) as { data: { changeTracking: Tracking } }).data.changeTracking.changeStatus).toBe('new');
  });

  it('json mode reports the fields that differ, extracted from both versions with the schema', async () => {
    const schema = { type: 'object', properties: { price: { type: 'string' } }, required: ['price'] };
    pages['/plan'] = '<h1>Plan</h1><p>Price: $10</p>';
    await track(stack, '/plan', { changeTrackingOptions: { modes: ['json'], schema } });
    pages['/plan'] = '<h1>Plan</h1><p>Price: $12</p>';
    const changed = await track(stack, '/plan', { changeTrackingOptions: { modes: ['json'], schema } });
    expect(changed.tracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: '$10', current: '$12' } } });
    const asked = llm.requests.slice(-2).map((r) => r.messages.at(-1)!.content);
    expect(asked.some((c) => c.includes('Price: $10'))).toBe(true);
    expect(asked.some((c) => c.includes('Price: $12'))).toBe(true);
  });

  it('json mode without an LLM keeps the status and says it was skipped', async () => {
    pages['/skip'] = '<p>one</p>';
    await track(noLlm, '/skip', { changeTrackingOptions: { modes: ['json'] } });
    pages['/skip'] = '<p>two</p>';
    const changed = await track(noLlm, '/skip', { changeTrackingOptions: { modes: ['json'] } });
    expect(changed.tracking.changeStatus).toBe('changed');
    expect(changed.tracking.json).toBeUndefined();
    expect(changed.warning).toBe('Change tracking’s json mode needs an LLM (LLM_BASE_URL); it was skipped.');
  });

  it('refuses changeTracking without markdown, and its options without the format', async () => {
    const without = await stack.post('/v1/scrape', { url: `${site.url}/x`, formats: ['changeTracking'] });
    expect(without.status).toBe(400);
    expect(without.body.details).toEqual([{ field: 'formats', message: 'changeTracking needs markdown in formats as well (it compares the markdown)' }]);
    const orphan = await stack.post('/v1/scrape', { url: `${site.url}/x`, changeTrackingOptions: { modes: ['git-diff'] } });
    expect(orphan.status).toBe(400);
    expect(orphan.body.details).toEqual([{ field: 'changeTrackingOptions', message: 'needs "changeTracking" in formats' }]);
  });
});

describe('changeTracking on crawls', () => {
  it('compares every page of a crawl with the last crawl of it', async () => {
    pages['/docs/'] = '<h1>Docs</h1><a href="/docs/a">a</a><a href="/docs/b">b</a>';
    pages['/docs/a'] = '<p>Alpha</p>';
    pages['/docs/b'] = '<p>Beta</p>';
    const options = { url: `${site.url}/docs/`, ignoreRobotsTxt: true, scrapeOptions: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: 'crawl' } } };
    const first = await crawlToEnd(stack, options);
    expect(first.docs.map((d) => (d as { changeTracking: Tracking }).changeTracking.changeStatus)).toEqual(['new', 'new', 'new']);
    pages['/docs/b'] = '<p>Beta, revised</p>';
    const second = await crawlToEnd(stack, options);
    const byPath = Object.fromEntries(second.docs.map((d) => [new URL(String(d.metadata.sourceURL)).pathname, (d as { changeTracking: Tracking }).changeTracking.changeStatus]));
    expect(byPath).toEqual({ '/docs/': 'same', '/docs/a': 'same', '/docs/b': 'changed' });
  });
});

describe('snapshots outlive documents', () => {
  it('are kept when documents expire, and deleted after SNAPSHOT_RETENTION_DAYS unseen', async () => {
    const { prisma } = stack.api.deps;
    pages['/kept'] = '<p>kept</p>';
    await track(stack, '/kept');
    // Only this test's rows are aged (other files share the database): its scrape past the 24 h
    // document TTL, then its snapshot past SNAPSHOT_RETENTION_DAYS unseen.
    const url = `${site.url}/kept`;
    const day = 24 * 60 * 60 * 1000;
    const aged = await prisma.document.updateMany({ where: { url }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(aged.count).toBe(1);
    await deleteExpired(prisma, 90);
    expect(await prisma.document.count({ where: { url } })).toBe(0);
    expect(await prisma.pageSnapshot.count({ where: { url } })).toBe(1);
    expect((await track(stack, '/kept')).tracking.changeStatus).toBe('same');
    await prisma.pageSnapshot.updateMany({ where: { url }, data: { lastSeenAt: new Date(Date.now() - 91 * day) } });
    const { owner, urlKey } = await prisma.pageSnapshot.findFirstOrThrow({ where: { url } });
    await prisma.pageChange.updateMany({ where: { owner, urlKey }, data: { seenAt: new Date(Date.now() - 91 * day) } });
    await deleteExpired(prisma, 90);
    expect(await prisma.pageSnapshot.count({ where: { url } })).toBe(0);
    expect(await prisma.pageChange.count({ where: { owner, urlKey } })).toBe(0);
  });
});
