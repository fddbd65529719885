/**
 * Browser actions (the hosted API's `actions`, v1 and v2): what a caller may ask a browser to do
 * with a page after it loads and before it is captured, the rules a schema cannot say, and the
 * shape of their results (`data.actions`). The browser side is browser/actions.ts.
 */
import { screenshotQualitySchema, viewportSchema } from './screenshot.js';
import type { FromSchema } from 'json-schema-to-ts';

export const actionTypes = ['wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript', 'pdf'] as const;
export type ActionType = (typeof actionTypes)[number];

export const MAX_ACTIONS = 50;
/** `waitFor` plus every wait action, with a selector wait counted as `SELECTOR_WAIT_COST_MS` (as hosted). */
export const MAX_TOTAL_WAIT_MS = 60_000;
export const SELECTOR_WAIT_COST_MS = 1_000;
/** The largest value an `executeJavascript` action may return, as JSON. */
export const MAX_SCRIPT_RETURN_BYTES = 1_000_000;

export const pdfFormats = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;

/**
 * One action. Every field of every type is listed once (the official MCP server sends one flat
 * object shape for all types); which fields a type needs is checked by `actionProblems`, and a
 * field another type uses is ignored.
 */
export const actionSchema = {
  type: 'object',
  properties: {
    type: { enum: actionTypes, description: 'What to do.' },
    milliseconds: { type: 'number', minimum: 0, maximum: MAX_TOTAL_WAIT_MS, description: '`wait`: how long.' },
    selector: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: '`wait`: until an element matches (visible); `click`: what to click; `scroll`: the element to scroll (default: the page).',
    },
    all: { type: 'boolean', description: '`click`: every matching element, not only the first.' },
    text: { type: 'string', maxLength: 10000, description: '`write`: typed into the focused element (click it first).' },
    key: { type: 'string', minLength: 1, maxLength: 50, description: '`press`: a key, e.g. `Enter`, `ArrowDown`, `Control+A`.' },
    direction: { enum: ['up', 'down'], description: '`scroll`: default `down`, by one screen.' },
    fullPage: { type: 'boolean', description: '`screenshot`: the whole page, not only the viewport.' },
    quality: { ...screenshotQualitySchema, description: '`screenshot`: a JPEG of this quality (default: PNG).' },
    viewport: { ...viewportSchema, description: '`screenshot`: the window size for this screenshot.' },
    script: { type: 'string', minLength: 1, maxLength: 100000, description: '`executeJavascript`: an expression or a function body (`return ...`), run in the page; its JSON-serialisable value is returned.' },
    format: { enum: pdfFormats, description: '`pdf`: paper size (default `Letter`).' },
    landscape: { type: 'boolean', description: '`pdf`: landscape orientation.' },
    scale: { type: 'number', minimum: 0.1, maximum: 2, description: '`pdf`: rendering scale (default 1).' },
  },
  required: ['type'],
  additionalProperties: false,
} as const;

export const actionsSchema = {
  type: 'array',
  maxItems: MAX_ACTIONS,
  items: actionSchema,
  description:
    'Browser actions run in order after the page loads (a browser engine renders it); the document is captured after the last one. Results are in `data.actions`. See README "Browser actions".',
} as const;

export type Action = FromSchema<typeof actionSchema>;

/** What actions produce (`data.actions`): screenshots and PDFs as base64, in the order they were taken. */
export const actionResultsSchema = {
  type: 'object',
  description: 'Results of `actions`, each list in the order the actions ran (present when the request had actions).',
  properties: {
    screenshots: { type: 'array', items: { type: 'string' }, description: 'Base64 PNGs (JPEGs with `quality`).' },
    scrapes: {
      type: 'array',
      items: { type: 'object', properties: { url: { type: 'string' }, html: { type: 'string' } }, required: ['url', 'html'], additionalProperties: false },
      description: 'The page (URL and HTML) at each `scrape` action.',
    },
    javascriptReturns: {
      type: 'array',
      items: { type: 'object', properties: { type: { type: 'string' }, value: {} }, required: ['type', 'value'], additionalProperties: false },
      description: 'Each `executeJavascript` value: its JavaScript type (`null`, `array`, `object`, `string`, `number`, `boolean`, `undefined`) and the value as JSON.',
    },
    pdfs: { type: 'array', items: { type: 'string' }, description: 'Base64 PDFs.' },
  },
  required: ['screenshots', 'scrapes', 'javascriptReturns', 'pdfs'],
  additionalProperties: false,
} as const;

export type ActionResults = FromSchema<typeof actionResultsSchema>;

/** The field each type needs. */
const needs: Partial<Record<ActionType, 'selector' | 'text' | 'key' | 'script'>> = { click: 'selector', write: 'text', press: 'key', executeJavascript: 'script' };

interface Problem {
  field: string;
  message: string;
}

/** Rules of `actions` a schema cannot say. */
export function actionProblems(actions: readonly Action[] | undefined, waitFor: number): Problem[] {
  if (!actions?.length) return [];
  const problems: Problem[] = [];
  let waited = waitFor;
  actions.forEach((action, i) => {
    const field = `actions[${i}]`;
    const needed = needs[action.type];
    if (needed && action[needed] === undefined) problems.push({ field, message: `${action.type} needs \`${needed}\`` });
    if (action.type === 'wait') {
      if ((action.milliseconds === undefined) === (action.selector === undefined)) problems.push({ field, message: 'wait needs one of `milliseconds` and `selector`' });
      waited += action.selector !== undefined ? SELECTOR_WAIT_COST_MS : (action.milliseconds ?? 0);
    }
  });
  if (waited > MAX_TOTAL_WAIT_MS) {
    problems.push({ field: 'actions', message: `waitFor plus every wait action comes to ${Math.ceil(waited)} ms (a selector wait counts ${SELECTOR_WAIT_COST_MS} ms); at most ${MAX_TOTAL_WAIT_MS} ms` });
  }
  return problems;
}
