/**
 * Monitor operations behind /v2/monitor (README "Monitors"): every one scoped to the calling API
 * key (another key's monitor is a 404), each monitor one Temporal Schedule (api/monitor-schedules.ts).
 */
import { randomUUID } from 'node:crypto';
import { patternBudget } from '../core/crawl/patterns.js';
import { ScheduleError, resolveSchedule } from '../core/monitor-schedule.js';
import { targetJob, targetPageOptions, type StoredTarget } from '../core/monitor-targets.js';
import { ApiError, type ErrorDetail, invalidBody, NotFoundError, ServiceUnavailableError } from '../core/errors.js';
import { DEFAULT_RETENTION_DAYS, type CreateMonitorRequest, type MonitorTarget, type UpdateMonitorRequest } from '../core/schemas/monitor.js';
import { decodeBatchScrapeOptions, decodeCrawlOptions, StoredOptionsError } from '../core/schemas/decode.js';
import { pageOptionProblems } from '../core/schemas/scrape.js';
import { checkUrlSyntax, safetyOptionsFrom, UnsafeUrlError } from '../core/url-safety.js';
import { FormatError } from '../core/v2/formats.js';
import { Prisma, type Monitor } from '../prisma/client.js';
import type { ApiDeps } from './deps.js';
import { checkView, monitorView, pageView } from './monitor-views.js';
import { createSchedule, deleteSchedule, startCheck, updateSchedule } from './monitor-schedules.js';
import { patternProblems } from './patterns.js';
import { webhookUrlProblems } from './webhook-urls.js';

function fail(details: ErrorDetail[]): never {
  throw invalidBody(details);
}

/** Targets with ids, and what is wrong with them (field names like `targets[1].urls[0]`). */
function checkTargets(deps: ApiDeps, targets: MonitorTarget[]): { targets: StoredTarget[]; details: ErrorDetail[] } {
  const safety = safetyOptionsFrom(deps.config);
  const details: ErrorDetail[] = [];
  const url = (value: string, field: string) => {
    try {
      checkUrlSyntax(value, safety);
    } catch (err) {
      if (!(err instanceof UnsafeUrlError)) throw err;
      details.push({ field, message: err.message });
    }
  };
  const budget = patternBudget(); // one request's worth of patterns, over all targets
  const stored = targets.map((target, i): StoredTarget => {
    const at = `targets[${i}]`;
    const withId = { ...target, id: target.id ?? `target-${i + 1}` };
    if (target.type === 'search') details.push({ field: `${at}.type`, message: 'search targets need a search engine, which this server does not have: use scrape or crawl targets' });
    if (target.type === 'scrape') {
      if (!target.urls) details.push({ field: `${at}.urls`, message: 'is required for a scrape target' });
      target.urls?.forEach((u, j) => url(u, `${at}.urls[${j}]`));
    }
    if (target.type === 'crawl') {
      if (!target.url) details.push({ field: `${at}.url`, message: 'is required for a crawl target' });
      else url(target.url, `${at}.url`);
      const crawl: { includePaths?: string[]; excludePaths?: string[]; regexOnFullURL?: boolean } = target.crawlOptions ?? {};
      details.push(...patternProblems({ includePaths: crawl.includePaths ?? [], excludePaths: crawl.excludePaths ?? [] }, crawl.regexOnFullURL ?? false, budget).map((d) => ({ ...d, field: `${at}.crawlOptions.${d.field}` })));
    }
    try {
      const page = targetPageOptions('check', withId);
      details.push(...pageOptionProblems({ waitFor: 0, ...page } as Parameters<typeof pageOptionProblems>[0]).map((d) => ({ ...d, field: `${at}.scrapeOptions.${d.field}` })));
      // The job each check runs must read back as a crawl or batch scrape does (core/schemas/decode.ts).
      if (target.type !== 'search' && (target.urls || target.url)) {
        const job = targetJob('check', withId);
        (job.kind === 'crawl' ? decodeCrawlOptions : decodeBatchScrapeOptions)(job.options);
      }
    } catch (err) {
      if (err instanceof FormatError) details.push({ field: `${at}.scrapeOptions.formats[${err.index}]${err.path}`, message: err.message });
      else if (err instanceof StoredOptionsError) details.push({ field: at, message: `does not make a valid ${target.type}: ${err.problems}` });
      else throw err;
    }
    return withId;
  });
  const ids = stored.map((t) => t.id);
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) details.push({ field: `targets[${i}].id`, message: `repeats ${JSON.stringify(id)}: target ids must differ` });
  });
  return { targets: stored, details };
}

/** Where a monitor reports: a webhook the URL policy allows; no e-mail or Slack (no server for them). */
function checkDelivery(deps: ApiDeps, body: Pick<CreateMonitorRequest, 'notification' | 'webhook'>, details: ErrorDetail[]): void {
  const n = body.notification as { email?: { enabled?: boolean }; slack?: { enabled?: boolean } } | null | undefined;
  if (n?.email && n.email.enabled !== false) details.push({ field: 'notification.email', message: 'e-mail notifications need a mail server, which this server does not have: use a webhook' });
  if (n?.slack && n.slack.enabled !== false) details.push({ field: 'notification.slack', message: 'Slack notifications need a Slack app, which this server does not have: use a webhook' });
  if (body.webhook) details.push(...webhookUrlProblems({ webhook: { url: body.webhook.url } }, safetyOptionsFrom(deps.config)));
}

function scheduleOf(deps: ApiDeps, schedule: CreateMonitorRequest['schedule'], details: ErrorDetail[]) {
  try {
    return resolveSchedule(schedule, deps.config.MONITOR_MIN_INTERVAL_SECONDS);
  } catch (err) {
    if (!(err instanceof ScheduleError)) throw err;
    details.push({ field: err.field, message: err.message });
    return undefined;
  }
}

async function findMonitor(deps: ApiDeps, apiKeyId: string, id: string): Promise<Monitor> {
  const monitor = await deps.prisma.monitor.findUnique({ where: { id } });
  if (!monitor || monitor.apiKeyId !== apiKeyId) throw new NotFoundError(`No monitor with id ${id}.`);
  return monitor;
}

async function view(deps: ApiDeps, monitor: Monitor) {
  const current = await deps.prisma.monitorCheck.findFirst({ where: { monitorId: monitor.id, status: { in: ['queued', 'running'] } }, orderBy: { createdAt: 'desc' }, select: { id: true } });
  return monitorView(monitor, current?.id ?? null);
}

const scheduleUnavailable = (err: unknown) => new ServiceUnavailableError(`Could not reach Temporal to set the monitor's schedule: ${(err as Error).message}. Try again shortly.`);

export async function createMonitor(deps: ApiDeps, apiKeyId: string, body: CreateMonitorRequest) {
  const details: ErrorDetail[] = [];
  const schedule = scheduleOf(deps, body.schedule, details);
  const { targets, details: targetProblems } = checkTargets(deps, body.targets);
  details.push(...targetProblems);
  checkDelivery(deps, body, details);
  if (details.length) fail(details);
  // Per account: its members can make any number of keys.
  const [{ count }] = await deps.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM monitor m JOIN api_key k ON k.id = m.api_key_id
    WHERE k.account_id = (SELECT account_id FROM api_key WHERE id = ${apiKeyId})`;
  if (count >= deps.config.MONITORS_PER_ACCOUNT) throw new ApiError(409, 'limit_reached', `This account has ${count} monitors, the most MONITORS_PER_ACCOUNT allows: delete one first.`);
  const monitor = await deps.prisma.monitor.create({
    data: {
      id: randomUUID(),
      apiKeyId,
      name: body.name,
      scheduleText: schedule!.text ?? null,
      cron: schedule!.cron,
      timezone: schedule!.timezone,
      targets: targets as unknown as Prisma.InputJsonValue,
      webhook: (body.webhook ?? undefined) as Prisma.InputJsonValue | undefined,
      retentionDays: body.retentionDays ?? DEFAULT_RETENTION_DAYS,
      goal: body.goal ?? null,
      judgeEnabled: body.judgeEnabled ?? Boolean(body.goal),
    },
  });
  try {
    await createSchedule(deps, monitor);
  } catch (err) {
    await deps.prisma.monitor.delete({ where: { id: monitor.id } });
    throw scheduleUnavailable(err);
  }
  return { success: true as const, data: await view(deps, monitor) };
}

export async function listMonitors(deps: ApiDeps, apiKeyId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    deps.prisma.monitor.findMany({ where: { apiKeyId }, orderBy: { createdAt: 'desc' }, skip: page.offset, take: page.limit }),
    deps.prisma.monitor.count({ where: { apiKeyId } }),
  ]);
  return { success: true as const, data: await Promise.all(rows.map((m) => view(deps, m))), pagination: { limit: page.limit, offset: page.offset, total } };
}

export async function getMonitor(deps: ApiDeps, apiKeyId: string, id: string) {
  return { success: true as const, data: await view(deps, await findMonitor(deps, apiKeyId, id)) };
}

export async function updateMonitor(deps: ApiDeps, apiKeyId: string, id: string, body: UpdateMonitorRequest) {
  const monitor = await findMonitor(deps, apiKeyId, id);
  const details: ErrorDetail[] = [];
  const schedule = body.schedule ? scheduleOf(deps, body.schedule, details) : undefined;
  const targets = body.targets ? checkTargets(deps, body.targets) : undefined;
  if (targets) details.push(...targets.details);
  checkDelivery(deps, body, details);
  if (details.length) fail(details);
  const changes = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.status ? { status: body.status, pausedReason: null } : {}),
    ...(schedule ? { scheduleText: schedule.text ?? null, cron: schedule.cron, timezone: schedule.timezone } : {}),
    ...(targets ? { targets: targets.targets as unknown as Prisma.InputJsonValue } : {}),
    ...(body.webhook !== undefined ? { webhook: body.webhook === null ? Prisma.DbNull : (body.webhook as Prisma.InputJsonValue) } : {}),
    ...(body.retentionDays !== undefined ? { retentionDays: body.retentionDays } : {}),
    ...(body.goal !== undefined ? { goal: body.goal } : {}),
    ...(body.judgeEnabled !== undefined ? { judgeEnabled: body.judgeEnabled } : body.goal ? { judgeEnabled: true } : {}),
  };
  // The Schedule first: if Temporal cannot be reached, nothing changed.
  try {
    await updateSchedule(deps, { ...monitor, ...changes } as Monitor);
  } catch (err) {
    throw scheduleUnavailable(err);
  }
  const updated = await deps.prisma.monitor.update({ where: { id }, data: changes });
  return { success: true as const, data: await view(deps, updated) };
}

export async function deleteMonitor(deps: ApiDeps, apiKeyId: string, id: string) {
  await findMonitor(deps, apiKeyId, id);
  try {
    await deleteSchedule(deps, id);
  } catch (err) {
    throw scheduleUnavailable(err);
  }
  await deps.prisma.monitor.delete({ where: { id } });
  return { success: true as const };
}

export async function runMonitor(deps: ApiDeps, apiKeyId: string, id: string) {
  const monitor = await findMonitor(deps, apiKeyId, id);
  if (monitor.status === 'paused') throw new ApiError(409, 'monitor_paused', `Monitor ${id} is paused${monitor.pausedReason ? ` (${monitor.pausedReason})` : ''}: resume it (PATCH with status "active") to run it.`);
  const running = await deps.prisma.monitorCheck.findFirst({ where: { monitorId: id, status: { in: ['queued', 'running'] } }, select: { id: true } });
  if (running) throw new ApiError(409, 'check_running', `Monitor ${id} has check ${running.id} running; wait for it to finish.`);
  const check = await deps.prisma.monitorCheck.create({ data: { id: randomUUID(), monitorId: id, status: 'queued', trigger: 'manual' } });
  try {
    await startCheck(deps, id, check.id);
  } catch (err) {
    await deps.prisma.monitorCheck.delete({ where: { id: check.id } });
    throw new ServiceUnavailableError(`Could not start the check on the workers (Temporal): ${(err as Error).message}. Try again shortly.`);
  }
  return { success: true as const, data: checkView(check) };
}

export async function listChecks(deps: ApiDeps, apiKeyId: string, id: string, page: { limit: number; offset: number; status?: string }) {
  await findMonitor(deps, apiKeyId, id);
  const where = { monitorId: id, ...(page.status ? { status: page.status } : {}) };
  const [rows, total] = await Promise.all([deps.prisma.monitorCheck.findMany({ where, orderBy: { createdAt: 'desc' }, skip: page.offset, take: page.limit }), deps.prisma.monitorCheck.count({ where })]);
  return { success: true as const, data: rows.map(checkView), pagination: { limit: page.limit, offset: page.offset, total } };
}

/** One check and a page of its pages; `next` (an absolute URL on AUTH_URL, as the SDKs follow it) while more remain. */
export async function getCheck(deps: ApiDeps, apiKeyId: string, id: string, checkId: string, page: { limit: number; skip: number; status?: string }) {
  await findMonitor(deps, apiKeyId, id);
  const check = await deps.prisma.monitorCheck.findUnique({ where: { id: checkId } });
  if (!check || check.monitorId !== id) throw new NotFoundError(`Monitor ${id} has no check ${checkId}.`);
  const where = { checkId, ...(page.status ? { status: page.status } : {}) };
  const rows = await deps.prisma.monitorCheckPage.findMany({ where, orderBy: { id: 'asc' }, skip: page.skip, take: page.limit + 1 });
  const more = rows.length > page.limit;
  const next = more ? `${deps.config.AUTH_URL.replace(/\/+$/, '')}/v2/monitor/${id}/checks/${checkId}?skip=${page.skip + page.limit}&limit=${page.limit}${page.status ? `&status=${page.status}` : ''}` : undefined;
  const data = { ...checkView(check), pages: rows.slice(0, page.limit).map(pageView), ...(next ? { next } : {}) };
  return { success: true as const, data, ...(next ? { next } : {}) };
}
