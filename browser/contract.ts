/**
 * The browser service's wire contract, `POST /render`: the request schema (validated by the
 * service), and the request and response bodies. The service (./server.ts) and its client, the
 * worker's `remote` engine (activities/engines/remote.ts), both import it from here.
 */
import { screenshotQualitySchema, viewportSchema } from '../core/schemas/screenshot.js';
import type { FromSchema } from 'json-schema-to-ts';
import { actionsSchema, type ActionResults } from '../core/schemas/actions.js';

export const renderRequestSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', pattern: '^https?://' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    /** Extra wait after load, ms. */
    waitFor: { type: 'integer', minimum: 0, maximum: 60000 },
    /** Whole render budget, ms. */
    timeout: { type: 'integer', minimum: 1000, maximum: 90000 },
    screenshot: { enum: ['viewport', 'fullPage'] },
    /** JPEG quality of the screenshot (PNG without it). */
    screenshotQuality: screenshotQualitySchema,
    /** The window size to render at (default 1280×800; 390×844 with `mobile`). */
    viewport: viewportSchema,
    /** Render as a phone: a 390×844 viewport and a mobile user agent. */
    mobile: { type: 'boolean' },
    /** Browser actions, run after load and `waitFor`, before the capture. */
    actions: actionsSchema,
    /** Refuse advert and tracker requests (browser/adblock.ts). */
    blockAds: { type: 'boolean' },
    /** The operator proxy to go out through, by its label (scheme://host:port) in the service's own PROXY_URLS / STEALTH_PROXY_URLS / PROXY_URLS_<CC>. */
    proxy: { type: 'string', maxLength: 300 },
  },
  required: ['url', 'timeout'],
  additionalProperties: false,
} as const;

export type RenderRequest = FromSchema<typeof renderRequestSchema>;

/** `POST /render` answers: 200 with `success: true` and the page, or an error status with `error` and `code`. */
export interface RenderResponse {
  success: boolean;
  html?: string;
  finalUrl?: string;
  statusCode?: number;
  contentType?: string;
  /** Base64 PNG (JPEG with screenshotQuality). */
  screenshot?: string;
  /** With `actions`: what they produced. */
  actions?: ActionResults;
  /** With `blockAds`: how many advert and tracker requests were refused. */
  adsBlocked?: number;
  error?: string;
  /** `unauthorized`, `draining`, `invalid_request`, or the render failure's kind (`renderFailureStatus`). */
  code?: string;
}

/** Why a render failed, and the status `POST /render` answers it with. */
export const renderFailureStatus = { timeout: 504, navigation: 502, blocked: 403, action: 422 } as const;
export type RenderFailure = keyof typeof renderFailureStatus;

/** A render that failed: the page did not load in time, could not be reached, was refused by the egress policy, or an action failed (its message names it). */
export class RenderError extends Error {
  constructor(
    message: string,
    readonly kind: RenderFailure,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}
