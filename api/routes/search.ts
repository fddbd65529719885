/**
 * POST /v1/search and POST /v2/search (README "Search"): the hosted shapes over one operation
 * (api/run-search.ts). v1 answers a list of web results; v2 groups them by source. Priced and
 * rate-limited as a scrape plus one per result it may scrape.
 */
import { documentSchema } from '../../core/schemas/document.js';
import { searchRequestSchema, v1SearchRequestSchema, type SearchRequest } from '../../core/schemas/search.js';
import { v2SearchRequestSchema } from '../../core/schemas/v2.js';
import { searchFromV2 } from '../../core/v2/requests.js';
import { validateInput } from '../middleware/validate.js';
import { defineRoute } from '../route.js';
import { runSearch } from '../run-search.js';

const errorRef = { $ref: '#/components/schemas/Error' } as const;

const resultProperties = {
  url: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  position: { type: 'integer', description: 'Rank among this source’s results, from 1.' },
} as const;

/** A result, and with scrape formats the scraped page's fields beside it (`metadata.error` when it could not be scraped). */
const webResult = { type: 'object', properties: { ...documentSchema.properties, ...resultProperties }, required: ['url'] } as const;
const newsResult = { type: 'object', properties: { ...documentSchema.properties, url: { type: 'string' }, title: { type: 'string' }, snippet: { type: 'string' }, date: { type: 'string' }, imageUrl: { type: 'string' }, position: { type: 'integer' } }, required: ['url'] } as const;
const imageResult = {
  type: 'object',
  properties: { url: { type: 'string', description: 'The page the image is on.' }, imageUrl: { type: 'string' }, title: { type: 'string' }, imageWidth: { type: 'integer' }, imageHeight: { type: 'integer' }, position: { type: 'integer' } },
  required: ['url', 'imageUrl'],
} as const;

const refusals = {
  400: { description: 'Invalid request; `details` names the field.', schema: errorRef },
  501: { description: 'No search provider is configured: the message names the setting (SEARXNG_ENDPOINT or SERPER_API_KEY).', schema: errorRef },
  502: { description: 'The search provider could not be asked or answered with an error (`search_failed`).', schema: errorRef },
} as const;

/** One per result that may be scraped, plus the search: what a search counts against the scrape rate limit and, paid with x402, the scrape price. */
function units(body: unknown): number {
  const b = (body ?? {}) as { limit?: unknown; scrapeOptions?: { formats?: unknown } };
  const limit = typeof b.limit === 'number' && b.limit >= 1 ? Math.min(Math.floor(b.limit), 100) : 5;
  const formats = b.scrapeOptions?.formats;
  return b.scrapeOptions && (formats === undefined || (Array.isArray(formats) && formats.length > 0)) ? 1 + limit : 1;
}

const description = (v: 'v1' | 'v2') =>
  `Search the web through the operator's provider (SearXNG or Serper)${v === 'v2' ? ', by source (`web`, `news`, `images`)' : ''}. With \`scrapeOptions\`${v === 'v1' ? ' formats' : ''}, each web${v === 'v2' ? ' and news' : ''} result is scraped as POST /${v}/scrape would, within \`timeout\`; a result that could not be scraped keeps its place with \`metadata.error\`. Costs 1 credit, plus 1 per scraped result; counts against the scrape rate limit as 1 + limit when it scrapes.`;

export const searchRoute = defineRoute({
  method: 'post',
  path: '/v1/search',
  operationId: 'search',
  billed: true,
  credits: 1,
  summary: 'Search the web',
  description: description('v1'),
  tag: 'Search',
  auth: 'apiKey',
  rateLimit: 'scrape',
  paidAs: 'scrape',
  units,
  body: v1SearchRequestSchema,
  responses: {
    200: {
      description: 'The web results, in rank order.',
      schema: { type: 'object', properties: { success: { const: true }, data: { type: 'array', items: webResult }, warning: { type: 'string' } }, required: ['success', 'data'] },
    },
    ...refusals,
  },
  async handler(ctx, { body }) {
    const answer = await runSearch(ctx.state.deps, { ...(body as Omit<SearchRequest, 'sources'>), sources: ['web'] }, ctx.state.auth!, { budgetMs: ctx.state.payment?.workBudgetMs() });
    ctx.body = { success: true, data: answer.web ?? [], ...(answer.warning ? { warning: answer.warning } : {}) };
  },
});

export const searchV2Route = defineRoute({
  method: 'post',
  path: '/v2/search',
  operationId: 'searchV2',
  billed: true,
  credits: 1,
  summary: 'Search the web (v2)',
  description: description('v2'),
  tag: 'v2',
  auth: 'apiKey',
  rateLimit: 'scrape',
  paidAs: 'scrape',
  units,
  body: v2SearchRequestSchema,
  responses: {
    200: {
      description: 'The results by source, in rank order.',
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          data: { type: 'object', properties: { web: { type: 'array', items: webResult }, news: { type: 'array', items: newsResult }, images: { type: 'array', items: imageResult } } },
          warning: { type: 'string' },
          creditsUsed: { type: 'integer', description: '1 for the search, plus 1 per scraped result.' },
        },
        required: ['success', 'data', 'creditsUsed'],
      },
    },
    ...refusals,
  },
  async handler(ctx, { body }) {
    const request = validateInput('body', searchRequestSchema, searchFromV2(body)) as SearchRequest;
    const { deps } = ctx.state;
    const { warning, creditsUsed, ...data } = await runSearch(deps, request, ctx.state.auth!, { budgetMs: ctx.state.payment?.workBudgetMs(), defaultMaxAge: deps.config.CACHE_DEFAULT_MAX_AGE_MS });
    ctx.body = { success: true, data, ...(warning ? { warning } : {}), creditsUsed };
  },
});
