/**
 * A monitor's targets as the jobs each check runs: a `scrape` target is a batch scrape of its URLs,
 * a `crawl` target a crawl; both with change tracking on (markdown, compared with the previous
 * check's version under the monitor's own tag, with a git diff unless the target asks otherwise).
 */
import type { MonitorTarget } from './schemas/monitor.js';
import type { PageOptions } from './schemas/scrape.js';
import { formatsFromV2, type V2Format } from './v2/formats.js';

export type StoredTarget = MonitorTarget & { id: string };

/** The change-tracking tag of a monitor: its pages' history is its own. */
export const monitorTag = (monitorId: string) => `monitor:${monitorId}`;

/** Page options for a target: its scrape options with v2 formats translated (may throw FormatError), change tracking forced on. */
export function targetPageOptions(monitorId: string, target: StoredTarget): Record<string, unknown> & Partial<PageOptions> {
  const { formats: asked, ...rest } = (target.scrapeOptions ?? {}) as Record<string, unknown> & { formats?: V2Format[] };
  const translated = formatsFromV2(asked ?? ['markdown']);
  const formats = [...new Set([...translated.formats, 'markdown', 'changeTracking'] as const)];
  const modes = translated.changeTrackingOptions?.modes ?? ['git-diff'];
  return {
    ...rest,
    ...translated,
    formats,
    changeTrackingOptions: { ...translated.changeTrackingOptions, modes, tag: monitorTag(monitorId) },
  };
}

/** The job a check runs for a target: its kind and the options stored on its crawl row. */
export function targetJob(monitorId: string, target: StoredTarget): { kind: 'crawl' | 'batch_scrape'; options: Record<string, unknown> } {
  const page = targetPageOptions(monitorId, target);
  if (target.type === 'crawl') return { kind: 'crawl', options: { url: target.url, ...target.crawlOptions, scrapeOptions: page } };
  return { kind: 'batch_scrape', options: { urls: target.urls, ...page } };
}
