/**
 * Render one page in a pooled context: navigate, let scripts settle, wait `waitFor`, run the
 * caller's actions (./actions.ts), capture the HTML and optionally a screenshot. Shared by the browser service and the worker's local engine.
 */
import { BLOCKED_HEADER, FAILED_HEADER } from '../egress/proxy.js';
import type { ActionResults } from '../core/schemas/actions.js';
import { runActions, pageContent } from './actions.js';
import { blockAdsIn } from './adblock.js';
import { RenderError, type RenderRequest } from './contract.js';
import type { BrowserPool } from './pool.js';
import type { ProxyMember } from '../core/proxy-pools.js';
import { readsAsUtf8Anyway } from '../core/html/decode.js';
import { undoWindows1252Misread } from '../core/html/windows-1252.js';
import type { Page, Response } from 'playwright';

export interface RenderResult {
  html: string;
  finalUrl: string;
  statusCode: number;
  contentType?: string;
  /** PNG bytes. */
  screenshot?: Buffer;
  actions?: ActionResults;
  adsBlocked?: number;
}

/** What a phone looks like to a site: an iPhone-sized viewport and Chrome for Android's user agent form. */
const MOBILE_VIEWPORT = { width: 390, height: 844 };
const MOBILE_USER_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** Scripts that fetch after `load` usually finish within this; it is capped by the remaining budget. */
const SETTLE_MS = 1500;

/**
 * The page's HTML with the text the fetch engine would read from the same bytes. Chromium decodes
 * a document as its header or meta declares; the fetch engine reads bytes that are valid UTF-8 as
 * UTF-8 whatever is declared (core/html/decode.ts). A UTF-8 page declared ISO-8859-1 (windows-1252
 * to a browser) comes out of Chromium as mojibake ("â€™" for "’"), which this undoes. Other
 * declared encodings are left as Chromium read them, and so is a page an action navigated away from
 * (the bytes at hand are the first document's).
 */
async function asFetchedText(page: Page, response: Response, html: string): Promise<string> {
  if (page.url() !== response.url()) return html;
  const charset = await page.evaluate(() => document.characterSet).catch(() => undefined);
  if (charset?.toLowerCase() !== 'windows-1252') return html;
  const bytes = await response.body().catch(() => undefined);
  return bytes && readsAsUtf8Anyway(bytes) ? undoWindows1252Misread(html) : html;
}

/** `via`: the operator proxy the page's traffic goes out through (README "Proxies"). */
export async function renderPage(pool: BrowserPool, request: RenderRequest, via?: ProxyMember): Promise<RenderResult> {
  const deadline = Date.now() + request.timeout;
  const remaining = () => Math.max(1, deadline - Date.now());
  return pool.use(async (context, track) => {
    const page = await context.newPage();
    try {
      page.on('request', (r) => track(r.url()));
      const adsBlocked = request.blockAds ? await blockAdsIn(page, pool.filterLists) : undefined;
      const extraHeaders = { ...(request.mobile ? { 'user-agent': MOBILE_USER_AGENT } : {}), ...request.headers };
      if (Object.keys(extraHeaders).length) await page.setExtraHTTPHeaders(extraHeaders);
      if (request.viewport ?? request.mobile) await page.setViewportSize(request.viewport ?? MOBILE_VIEWPORT);
      let response;
      try {
        response = await page.goto(request.url, { waitUntil: 'load', timeout: remaining() });
      } catch (err) {
        const message = (err as Error).message.split('\n')[0] ?? 'navigation failed';
        if ((err as Error).name === 'TimeoutError') throw new RenderError(`Page did not load within ${request.timeout} ms`, 'timeout');
        throw new RenderError(`Browser could not load ${request.url}: ${message}`, 'navigation');
      }
      if (!response) throw new RenderError(`Browser got no response for ${request.url}`, 'navigation');
      // The egress proxy marks its own answers, so they are not mistaken for the target's 403 or 502 page.
      const headers = response.headers();
      if (headers[BLOCKED_HEADER]) throw new RenderError(`Refused by the URL safety policy (${headers[BLOCKED_HEADER]}): ${(await response.text()).trim()}`, 'blocked');
      if (headers[FAILED_HEADER]) throw new RenderError(`Browser could not reach ${request.url}: ${(await response.text()).trim()}`, 'navigation');
      await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, remaining()) }).catch(() => undefined);
      if (request.waitFor) {
        if (request.waitFor >= remaining()) throw new RenderError(`waitFor ${request.waitFor} ms does not fit in the remaining timeout`, 'timeout');
        await page.waitForTimeout(request.waitFor);
      }
      let actions: ActionResults | undefined;
      if (request.actions?.length) {
        // A navigation an action causes goes through the egress proxy too; a refused one fails the render, as the first would have.
        let refused: string | undefined;
        page.on('response', (r) => {
          const reason = r.request().isNavigationRequest() && r.frame() === page.mainFrame() ? r.headers()[BLOCKED_HEADER] : undefined;
          if (reason) refused ??= `${r.url()} (${reason})`;
        });
        actions = await runActions({ page, remaining }, request.actions);
        if (refused) throw new RenderError(`An action led to a URL the URL safety policy refuses: ${refused}`, 'blocked');
      }
      const html = await asFetchedText(page, response, await pageContent(page));
      const screenshot = request.screenshot
        ? await page.screenshot({ fullPage: request.screenshot === 'fullPage', timeout: remaining(), ...(request.screenshotQuality ? { type: 'jpeg', quality: request.screenshotQuality } : { type: 'png' }) })
        : undefined;
      return {
        html,
        finalUrl: page.url(),
        statusCode: response.status(),
        contentType: response.headers()['content-type'],
        ...(screenshot ? { screenshot } : {}),
        ...(actions ? { actions } : {}),
        ...(adsBlocked ? { adsBlocked: adsBlocked() } : {}),
      };
    } finally {
      await page.close().catch(() => undefined);
    }
  }, via);
}
