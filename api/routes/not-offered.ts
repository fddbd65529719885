/**
 * Hosted v1 API operations the official SDKs can call that this server does not offer, because they
 * need what it does not have (a search engine, an agent, hosted accounts). Each answers 501
 * `not_supported` with a message saying so, never a bare 404 (README "Not offered here").
 */
import { NotSupportedError } from '../../core/errors.js';
import { defineRoute, type RouteSpec } from '../route.js';

const offered = 'This server offers scrape, crawl, batch scrape and map.';
const operations: { method: 'get' | 'post'; path: string; operationId: string; what: string; why: string }[] = [
  { method: 'post', path: '/v1/search', operationId: 'search', what: 'Web search', why: 'it needs a search engine, and this server has none' },
  { method: 'post', path: '/v1/extract', operationId: 'extractJob', what: 'Extract jobs', why: 'multi-page extraction jobs with web search are a hosted feature; use `extract` or `jsonOptions` on scrape, crawl or batch scrape' },
  { method: 'get', path: '/v1/extract/:id', operationId: 'extractJobStatus', what: 'Extract jobs', why: 'multi-page extraction jobs with web search are a hosted feature; use `extract` or `jsonOptions` on scrape, crawl or batch scrape' },
  { method: 'post', path: '/v1/deep-research', operationId: 'deepResearch', what: 'Deep research', why: 'it needs web search and an agent' },
  { method: 'get', path: '/v1/deep-research/:id', operationId: 'deepResearchStatus', what: 'Deep research', why: 'it needs web search and an agent' },
  { method: 'post', path: '/v1/llmstxt', operationId: 'llmsTxt', what: 'llms.txt generation', why: 'it is a hosted feature; crawl the site with formats ["markdown"] instead' },
  { method: 'get', path: '/v1/llmstxt/:id', operationId: 'llmsTxtStatus', what: 'llms.txt generation', why: 'it is a hosted feature; crawl the site with formats ["markdown"] instead' },
  { method: 'get', path: '/v1/team/credit-usage', operationId: 'creditUsage', what: 'Credit usage', why: 'there are no hosted credits here: API keys are not metered' },
  { method: 'get', path: '/v1/team/credit-usage/historical', operationId: 'creditUsageHistorical', what: 'Credit usage', why: 'there are no hosted credits here: API keys are not metered' },
  { method: 'get', path: '/v1/team/token-usage', operationId: 'tokenUsage', what: 'Token usage', why: 'there are no hosted credits here: API keys are not metered' },
  { method: 'get', path: '/v1/team/token-usage/historical', operationId: 'tokenUsageHistorical', what: 'Token usage', why: 'there are no hosted credits here: API keys are not metered' },
  { method: 'get', path: '/v1/team/queue-status', operationId: 'queueStatus', what: 'Queue status', why: 'jobs run on Temporal here: its UI shows them' },
];

export const notOfferedRoutes: RouteSpec[] = operations.map(({ method, path, operationId, what, why }) =>
  defineRoute({
    method,
    path,
    operationId,
    summary: `${what}: not offered here`,
    description: `Answers 501 \`not_supported\`: ${why}.`,
    tag: 'Not offered here',
    auth: 'none',
    ...(method === 'post' ? { body: { type: 'object', description: 'Not read: the operation is not offered.' } as const } : {}),
    ...(path.endsWith('/:id') ? { params: { type: 'object', properties: { id: { type: 'string', description: 'Not read.' } }, required: ['id'] } as const } : {}),
    responses: { 501: { description: 'Not offered by this server.', schema: { $ref: '#/components/schemas/Error' } } },
    handler() {
      throw new NotSupportedError(`${what} is not offered by this server: ${why}. ${offered}`);
    },
  }),
);
