/**
 * The monitor API (the hosted v2 API's `/v2/monitor`, which the official MCP server's monitor tools
 * call): request schemas and the shapes the API answers with. README "Monitors".
 */
import type { FromSchema } from 'json-schema-to-ts';
import { crawlRequestSchema, MAX_OFFSET } from './crawl.js';
import { crawlScrapeOptionsSchema } from './scrape.js';

/** A monitor keeps checks this many days by default, at most MAX_RETENTION_DAYS. */
export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 365;
export const MAX_TARGETS = 50;
export const MAX_TARGET_URLS = 1000;

const { url: _seed, scrapeOptions: _scrape, webhookUrls: _hooks, webhookMetadata: _meta, webhook: _webhook, ...crawlOptionProperties } = crawlRequestSchema.properties;

/** A v2 scrape format: a name, or an object with `type` (the changeTracking one carries its options). */
const formatSchema = {
  anyOf: [
    { type: 'string', maxLength: 50 },
    {
      type: 'object',
      properties: {
        type: { type: 'string', maxLength: 50 },
        modes: { type: 'array', maxItems: 2, items: { enum: ['git-diff', 'json'] } },
        schema: { type: 'object' },
        prompt: { type: 'string', maxLength: 10000 },
        tag: { type: ['string', 'null'], maxLength: 200 },
      },
      required: ['type'],
    },
  ],
} as const;

/** A target's scrape options: the page options, with v2-style format objects allowed ({ type: "changeTracking", modes }). */
const targetScrapeOptions = {
  type: 'object',
  properties: { ...crawlScrapeOptionsSchema.properties, formats: { type: 'array', maxItems: 12, items: formatSchema } },
  additionalProperties: false,
  description: 'How each page is scraped (the scrape options; formats may be v2 objects). Change tracking is always on: markdown, compared with the previous check.',
} as const;

const targetSchema = {
  type: 'object',
  description: '`{ type: "scrape", urls }` or `{ type: "crawl", url, crawlOptions? }`, each with optional `scrapeOptions`. `search` targets are refused: there is no search engine here.',
  properties: {
    id: { type: 'string', maxLength: 100, description: 'Given by the server when absent; identifies the target in check pages.' },
    type: { enum: ['scrape', 'crawl', 'search'] },
    urls: { type: 'array', minItems: 1, maxItems: MAX_TARGET_URLS, items: { type: 'string', minLength: 1, maxLength: 8192 } },
    url: { type: 'string', minLength: 1, maxLength: 8192 },
    crawlOptions: { type: 'object', properties: crawlOptionProperties, additionalProperties: false },
    scrapeOptions: targetScrapeOptions,
    // The hosted API's search target fields, accepted so a search target gets its own clear refusal.
    queries: { type: 'array', items: { type: 'string' } },
    searchWindow: { type: 'string' },
    maxResults: { type: 'integer' },
    includeDomains: { type: 'array', items: { type: 'string' } },
    excludeDomains: { type: 'array', items: { type: 'string' } },
  },
  required: ['type'],
  additionalProperties: false,
} as const;

const scheduleSchema = {
  type: 'object',
  description: 'Exactly one of `text` ("every 30 minutes", "hourly", "every 6 hours", "daily at 9am", "weekly on monday at 08:30") and `cron` (five fields), in `timezone` (IANA, default UTC).',
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 200 },
    cron: { type: 'string', minLength: 1, maxLength: 200 },
    timezone: { type: 'string', minLength: 1, maxLength: 64 },
  },
  additionalProperties: false,
} as const;

const webhookSchema = {
  description: 'Receives monitor.page (each page that is not the same) and monitor.check.completed; signed like every webhook (README "Webhooks").',
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2048 },
        headers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 4096 } },
        metadata: { type: 'object' },
        events: { type: 'array', maxItems: 2, uniqueItems: true, items: { enum: ['monitor.page', 'monitor.check.completed'] } },
      },
      required: ['url'],
      additionalProperties: false,
    },
  ],
} as const;

const notificationSchema = {
  description: 'E-mail and Slack notifications need a mail server or a Slack app this service does not have: enabling one is refused; `null` or disabled ones are accepted.',
  anyOf: [{ type: 'null' }, { type: 'object', properties: { email: { type: 'object' }, slack: { type: 'object' } }, additionalProperties: false }],
} as const;

const monitorProperties = {
  name: { type: 'string', minLength: 1, maxLength: 256 },
  schedule: scheduleSchema,
  targets: { type: 'array', minItems: 1, maxItems: MAX_TARGETS, items: targetSchema },
  webhook: webhookSchema,
  notification: notificationSchema,
  retentionDays: { type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS, description: `Days checks are kept (default ${DEFAULT_RETENTION_DAYS}).` },
  goal: { type: 'string', maxLength: 2000, description: 'What counts as a meaningful change: with judgeEnabled, the LLM judges each changed page against it.' },
  judgeEnabled: { type: 'boolean', description: 'Judge changed pages against `goal` (default true when a goal is given).' },
  origin: { type: 'string', maxLength: 100, description: 'Accepted from hosted-API clients; ignored.' },
} as const;

export const createMonitorSchema = {
  type: 'object',
  properties: monitorProperties,
  required: ['name', 'schedule', 'targets'],
  additionalProperties: false,
} as const;

export const updateMonitorSchema = {
  type: 'object',
  properties: { ...monitorProperties, status: { enum: ['active', 'paused'] } },
  minProperties: 1,
  additionalProperties: false,
} as const;

export type CreateMonitorRequest = FromSchema<typeof createMonitorSchema>;
export type UpdateMonitorRequest = FromSchema<typeof updateMonitorSchema>;
export type MonitorTarget = FromSchema<typeof targetSchema>;

export const monitorIdParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$', description: 'Monitor id.' } },
  required: ['id'],
  additionalProperties: false,
} as const;

export const checkIdParams = {
  type: 'object',
  properties: { id: monitorIdParams.properties.id, checkId: { type: 'string', pattern: '^[0-9a-f-]{36}$', description: 'Check id.' } },
  required: ['id', 'checkId'],
  additionalProperties: false,
} as const;

export const listQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
  },
  additionalProperties: false,
} as const;

export const checkStatuses = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap'] as const;
export const pageStatuses = ['same', 'new', 'changed', 'removed', 'error'] as const;

export const checksQuery = {
  type: 'object',
  properties: { ...listQuery.properties, status: { enum: checkStatuses } },
  additionalProperties: false,
} as const;

export const checkPagesQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    skip: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
    status: { enum: pageStatuses },
  },
  additionalProperties: false,
} as const;

/** The answers' envelopes (their `data` is documented in the README; the MCP server passes it on as is). */
export const envelopeSchema = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type: 'object', properties: { success: { const: true }, data, ...extra }, required: ['success', 'data'] }) as const;
