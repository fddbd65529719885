/** The `remote` engine: asks the browser service (BROWSER_ENGINE_URL) to render the page. */
import { request as undiciRequest } from 'undici';
import { renderFailureStatus, type RenderRequest, type RenderResponse } from '../../browser/contract.js';
import { EngineError, type Engine, type EngineRequest, type EngineResult } from './types.js';

const kindByStatus: Record<number, EngineError['kind']> = { [renderFailureStatus.blocked]: 'blocked', [renderFailureStatus.timeout]: 'timeout', [renderFailureStatus.action]: 'action', 400: 'invalid' };

export function remoteEngine(options: { baseUrl: string; token?: string }): Engine {
  const endpoint = new URL('render', options.baseUrl.endsWith('/') ? options.baseUrl : options.baseUrl + '/').href;
  return {
    name: 'remote',
    async fetch(req: EngineRequest): Promise<EngineResult> {
      const timeout = Math.max(1000, req.deadline - Date.now());
      let res;
      try {
        res = await undiciRequest(endpoint, {
          method: 'POST',
          signal: req.signal,
          headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          body: JSON.stringify({ url: req.url, headers: req.headers, waitFor: req.waitFor || undefined, timeout: Math.min(timeout, 90000), screenshot: req.screenshot, screenshotQuality: req.screenshotQuality, viewport: req.viewport, mobile: req.mobile || undefined, actions: req.actions?.length ? req.actions : undefined, proxy: req.proxy?.label, blockAds: req.blockAds || undefined } satisfies RenderRequest),
        });
      } catch (err) {
        if (req.signal.aborted) throw new EngineError('remote', 'timeout', 'Timed out waiting for the browser service');
        throw new EngineError('remote', 'unavailable', `Browser service at ${options.baseUrl} is unreachable: ${(err as Error).message}`);
      }
      const body = (await res.body.json().catch(() => ({ success: false, error: `HTTP ${res.statusCode}` }))) as RenderResponse;
      if (res.statusCode === 401) throw new EngineError('remote', 'unavailable', 'Browser service refused our token (check BROWSER_ENGINE_TOKEN on both sides)');
      if (res.statusCode !== 200 || !body.success || body.html === undefined) {
        throw new EngineError('remote', kindByStatus[res.statusCode] ?? 'unavailable', `Browser service: ${body.error ?? `HTTP ${res.statusCode}`}`);
      }
      return {
        engine: 'remote',
        body: body.html,
        contentType: body.contentType,
        statusCode: body.statusCode ?? 200,
        finalUrl: body.finalUrl ?? req.url,
        ...(body.screenshot ? { screenshot: Buffer.from(body.screenshot, 'base64') } : {}),
        ...(body.actions ? { actions: body.actions } : {}),
        ...(body.adsBlocked !== undefined ? { adsBlocked: body.adsBlocked } : {}),
      };
    },
  };
}
