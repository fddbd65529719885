/**
 * A crawl or a batch scrape, as its page work sees it. Both run the same workflow, lanes, frontier
 * and batch store; they differ in their stored options (decoded by their own schema, jobs/options.ts),
 * in discovery (a batch has none: its URLs are the frontier, and links found on its pages are not
 * followed) and in the prefix of their webhook events.
 */
import { historyOwner } from '../../core/change-tracking.js';
import { webhooksOf, type CrawlWebhookContext, type JobKind } from '../../core/job-contracts.js';
import type { PageOptions } from '../../core/schemas/scrape.js';
import { jobOptions, pageOptionsOf } from '../../jobs/options.js';
import { rulesFor, type CrawlRules } from './rules.js';

export interface Job {
  kind: JobKind;
  /** What each page is scraped with; `timeout` is the page's budget when set. */
  pageOptions: PageOptions & { timeout?: number };
  /** How links found on a page are admitted; absent for a batch scrape (links are not followed). */
  rules?: CrawlRules;
  hooks?: CrawlWebhookContext;
  /** Whose change-tracking history its pages belong to. */
  owner: string;
}

/** The job's page work. For a crawl, call it only once discovery has stored robots.txt: the rules are compiled and cached with it. */
export function jobOf(crawlId: string, row: { kind: string; options: unknown; robotsTxt: string | null; apiKeyId: string | null; payer: string | null }, userAgent: string): Job {
  const owner = historyOwner(row);
  const decoded = jobOptions(row);
  const pageOptions = pageOptionsOf(decoded);
  if (decoded.kind === 'batch_scrape') {
    const { options } = decoded;
    return { kind: 'batch_scrape', owner, pageOptions, hooks: webhooksOf(crawlId, 'batch_scrape', { webhookUrls: options.webhookUrls, webhookMetadata: options.metadata, webhook: options.webhook }) };
  }
  const { options } = decoded;
  return { kind: 'crawl', owner, pageOptions, rules: rulesFor(crawlId, options, row.robotsTxt, userAgent), hooks: webhooksOf(crawlId, 'crawl', options) };
}
