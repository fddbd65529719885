/**
 * Monitors (README "Monitors"): each one a Temporal Schedule whose checks are crawls and batch
 * scrapes with change tracking, compared with the previous check. Real API, worker, Temporal dev
 * server and PostgreSQL against loopback sites the test rewrites between checks.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ScheduleNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired } from '../activities/expire.js';
import { createKey } from '../api/keys-store.js';
import { SIGNATURE_HEADER, verifyWebhook } from '../core/webhook-signature.js';
import { startReceiver, type Receiver } from './fixtures/receiver.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { TEST_PEPPER, DEFAULT_ACCOUNT_WEBHOOK_SECRET } from './helpers/env.js';
import { pollUntil } from './helpers/poll.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

/** The watched site's pages by path; the test edits them between checks. */
const pages: Record<string, string | undefined> = {};
const send = (res: ServerResponse, path: string): void => {
  const body = pages[path];
  if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${path}</title></head><body>${body}</body></html>`);
};
const index = (links: string[]) => `<h1>Docs</h1><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul>`;

let site: FixtureServer;
let slow: FixtureServer;
let receiver: Receiver;
let stack: TestStack;

beforeAll(async () => {
  [site, slow, receiver] = await Promise.all([
    startFixtureServer({}, (req, res) => send(res, (req.url ?? '/').split('?')[0]!)),
    // Each page takes 7 s: a check every 5 s overlaps the previous one.
    startFixtureServer({}, async (_req, res) => {
      await new Promise((r) => setTimeout(r, 7000));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>Slow page</p></body></html>');
    }),
    startReceiver(),
  ]);
  stack = await startTestStack({ MONITOR_MIN_INTERVAL_SECONDS: '5', MONITORS_PER_ACCOUNT: '4' });
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([site?.close(), slow?.close(), receiver?.close()]);
});

type Check = { id: string; status: string; trigger: string; summary: Record<string, number>; error: string | null; targetResults: { targetId: string; jobId: string; type: string; status: string }[] };
type Page = { url: string; targetId: string; status: string; diff: { text: string; json: { files: { chunks: { changes: { type: string; content: string }[] }[] }[] } } | null; currentScrapeId: string | null };

const checks = async (id: string): Promise<Check[]> => {
  const res = await stack.get(`/v2/monitor/${id}/checks?limit=100`);
  expect(res.status).toBe(200);
  return res.body.data as Check[];
};
const checkWithPages = async (id: string, checkId: string): Promise<Check & { pages: Page[] }> => {
  const res = await stack.get(`/v2/monitor/${id}/checks/${checkId}?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data as Check & { pages: Page[] };
};
const finished = (c: Check) => !['queued', 'running'].includes(c.status);
/** Waits for the monitor to have `count` checks that are neither queued nor running (newest first). */
const settled = (id: string, count: number) =>
  pollUntil(
    () => checks(id),
    (list) => list.filter((c) => c.status !== 'skipped_overlap').length >= count && list.every(finished),
    `${count} settled checks of monitor ${id}`,
  );
const statusByPath = (list: Page[]) => Object.fromEntries(list.map((p) => [new URL(p.url).pathname, p.status]));
const scheduleOf = (id: string) => stack.api.deps.temporal.schedule.getHandle(`monitor-${id}`);

describe('a monitor of a crawl and a list of pages', () => {
  let id: string;

  it('is created with its own Temporal Schedule, and its first check finds every page new', async () => {
    pages['/'] = index(['/a', '/b', '/c']);
    pages['/a'] = '<h1>A</h1><p>Price: $10</p>';
    pages['/b'] = '<h1>B</h1><p>Opening: engineer</p>';
    pages['/c'] = '<h1>C</h1><p>Unchanging</p>';
    pages['/s1'] = '<p>Terms, version 1</p>';
    pages['/s2'] = '<p>Old announcement</p>';
    const res = await stack.post('/v2/monitor', {
      name: 'Docs watch',
      schedule: { text: 'every 5 seconds' },
      targets: [
        { type: 'crawl', url: `${site.url}/`, crawlOptions: { limit: 20 } },
        { type: 'scrape', urls: [`${site.url}/s1`, `${site.url}/s2`] },
      ],
      webhook: { url: `${receiver.url}/hook`, metadata: { team: 'docs' } },
    });
    expect(res.status).toBe(200);
    const monitor = res.body.data as Record<string, unknown>;
    id = monitor.id as string;
    expect(monitor).toMatchObject({
      name: 'Docs watch',
      status: 'active',
      schedule: { cron: '*/5 * * * * *', timezone: 'UTC', text: 'every 5 seconds' },
      targets: [
        { id: 'target-1', type: 'crawl', url: `${site.url}/` },
        { id: 'target-2', type: 'scrape', urls: [`${site.url}/s1`, `${site.url}/s2`] },
      ],
      retentionDays: 30,
      webhook: { url: `${receiver.url}/hook`, metadata: { team: 'docs' } },
    });
    expect(typeof monitor.nextRunAt).toBe('string');

    const described = await scheduleOf(id).describe();
    expect(described.state.paused).toBe(false);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'monitorCheck' });
    expect(described.spec.calendars?.length ?? 0).toBeGreaterThan(0);

    // The schedule fires on its own; pause it once the first check is done, so the test edits the
    // site between checks.
    const [first] = (await settled(id, 1)).filter((c) => c.status !== 'skipped_overlap').slice(-1);
    expect((await stack.call('PATCH', `/v2/monitor/${id}`, { status: 'paused' })).status).toBe(200);
    expect((await scheduleOf(id).describe()).state).toMatchObject({ paused: true, note: 'Paused through the API' });
    const settledList = await settled(id, 1);
    expect(first).toMatchObject({ status: 'completed', trigger: 'scheduled', summary: { totalPages: 6, new: 6, same: 0, changed: 0, removed: 0, error: 0 } });
    const withPages = await checkWithPages(id, first!.id);
    expect(statusByPath(withPages.pages)).toEqual({ '/': 'new', '/a': 'new', '/b': 'new', '/c': 'new', '/s1': 'new', '/s2': 'new' });
    // Each target ran as an ordinary crawl or batch scrape, readable through the v1 endpoints.
    const crawl = first!.targetResults.find((t) => t.type === 'crawl')!;
    const batch = first!.targetResults.find((t) => t.type === 'scrape')!;
    const crawlStatus = await stack.get(`/v1/crawl/${crawl.jobId}`);
    expect(crawlStatus.body).toMatchObject({ status: 'completed', total: 4, completed: 4 });
    const batchStatus = await stack.get(`/v1/batch/scrape/${batch.jobId}`);
    expect(batchStatus.body).toMatchObject({ status: 'completed', total: 2, completed: 2 });
    // ...carrying the MonitorId search attribute.
    const found: string[] = [];
    for await (const wf of stack.api.deps.temporal.workflow.list({ query: `MonitorId = '${id}'` })) found.push(wf.type);
    expect(found).toEqual(expect.arrayContaining(['monitorCheck', 'crawl', 'batchScrape']));
    // The checks settled (several may have run before the pause took effect: all complete).
    expect(settledList.filter((c) => c.status === 'completed').length).toBeGreaterThanOrEqual(1);
  });

  it('after a worker restart, finds the changed page with its diff, the removed pages and the new one; the rest are the same', async () => {
    const before = (await checks(id)).length;
    pages['/'] = index(['/a', '/c', '/d']);
    pages['/a'] = '<h1>A</h1><p>Price: $12</p>';
    pages['/b'] = undefined;
    pages['/d'] = '<h1>D</h1><p>Brand new</p>';
    pages['/s2'] = undefined;
    receiver.accepted().length = 0;
    await stack.restartWorker();

    expect((await stack.call('PATCH', `/v2/monitor/${id}`, { status: 'active' })).status).toBe(200);
    expect((await scheduleOf(id).describe()).state.paused).toBe(false);
    const list = await pollUntil(() => checks(id), (l) => l.length > before && finished(l[0]!) && l[0]!.status !== 'skipped_overlap', 'a check after the resume');
    expect((await stack.call('PATCH', `/v2/monitor/${id}`, { status: 'paused' })).status).toBe(200);
    const second = list[0]!;
    expect(second).toMatchObject({ status: 'completed', summary: { totalPages: 7, same: 2, changed: 2, new: 1, removed: 2, error: 0 } });
    const { pages: found } = await checkWithPages(id, second.id);
    expect(statusByPath(found)).toEqual({ '/': 'changed', '/a': 'changed', '/b': 'removed', '/c': 'same', '/d': 'new', '/s1': 'same', '/s2': 'removed' });
    const a = found.find((p) => p.url.endsWith('/a'))!;
    expect(a.diff!.text).toContain('-Price: $10\n+Price: $12');
    expect(a.diff!.json.files[0]!.chunks[0]!.changes.filter((c) => c.type !== 'normal').map((c) => c.content)).toEqual(['-Price: $10', '+Price: $12']);

    // Paging through the pages with `next`.
    const firstPage = await stack.get(`/v2/monitor/${id}/checks/${second.id}?limit=3`);
    expect((firstPage.body.data as { pages: Page[] }).pages).toHaveLength(3);
    expect(firstPage.body.next).toBe(`${stack.api.url}/v2/monitor/${id}/checks/${second.id}?skip=3&limit=3`);
    const changedOnly = await stack.get(`/v2/monitor/${id}/checks/${second.id}?status=changed`);
    expect((changedOnly.body.data as { pages: Page[] }).pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/a']);

    // The webhook got one monitor.page per page that is not the same, and monitor.check.completed.
    const deliveries = await pollUntil(
      async () => receiver.accepted().map((h) => JSON.parse(h.body) as { type: string; monitorId: string; checkId: string; metadata: unknown; data: { url: string; status: string; diff?: { text: string }; summary?: Record<string, number> }[] }),
      (d) => d.filter((x) => x.checkId === second.id).length >= 6,
      'the second check’s webhooks',
    );
    const ours = deliveries.filter((d) => d.checkId === second.id);
    expect(ours).toHaveLength(6);
    const pageEvents = ours.filter((d) => d.type === 'monitor.page');
    expect(Object.fromEntries(pageEvents.map((d) => [new URL(d.data[0]!.url).pathname, d.data[0]!.status]))).toEqual({ '/': 'changed', '/a': 'changed', '/b': 'removed', '/d': 'new', '/s2': 'removed' });
    expect(pageEvents.find((d) => d.data[0]!.url.endsWith('/a'))!.data[0]!.diff!.text).toContain('+Price: $12');
    const completed = ours.find((d) => d.type === 'monitor.check.completed')!;
    expect(completed).toMatchObject({ monitorId: id, metadata: { team: 'docs' }, data: [{ status: 'completed', summary: { totalPages: 7, same: 2, changed: 2, new: 1, removed: 2, error: 0 } }] });
    const hit = receiver.accepted().find((h) => h.body.includes('monitor.check.completed') && h.body.includes(second.id))!;
    expect(verifyWebhook(DEFAULT_ACCOUNT_WEBHOOK_SECRET, hit.body, String(hit.headers[SIGNATURE_HEADER]))).toBe(true);
    expect(hit.headers['x-pagewright-event']).toBe('monitor.check.completed');
  });

  it('keeps comparing after the checks’ documents expire: snapshots outlive the 24 h TTL', async () => {
    const { prisma } = stack.api.deps;
    const last = (await checks(id)).find((c) => c.status === 'completed')!;
    const jobIds = last.targetResults.map((t) => t.jobId);
    // Only this monitor's jobs are aged (other test files share the database).
    await prisma.job.updateMany({ where: { id: { in: jobIds } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await prisma.document.updateMany({ where: { jobId: { in: jobIds } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await deleteExpired(prisma, 90);
    expect(await prisma.document.count({ where: { jobId: { in: jobIds } } })).toBe(0);
    expect((await stack.get(`/v1/crawl/${jobIds[0]}`)).status).toBe(404);

    expect((await stack.call('PATCH', `/v2/monitor/${id}`, { status: 'active' })).status).toBe(200);
    const run = await stack.post(`/v2/monitor/${id}/run`, {});
    // A scheduled check may have started first: then the run is refused, and that check is the one to read.
    expect([200, 409]).toContain(run.status);
    const list = await pollUntil(() => checks(id), (l) => l[0]!.id !== last.id && finished(l[0]!) && l[0]!.status !== 'skipped_overlap', 'a check after expiry');
    expect((await stack.call('PATCH', `/v2/monitor/${id}`, { status: 'paused' })).status).toBe(200);
    // /s2, a listed URL, still answers 404: removed again. /b, which the crawl no longer reaches, was reported once.
    expect(list[0]).toMatchObject({ status: 'completed', summary: { totalPages: 6, same: 5, changed: 0, new: 0, removed: 1 } });
    expect(statusByPath((await checkWithPages(id, list[0]!.id)).pages)).toEqual({ '/': 'same', '/a': 'same', '/c': 'same', '/d': 'same', '/s1': 'same', '/s2': 'removed' });
  });

  it('is invisible to another API key', async () => {
    const { key } = await createKey(stack.api.deps.prisma, 'monitor-other', TEST_PEPPER);
    for (const [method, path] of [
      ['GET', `/v2/monitor/${id}`],
      ['PATCH', `/v2/monitor/${id}`],
      ['DELETE', `/v2/monitor/${id}`],
      ['POST', `/v2/monitor/${id}/run`],
      ['GET', `/v2/monitor/${id}/checks`],
    ] as const) {
      const res = await stack.call(method, path, method === 'PATCH' ? { name: 'mine now' } : undefined, key);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'not_found' });
    }
    const list = await stack.call('GET', '/v2/monitor', undefined, key);
    expect(list.body).toMatchObject({ success: true, data: [], pagination: { total: 0 } });
  });
});

describe('a monitor’s lifecycle', () => {
  it('run, update and delete are each visible through the Temporal client', async () => {
    pages['/life'] = '<p>Life</p>';
    const created = await stack.post('/v2/monitor', { name: 'Daily', schedule: { text: 'daily at 9am', timezone: 'Europe/Berlin' }, targets: [{ type: 'scrape', urls: [`${site.url}/life`] }] });
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: string }).id;
    expect((await scheduleOf(id).describe()).spec.timezone).toBe('Europe/Berlin');

    // Run: a check outside the schedule, as a monitorCheck workflow.
    const run = await stack.post(`/v2/monitor/${id}/run`, {});
    expect(run.status).toBe(200);
    const checkId = (run.body.data as { id: string }).id;
    expect(run.body.data).toMatchObject({ id: checkId, status: 'queued', trigger: 'manual' });
    const handle = stack.api.deps.temporal.workflow.getHandle(`monitor-check-manual-${checkId}`);
    expect((await handle.describe()).type).toBe('monitorCheck');
    expect(await handle.result()).toMatchObject({ status: 'completed', summary: { totalPages: 1, new: 1 } });
    expect((await stack.get(`/v2/monitor/${id}/checks/${checkId}`)).body.data).toMatchObject({ status: 'completed', trigger: 'manual', summary: { new: 1 } });

    // Update: the Schedule follows.
    const updated = await stack.call('PATCH', `/v2/monitor/${id}`, { name: 'Hourly', schedule: { cron: '15 * * * *' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Hourly', schedule: { cron: '15 * * * *', timezone: 'UTC' } });
    const spec = (await scheduleOf(id).describe()).spec;
    expect(spec.timezone ?? 'UTC').toBe('UTC');
    expect(spec.calendars![0]).toMatchObject({ minute: [{ start: 15, end: 15, step: 1 }] });

    // Delete: the Schedule and the monitor are gone.
    expect((await stack.call('DELETE', `/v2/monitor/${id}`)).body).toEqual({ success: true });
    await expect(scheduleOf(id).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await stack.get(`/v2/monitor/${id}`)).status).toBe(404);
  });

  it('records a check skipped while the previous one still runs against a slow site', async () => {
    const created = await stack.post('/v2/monitor', { name: 'Slow', schedule: { text: 'every 5 seconds' }, targets: [{ type: 'scrape', urls: [`${slow.url}/slow`] }] });
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: string }).id;
    const list = await pollUntil(
      () => checks(id),
      (l) => l.some((c) => c.status === 'skipped_overlap') && l.some((c) => c.status === 'completed'),
      'a skipped and a completed check',
      90_000,
    );
    await stack.call('DELETE', `/v2/monitor/${id}`);
    const skipped = list.find((c) => c.status === 'skipped_overlap')!;
    expect(skipped).toMatchObject({ trigger: 'scheduled', summary: { totalPages: 0 }, error: expect.stringMatching(/^Skipped: check [0-9a-f-]{36} was still running\.$/) });
  });

  it('refuses a run while a check runs, and a run of a paused monitor', async () => {
    const created = await stack.post('/v2/monitor', { name: 'Busy', schedule: { text: 'weekly' }, targets: [{ type: 'scrape', urls: [`${slow.url}/busy`] }] });
    const id = (created.body.data as { id: string }).id;
    expect((await stack.post(`/v2/monitor/${id}/run`, {})).status).toBe(200);
    const again = await stack.post(`/v2/monitor/${id}/run`, {});
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 'check_running' });
    expect((await stack.call('PATCH', `/v2/monitor/${id}`, { status: 'paused' })).status).toBe(200);
    const paused = await stack.post(`/v2/monitor/${id}/run`, {});
    expect(paused.status).toBe(409);
    expect(paused.body).toMatchObject({ success: false, code: 'monitor_paused' });
    await stack.call('DELETE', `/v2/monitor/${id}`);
  });

  it('pauses the monitors of a revoked key at their next check, with a note on the Schedule', async () => {
    const { prisma } = stack.api.deps;
    const { key, id: keyId } = await createKey(prisma, 'monitor-revoked', TEST_PEPPER);
    pages['/revoked'] = '<p>Revoked</p>';
    const created = await stack.call('POST', '/v2/monitor', { name: 'Revoked', schedule: { text: 'every 5 seconds' }, targets: [{ type: 'scrape', urls: [`${site.url}/revoked`] }] }, key);
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: string }).id;
    await prisma.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    const monitor = await pollUntil(() => prisma.monitor.findUniqueOrThrow({ where: { id } }), (m) => m.status === 'paused', 'the monitor paused');
    expect(monitor.pausedReason).toBe('API key revoked');
    const state = await pollUntil(() => scheduleOf(id).describe(), (d) => d.state.paused, 'the Schedule paused');
    expect(state.state.note).toBe('Paused by Pagewright: the monitor’s API key was revoked.');
    const failed = await prisma.monitorCheck.findFirstOrThrow({ where: { monitorId: id, status: 'failed' } });
    expect(failed.error).toMatch(/API key was revoked/);
    await scheduleOf(id).delete();
  });
});

describe('monitor requests that are refused', () => {
  const target = () => [{ type: 'scrape', urls: [`${site.url}/x`] }];
  it.each([
    [{ text: 'every blue moon' }, 'schedule.text', /is not a schedule this server reads/],
    [{ cron: '99 * * * *' }, 'schedule.cron', /is not a valid cron expression/],
    [{ cron: '* * *' }, 'schedule.cron', /is not a five-field cron expression/],
    [{ text: 'every 2 seconds' }, 'schedule.text', /the minimum interval here is 5 s/],
    [{ text: 'hourly', timezone: 'Nowhere/Place' }, 'schedule.timezone', /is not an IANA time zone/],
  ])('schedule %j: 400 naming %s', async (schedule, field, message) => {
    const res = await stack.post('/v2/monitor', { name: 'Bad', schedule, targets: target() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(res.body.details).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it('a search target: 400 saying there is no search engine here', async () => {
    const res = await stack.post('/v2/monitor', { name: 'Search', schedule: { text: 'hourly' }, targets: [{ type: 'search', queries: ['pricing changes'] }] });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'targets[0].type', message: expect.stringMatching(/need a search engine, which this server does not have/) }]);
  });

  it('e-mail notifications: 400 saying there is no mail server', async () => {
    const res = await stack.post('/v2/monitor', { name: 'Mail', schedule: { text: 'hourly' }, targets: target(), notification: { email: { enabled: true, recipients: ['a@example.com'] } } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'notification.email', message: expect.stringMatching(/need a mail server/) }]);
  });

  it('a missing name: 400 naming it', async () => {
    const res = await stack.post('/v2/monitor', { schedule: { text: 'hourly' }, targets: target() });
    expect(res.status).toBe(400);
    expect((res.body.details as { field: string }[]).map((d) => d.field)).toEqual(['name']);
  });

  it('a target URL that is not http(s), and a crawl target without url: 400 naming each', async () => {
    const res = await stack.post('/v2/monitor', { name: 'Bad targets', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['ftp://example.com/file'] }, { type: 'crawl' }] });
    expect(res.status).toBe(400);
    expect((res.body.details as { field: string }[]).map((d) => d.field)).toEqual(['targets[0].urls[0]', 'targets[1].url']);
  });

  it("more monitors than MONITORS_PER_ACCOUNT, over all the account's keys: 409", async () => {
    const { prisma } = stack.api.deps;
    const account = await prisma.account.create({ data: { id: randomUUID(), name: 'monitor-many' } });
    const [{ key }, { key: second }] = await Promise.all(['monitor-many', 'monitor-many-2'].map((name) => createKey(prisma, name, TEST_PEPPER, account.id)));
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await stack.call('POST', '/v2/monitor', { name: `M${i}`, schedule: { text: 'weekly' }, targets: target() }, key);
      expect(res.status).toBe(200);
      ids.push((res.body.data as { id: string }).id);
    }
    // Another key of the same account brings no more room.
    const fifth = await stack.call('POST', '/v2/monitor', { name: 'M4', schedule: { text: 'weekly' }, targets: target() }, second);
    expect(fifth.status).toBe(409);
    expect(fifth.body).toMatchObject({ success: false, code: 'limit_reached', error: 'This account has 4 monitors, the most MONITORS_PER_ACCOUNT allows: delete one first.' });
    for (const id of ids) expect((await stack.call('DELETE', `/v2/monitor/${id}`, undefined, key)).status).toBe(200);
  });

});
