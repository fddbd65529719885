/** The `local_browser` engine: the worker's own Playwright pool (the same code the browser service runs). */
import type { BrowserPool } from '../../browser/pool.js';
import { RenderError } from '../../browser/contract.js';
import { renderPage } from '../../browser/render.js';
import { EngineError, type Engine, type EngineRequest, type EngineResult } from './types.js';

export function localBrowserEngine(pool: BrowserPool): Engine {
  return {
    name: 'local_browser',
    async fetch(req: EngineRequest): Promise<EngineResult> {
      try {
        const result = await renderPage(pool, {
          url: req.url,
          headers: req.headers,
          waitFor: req.waitFor,
          timeout: Math.max(1, req.deadline - Date.now()),
          screenshot: req.screenshot,
          screenshotQuality: req.screenshotQuality,
          viewport: req.viewport,
          mobile: req.mobile,
          actions: req.actions,
          blockAds: req.blockAds,
        }, req.proxy);
        const { html, ...rest } = result;
        return { engine: 'local_browser', body: html, ...rest };
      } catch (err) {
        if (err instanceof RenderError) throw new EngineError('local_browser', err.kind === 'navigation' ? 'network' : err.kind, err.message);
        throw new EngineError('local_browser', 'unavailable', (err as Error).message);
      }
    },
  };
}
