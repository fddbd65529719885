/**
 * Names both sides of Temporal agree on: workflow types, workflow-id formats, search attributes.
 * API, worker and tests import these; nobody retypes them.
 */

export const workflowIds = {
  scrape: (scrapeId: string) => `scrape-${scrapeId}`,
  crawl: (crawlId: string) => `crawl-${crawlId}`,
  map: (mapId: string) => `map-${mapId}`,
} as const;
