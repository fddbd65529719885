/** POST /v1/llmstxt (README "llms.txt"): the hosted shape, as the Python SDK's generate_llms_text sends it. */
import type { FromSchema } from 'json-schema-to-ts';
import { ignored } from './scrape.js';

export const LLMS_TXT_MAX_URLS = 100;

export const llmsTxtRequestSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 8192, description: 'The site.' },
    maxUrls: { type: 'integer', minimum: 1, maximum: LLMS_TXT_MAX_URLS, default: 10, description: `Pages read at most (1–${LLMS_TXT_MAX_URLS}).` },
    showFullText: { type: 'boolean', default: false, description: 'Also build llms-full.txt: every page’s markdown.' },
    cache: { type: 'boolean', ...ignored('every job reads the site.') },
    origin: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
    integration: { type: 'string', maxLength: 100, ...ignored('hosted-account bookkeeping.') },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

export type LlmsTxtRequest = FromSchema<typeof llmsTxtRequestSchema>;

export interface LlmsTxtInput {
  jobId: string;
}

/** What the LLM says of each page, for its line in llms.txt. */
export const pageDescriptionSchema = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, description: { type: 'string', minLength: 1, maxLength: 500 } },
  required: ['title', 'description'],
  additionalProperties: false,
} as const;

export const PAGE_DESCRIPTION_PROMPT = 'Describe this page for an llms.txt index: a short title (at most 10 words) and one sentence saying what a reader finds on it.';
