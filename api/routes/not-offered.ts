/**
 * Hosted-API operations the official SDKs and MCP server can call that this server does not offer,
 * because they need what it does not have (a search engine, an agent, hosted services). Each
 * answers 501 `not_supported` with a message saying so, never a bare 404 (README "Not offered
 * here"). They read no body (POST /v2/parse is a multipart upload), so they are served before the
 * JSON body parser, and before the v2 job routes (`/v2/agent/threads/:threadId` is not an agent id).
 */
import { NotSupportedError } from '../../core/errors.js';
import { defineRoute, type RouteSpec } from '../route.js';

const offered = 'This server offers scrape, crawl, batch scrape, map and search.';
const search = 'it needs a hosted index; POST /v2/search searches the web through the operator’s provider';
const agent = 'it needs the hosted agent';
const browser = 'interactive browser sessions are a hosted feature; use waitFor to let a page render';

const operations: { method: 'get' | 'post' | 'delete'; path: string; operationId: string; what: string; why: string }[] = [
  { method: 'post', path: '/v1/deep-research', operationId: 'deepResearch', what: 'Deep research', why: 'it needs web search and an agent' },
  { method: 'get', path: '/v1/deep-research/:id', operationId: 'deepResearchStatus', what: 'Deep research', why: 'it needs web search and an agent' },
  // v2: what the SDKs' default clients and the MCP server can call besides scrape, crawl, map, batch scrape and monitors.
  { method: 'post', path: '/v2/search/:id/feedback', operationId: 'searchFeedbackV2', what: 'Search feedback', why: search },
  { method: 'post', path: '/v2/search/developer', operationId: 'developerSearchV2', what: 'Developer search', why: search },
  { method: 'get', path: '/v2/search/developer', operationId: 'developerSearchGetV2', what: 'Developer search', why: search },
  { method: 'post', path: '/v2/search/gov', operationId: 'govSearchV2', what: 'Government search', why: search },
  { method: 'get', path: '/v2/search/research/papers', operationId: 'researchPapersV2', what: 'Research search', why: search },
  { method: 'get', path: '/v2/search/research/papers/:id', operationId: 'researchPaperV2', what: 'Research search', why: search },
  { method: 'get', path: '/v2/search/research/papers/:id/similar', operationId: 'researchSimilarPapersV2', what: 'Research search', why: search },
  { method: 'get', path: '/v2/search/research/github', operationId: 'researchGithubV2', what: 'Research search', why: search },
  { method: 'post', path: '/v2/feedback', operationId: 'feedbackV2', what: 'Feedback', why: 'it goes to the hosted service; open an issue on this project instead' },
  { method: 'post', path: '/v2/agent', operationId: 'agentV2', what: 'The agent', why: agent },
  { method: 'get', path: '/v2/agent', operationId: 'agentListV2', what: 'The agent', why: agent },
  { method: 'get', path: '/v2/agent/:id', operationId: 'agentStatusV2', what: 'The agent', why: agent },
  { method: 'delete', path: '/v2/agent/:id', operationId: 'agentCancelV2', what: 'The agent', why: agent },
  { method: 'get', path: '/v2/agent/:id/trace', operationId: 'agentTraceV2', what: 'The agent', why: agent },
  { method: 'get', path: '/v2/agent/:id/snapshots/:snapshotId', operationId: 'agentSnapshotV2', what: 'The agent', why: agent },
  { method: 'get', path: '/v2/agent/threads/:threadId', operationId: 'agentThreadV2', what: 'The agent', why: agent },
  { method: 'post', path: '/v2/scrape/:id/interact', operationId: 'interactV2', what: 'Interacting with a scraped page', why: browser },
  { method: 'delete', path: '/v2/scrape/:id/interact', operationId: 'interactStopV2', what: 'Interacting with a scraped page', why: browser },
  { method: 'post', path: '/v2/browser', operationId: 'browserV2', what: 'Browser sessions', why: browser },
  { method: 'get', path: '/v2/browser', operationId: 'browserListV2', what: 'Browser sessions', why: browser },
  { method: 'post', path: '/v2/browser/:id/execute', operationId: 'browserExecuteV2', what: 'Browser sessions', why: browser },
  { method: 'delete', path: '/v2/browser/:id', operationId: 'browserCloseV2', what: 'Browser sessions', why: browser },
  { method: 'post', path: '/v2/parse', operationId: 'parseV2', what: 'Parsing uploaded files', why: 'uploads are a hosted feature; put the file on a web server this server may reach and scrape its URL (PDFs become text)' },
  { method: 'get', path: '/v2/parse/formats', operationId: 'parseFormatsV2', what: 'Parsing uploaded files', why: 'uploads are a hosted feature; put the file on a web server this server may reach and scrape its URL (PDFs become text)' },
  { method: 'post', path: '/v2/parse/upload-url', operationId: 'parseUploadUrlV2', what: 'Parsing uploaded files', why: 'uploads are a hosted feature; put the file on a web server this server may reach and scrape its URL (PDFs become text)' },
  { method: 'get', path: '/exchange/discover', operationId: 'exchangeDiscover', what: 'The provider exchange', why: 'it is a hosted feature' },
];

/** `/v2/agent/:id/snapshots/:snapshotId` → ['id', 'snapshotId'] */
const paramsOf = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

export const notOfferedRoutes: RouteSpec[] = operations.map(({ method, path, operationId, what, why }) => {
  const names = paramsOf(path);
  return defineRoute({
    method,
    path,
    operationId,
    summary: `${what}: not offered here`,
    description: `Answers 501 \`not_supported\`: ${why}.`,
    tag: 'Not offered here',
    auth: 'none',
    readsNoBody: true,
    ...(names.length ? { params: { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string', description: 'Not read.' }])), required: names } as const } : {}),
    responses: { 501: { description: 'Not offered by this server.', schema: { $ref: '#/components/schemas/Error' } } },
    handler() {
      throw new NotSupportedError(`${what} is not offered by this server: ${why}. ${offered}`);
    },
  });
});
