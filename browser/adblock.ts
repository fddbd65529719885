/**
 * `blockAds`: requests a page makes for adverts and trackers are refused in the browser, by the
 * EasyList and EasyPrivacy filter lists (./filter-lists/, or ADBLOCK_LISTS) matched by
 * @ghostery/adblocker's engine. Network filters only: element-hiding rules are not applied (the
 * main-content pruning removes ad containers from the document). The page's own document is never
 * blocked. The lists are parsed once per process, on the first page that needs them (~0.5 s).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';

export const BUNDLED_FILTER_LISTS = ['easylist.txt', 'easyprivacy.txt'].map((name) => fileURLToPath(new URL(`./filter-lists/${name}`, import.meta.url)));

type Engine = import('@ghostery/adblocker').FiltersEngine;
const engines = new Map<string, Promise<Engine>>();

async function engineFor(paths: readonly string[]): Promise<Engine> {
  const key = paths.join('\n');
  let engine = engines.get(key);
  if (!engine) {
    engine = (async () => {
      const { FiltersEngine } = await import('@ghostery/adblocker');
      const lists = await Promise.all(paths.map((path) => readFile(path, 'utf8')));
      return FiltersEngine.parse(lists.join('\n'), { loadCosmeticFilters: false, loadNetworkFilters: true });
    })();
    engine.catch(() => engines.delete(key));
    engines.set(key, engine);
  }
  return engine;
}

/**
 * Refuse the page's advert and tracker requests from now on; returns how many were refused so far.
 * Resource types are Playwright's, which are the filter lists' names for them.
 */
export async function blockAdsIn(page: Page, paths: readonly string[] = BUNDLED_FILTER_LISTS): Promise<() => number> {
  const [engine, { Request }] = await Promise.all([engineFor(paths), import('@ghostery/adblocker')]);
  let blocked = 0;
  await page.route('**/*', (route) => {
    const request = route.request();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) return route.fallback();
    const { match } = engine.match(Request.fromRawDetails({ url: request.url(), sourceUrl: request.frame().url() || page.url(), type: request.resourceType() as never }));
    if (!match) return route.fallback();
    blocked++;
    return route.abort('blockedbyclient');
  });
  return () => blocked;
}
