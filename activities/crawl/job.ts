/**
 * A crawl or a batch scrape, as its page work sees it. Both run the same workflow, lanes, frontier
 * and batch store; they differ in their stored options (decoded by their own schema), in discovery
 * (a batch has none: its URLs are the frontier, and links found on its pages are not followed) and
 * in the prefix of their webhook events.
 */
import { historyOwner } from '../../core/change-tracking.js';
import { webhooksOf, type CrawlWebhookContext } from '../../core/crawl-contracts.js';
import { decodeBatchScrapeOptions, decodeCrawlOptions } from '../../core/schemas/decode.js';
import type { PageOptions } from '../../core/schemas/scrape.js';
import type { CrawlKind } from '../../prisma/client.js';
import { rulesFor, type CrawlRules } from './rules.js';

export interface Job {
  kind: CrawlKind;
  /** What each page is scraped with; `timeout` is the page's budget when set. */
  pageOptions: PageOptions & { timeout?: number };
  /** How links found on a page are admitted; absent for a batch scrape (links are not followed). */
  rules?: CrawlRules;
  hooks?: CrawlWebhookContext;
  /** The lane plan's inputs. */
  maxConcurrency?: number;
  delay?: number;
  /** Whose change-tracking history its pages belong to. */
  owner: string;
}

/** What sizes a job's lanes (core/crawl/lanes.ts), without compiling its rules: discovery needs it before robots.txt is read. */
export function jobPace(row: { kind: string; options: unknown }): Pick<Job, 'maxConcurrency' | 'delay'> {
  if (row.kind === 'batch_scrape') return { maxConcurrency: decodeBatchScrapeOptions(row.options).maxConcurrency };
  const { maxConcurrency, delay } = decodeCrawlOptions(row.options);
  return { maxConcurrency, delay };
}

/** The job's page work. For a crawl, call it only once discovery has stored robots.txt: the rules are compiled and cached with it. */
export function jobOf(crawlId: string, row: { kind: string; options: unknown; robotsTxt: string | null; apiKeyId: string | null; payer: string | null }, userAgent: string): Job {
  const owner = historyOwner(row);
  if (row.kind === 'batch_scrape') {
    const options = decodeBatchScrapeOptions(row.options);
    return { kind: 'batch_scrape', owner, pageOptions: options, hooks: webhooksOf(crawlId, 'batch_scrape', { webhookUrls: options.webhookUrls, webhookMetadata: options.metadata, webhook: options.webhook }), maxConcurrency: options.maxConcurrency };
  }
  const options = decodeCrawlOptions(row.options);
  return {
    kind: 'crawl',
    owner,
    pageOptions: options.scrapeOptions,
    rules: rulesFor(crawlId, options, row.robotsTxt, userAgent),
    hooks: webhooksOf(crawlId, 'crawl', options),
    maxConcurrency: options.maxConcurrency,
    delay: options.delay,
  };
}
