/**
 * Contract test with the official Firecrawl MCP server (firecrawl-mcp, pinned in package.json),
 * unmodified, over stdio with the MCP SDK's own client, pointed at the test stack with
 * FIRECRAWL_API_URL: its monitor tools (create, list, get, update, run, checks, check, delete) all
 * work, and the client accepts every answer against the tools' output schemas. The goal judge runs
 * through a local chat-completions fake (an LLM is a paid service we cannot run here).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from './fixtures/llm.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { pollUntil } from './helpers/poll.js';
import { startMcpServer, type McpServer } from './helpers/mcp.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const pages: Record<string, string> = {};
const send = (res: ServerResponse, path: string): void => {
  if (pages[path] === undefined) res.writeHead(404).end();
  else res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${path}</title></head><body>${pages[path]}</body></html>`);
};

const judgment = { meaningful: true, confidence: 'high', reason: 'The price went up.', meaningfulChanges: [{ type: 'changed', before: '$10', after: '$12', reason: 'Price' }] };

let site: FixtureServer;
let llm: FakeLlm;
let stack: TestStack;
let mcp: McpServer;

beforeAll(async () => {
  [site, llm] = await Promise.all([startFixtureServer({}, (req, res) => send(res, (req.url ?? '/').split('?')[0]!)), startFakeLlm([JSON.stringify(judgment)])]);
  stack = await startTestStack({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-llm-key', LLM_MODEL: 'test-model' });
  mcp = await startMcpServer(stack);
});
afterAll(async () => {
  await mcp?.close();
  await stack?.close();
  await Promise.all([site?.close(), llm?.close()]);
});

const tool: McpServer['tool'] = (name, args) => mcp.tool(name, args);

describe('the official MCP server’s monitor tools', () => {
  it('offers all eight', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name).filter((n) => n.startsWith('firecrawl_monitor_'));
    expect(names.sort()).toEqual(['firecrawl_monitor_check', 'firecrawl_monitor_checks', 'firecrawl_monitor_create', 'firecrawl_monitor_delete', 'firecrawl_monitor_get', 'firecrawl_monitor_list', 'firecrawl_monitor_update', 'firecrawl_monitor_run'].sort());
  });

  it('create, list, get, run, checks, check, update and delete a monitor; the judge fills changed pages’ judgment', async () => {
    pages['/price'] = '<h1>Pricing</h1><p>Pro: $10</p>';
    pages['/about'] = '<h1>About</h1><p>We sell things.</p>';
    const created = await tool('firecrawl_monitor_create', { pages: [`${site.url}/price`, `${site.url}/about`], goal: 'Tell me when the price changes', scheduleText: 'daily at 9am', timezone: 'Europe/Paris' });
    expect(created.isError, created.text).toBe(false);
    const monitor = created.data.data as { id: string; name: string; schedule: unknown; status: string; goal: string; judgeEnabled: boolean; targets: unknown };
    expect(monitor).toMatchObject({
      name: `Monitor ${site.url}/price`,
      status: 'active',
      schedule: { cron: '0 9 * * *', text: 'daily at 9am', timezone: 'Europe/Paris' },
      goal: 'Tell me when the price changes',
      judgeEnabled: true,
      targets: [{ id: 'target-1', type: 'scrape', urls: [`${site.url}/price`, `${site.url}/about`] }],
    });
    const { id } = monitor;

    const listed = await tool('firecrawl_monitor_list', { limit: 10 });
    expect(listed.isError, listed.text).toBe(false);
    expect((listed.data.data as { id: string }[]).map((m) => m.id)).toEqual([id]);
    expect(listed.data.pagination).toEqual({ limit: 10, offset: 0, total: 1 });

    const got = await tool('firecrawl_monitor_get', { id });
    expect(got.data.data).toMatchObject({ id, name: monitor.name });

    const runAndWait = async () => {
      const run = await tool('firecrawl_monitor_run', { id });
      expect(run.isError, run.text).toBe(false);
      const check = run.data.data as { id: string; status: string; trigger: string };
      expect(check).toMatchObject({ status: 'queued', trigger: 'manual' });
      await pollUntil(
        () => tool('firecrawl_monitor_checks', { id, status: 'completed' }),
        (r) => (r.data.data as { id: string }[]).some((c) => c.id === check.id),
        'the check completed',
      );
      return check.id;
    };

    const first = await runAndWait();
    const firstCheck = await tool('firecrawl_monitor_check', { id, checkId: first });
    expect(firstCheck.isError, firstCheck.text).toBe(false);
    expect(firstCheck.data.data).toMatchObject({ id: first, status: 'completed', summary: { totalPages: 2, new: 2, same: 0, changed: 0 } });

    pages['/price'] = '<h1>Pricing</h1><p>Pro: $12</p>';
    const second = await runAndWait();
    const checks = await tool('firecrawl_monitor_checks', { id, limit: 5 });
    expect((checks.data.data as { id: string }[]).map((c) => c.id)).toEqual([second, first]);
    expect(checks.data.pagination).toEqual({ limit: 5, offset: 0, total: 2 });

    const changed = await tool('firecrawl_monitor_check', { id, checkId: second, pageStatus: 'changed' });
    expect(changed.isError, changed.text).toBe(false);
    const detail = changed.data.data as { summary: Record<string, number>; pages: { url: string; status: string; diff: { text: string }; judgment: unknown }[] };
    expect(detail.summary).toMatchObject({ totalPages: 2, changed: 1, same: 1 });
    expect(detail.pages).toHaveLength(1);
    expect(detail.pages[0]).toMatchObject({ url: `${site.url}/price`, status: 'changed', judgment });
    expect(detail.pages[0]!.diff.text).toContain('-Pro: $10\n+Pro: $12');
    // The judge saw the diff and the goal.
    expect(llm.requests).toHaveLength(1);
    expect(JSON.stringify(llm.requests[0]!.messages)).toContain('Tell me when the price changes');
    expect(JSON.stringify(llm.requests[0]!.messages)).toContain('+Pro: $12');

    // One page at a time: `next` is a string the client accepts.
    const paged = await tool('firecrawl_monitor_check', { id, checkId: second, limit: 1 });
    expect(paged.isError, paged.text).toBe(false);
    expect(paged.data.next).toBe(`${stack.api.url}/v2/monitor/${id}/checks/${second}?skip=1&limit=1`);

    const updated = await tool('firecrawl_monitor_update', { id, body: { status: 'paused', name: 'Price watch' } });
    expect(updated.isError, updated.text).toBe(false);
    expect(updated.data.data).toMatchObject({ id, status: 'paused', name: 'Price watch', nextRunAt: null });
    expect((await stack.api.deps.temporal.schedule.getHandle(`monitor-${id}`).describe()).state.paused).toBe(true);

    const deleted = await tool('firecrawl_monitor_delete', { id });
    expect(deleted.isError, deleted.text).toBe(false);
    expect(deleted.data.success).toBe(true);
    const gone = await tool('firecrawl_monitor_get', { id });
    expect(gone.isError).toBe(true);
    expect(gone.text).toContain(`No monitor with id ${id}`);
  });

  it('reports the refusal of a search monitor, saying why', async () => {
    const refused = await tool('firecrawl_monitor_create', { queries: ['new pricing pages'], goal: 'Find pricing news' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('search targets need a search engine, which this server does not have');
  });
});
