import { actionResultsSchema } from './actions.js';

/** The Document response shape (spec: "Document"): the OpenAPI reference, and the type of documents in API answers. */
export const documentSchema = {
  type: 'object',
  properties: {
    markdown: { type: 'string' },
    html: { type: 'string' },
    rawHtml: { type: 'string' },
    links: { type: 'array', items: { type: 'string' } },
    images: { type: 'array', items: { type: 'string' }, description: 'With the images format: absolute image URLs of the whole page, deduplicated, in document order (README "Images, attributes and summary").' },
    attributes: {
      type: 'array',
      description: 'With the attributes format: one entry per requested `{ selector, attribute }`, in order, with the attribute\'s value on each matching element.',
      items: {
        type: 'object',
        properties: { selector: { type: 'string' }, attribute: { type: 'string' }, values: { type: 'array', items: { type: 'string' } } },
        required: ['selector', 'attribute', 'values'],
        additionalProperties: false,
      },
    },
    summary: { type: 'string', description: 'With the summary format: a short summary of the page by the LLM (absent, with `metadata.extractSkipped`, when the server has no LLM).' },
    screenshot: { type: 'string', description: 'Base64-encoded PNG (a JPEG with screenshotOptions.quality).' },
    actions: actionResultsSchema,
    extract: { description: 'Extraction result (an object matching `extract.schema`).' },
    json: { description: 'Extraction result with the `json` format (an object matching `jsonOptions.schema`).' },
    changeTracking: {
      type: 'object',
      description: 'With the changeTracking format: how the page compares with its last version (README "Change tracking").',
      properties: {
        previousScrapeAt: { type: ['string', 'null'], description: 'When the version compared against was scraped; null the first time.' },
        changeStatus: { enum: ['new', 'same', 'changed', 'removed'] },
        visibility: { enum: ['visible', 'hidden'] },
        diff: {
          type: 'object',
          properties: { text: { type: 'string', description: 'Unified diff of the markdown.' }, json: { type: 'object', description: 'The diff parsed (parse-diff): files[].chunks[].changes[].' } },
          required: ['text', 'json'],
        },
        json: { description: '`json` mode: the fields that differ as { previous, current }, or the LLM’s account without a schema.' },
      },
      required: ['previousScrapeAt', 'changeStatus', 'visibility'],
    },
    metadata: {
      type: 'object',
      description:
        'title, description, language, ogImage, keywords, robots, canonical, favicon, sourceURL (as asked), url (final, after redirects), statusCode, contentType, engine (fetch | local_browser | remote), scrapeId, extractSkipped / extractError / summaryError when they apply, cacheState and cachedAt when the page cache was asked (maxAge, minAge), and every other meta / og: / twitter: / article: tag of the page.',
      properties: {
        title: { type: 'string' },
        description: { type: 'string' },
        language: { type: 'string' },
        ogImage: { type: 'string' },
        sourceURL: { type: 'string' },
        url: { type: 'string' },
        statusCode: { type: 'integer' },
        contentType: { type: 'string' },
        engine: { enum: ['fetch', 'local_browser', 'remote'] },
        extractSkipped: { type: 'boolean' },
        cacheState: { enum: ['hit', 'miss'], description: 'With maxAge or minAge: whether the page came from the page cache.' },
        cachedAt: { type: 'string', description: 'When the served copy was stored (ISO 8601); on a miss, the time this result was stored in the cache.' },
      },
    },
  },
  required: ['metadata'],
  additionalProperties: false,
} as const;
