/**
 * A monitor's webhook: monitor.page for each page of a check that is not the same, and
 * monitor.check.completed once; each delivery its own durable workflow, started at most once
 * (its id is the delivery's identity), signed like every webhook.
 */
import type { CheckSummary } from '../../core/monitor-contracts.js';
import type { Monitor, PrismaClient } from '../../prisma/client.js';
import { startDeliveryOnce } from '../webhooks.js';

interface MonitorWebhook {
  url: string;
  headers?: Record<string, string>;
  metadata?: Record<string, unknown>;
  events?: ('monitor.page' | 'monitor.check.completed')[];
}

export async function notifyCheck(monitor: Monitor, checkId: string, status: string, summary: CheckSummary, taskQueue: string, prisma: PrismaClient): Promise<void> {
  const hook = monitor.webhook as MonitorWebhook | null;
  if (!hook) return;
  const wants = (event: 'monitor.page' | 'monitor.check.completed') => !hook.events || hook.events.includes(event);
  const base = { urls: [hook.url], subjectId: monitor.id, metadata: hook.metadata, ...(hook.headers ? { headers: hook.headers } : {}) };
  if (wants('monitor.page')) {
    const pages = await prisma.monitorCheckPage.findMany({ where: { checkId, status: { not: 'same' } }, orderBy: { id: 'asc' } });
    await Promise.all(
      pages.map((p) =>
        startDeliveryOnce(taskQueue, {
          ...base,
          event: 'monitor.page',
          deliveryId: `${checkId}-${p.id}`,
          extra: { checkId, data: [{ monitorId: monitor.id, checkId, url: p.url, status: p.status, statusCode: p.statusCode, error: p.error, diff: p.diff, judgment: p.judgment, currentScrapeId: p.currentScrapeId }] },
        }),
      ),
    );
  }
  if (wants('monitor.check.completed')) {
    await startDeliveryOnce(taskQueue, { ...base, event: 'monitor.check.completed', deliveryId: checkId, extra: { checkId, data: [{ monitorId: monitor.id, checkId, status, summary }] } });
  }
}
