/**
 * Browser actions on a loaded page (core/schemas/actions.ts has their shapes and rules), run in
 * order within the render's budget. A failed action is a RenderError of kind `action` whose message
 * starts with `actions[i] (type)`, so the caller's answer names it. Every request the page makes
 * meanwhile goes through the pool's egress proxy like any other; `executeJavascript` runs in the
 * page's own context, its value returned as JSON of bounded size.
 */
import type { Locator, Page } from 'playwright';
import { MAX_SCRIPT_RETURN_BYTES, type Action, type ActionResults } from '../core/schemas/actions.js';
import { RenderError } from './contract.js';

/**
 * Time a selector wait leaves of the request's budget, so that a selector that never appears is
 * reported as the action that failed (400 action_failed) rather than as the request's timeout (408):
 * capturing and answering after the wait take a few hundred milliseconds, more on a loaded machine.
 */
const REPORT_MARGIN_MS = 1000;

/** How long click and scroll wait for their selector to match before saying it matches nothing. */
export const SELECTOR_GRACE_MS = 2_000;

export interface ActionContext {
  page: Page;
  remaining: () => number;
}

export async function runActions(ctx: ActionContext, actions: readonly Action[]): Promise<ActionResults> {
  const results: ActionResults = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    if (ctx.remaining() <= 1) throw new RenderError(`No time left for actions[${index}] (${action.type}); raise \`timeout\``, 'timeout');
    try {
      await runAction(ctx, action, results);
    } catch (err) {
      if (err instanceof RenderError) throw err;
      throw new RenderError(`actions[${index}] (${action.type}): ${actionMessage(err)}`, 'action');
    }
  }
  return results;
}

/** Why an action failed, in one line: ours, or the first line of Playwright's. */
class ActionFailure extends Error {}

function actionMessage(err: unknown): string {
  if (err instanceof ActionFailure) return err.message;
  const message = (err as Error).message ?? String(err);
  return message
    .split('\n')[0]!
    .replace(/^(locator|page|keyboard|elementHandle)\.\w+: /, '')
    .trim();
}

async function runAction(ctx: ActionContext, action: Action, results: ActionResults): Promise<void> {
  const { page } = ctx;
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) {
        const timeout = Math.max(1, ctx.remaining() - REPORT_MARGIN_MS);
        await page
          .locator(action.selector)
          .first()
          .waitFor({ state: 'visible', timeout })
          .catch((err: Error) => {
            throw err.name === 'TimeoutError' ? new ActionFailure(`no element matching ${JSON.stringify(action.selector)} became visible within ${timeout} ms`) : err;
          });
      } else {
        const ms = action.milliseconds ?? 0;
        if (ms >= ctx.remaining()) throw new RenderError(`actions wait ${ms} ms more than the remaining timeout; raise \`timeout\``, 'timeout');
        await page.waitForTimeout(ms);
      }
      return;
    case 'click': {
      const matches = await matching(ctx, action.selector!);
      const targets = action.all ? await matches.all() : [matches.first()];
      for (const target of targets) await target.click({ timeout: ctx.remaining() });
      return;
    }
    case 'write':
      await page.keyboard.type(action.text!);
      return;
    case 'press':
      await page.keyboard.press(action.key!);
      return;
    case 'scroll': {
      const sign = action.direction === 'up' ? -1 : 1;
      if (action.selector === undefined) await page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
      else await (await matching(ctx, action.selector)).first().evaluate((el, s) => el.scrollBy(0, s * (el.clientHeight || window.innerHeight)), sign);
      return;
    }
    case 'screenshot': {
      const before = page.viewportSize();
      if (action.viewport) await page.setViewportSize(action.viewport);
      try {
        const image = await page.screenshot({ fullPage: action.fullPage ?? false, timeout: ctx.remaining(), ...(action.quality ? { type: 'jpeg', quality: action.quality } : { type: 'png' }) });
        results.screenshots.push(image.toString('base64'));
      } finally {
        if (action.viewport && before) await page.setViewportSize(before);
      }
      return;
    }
    case 'scrape':
      results.scrapes.push({ url: page.url(), html: await pageContent(page) });
      return;
    case 'executeJavascript':
      results.javascriptReturns.push(await evaluateScript(page, action.script!));
      return;
    case 'pdf': {
      const pdf = await page.pdf({ format: action.format ?? 'Letter', landscape: action.landscape ?? false, scale: action.scale ?? 1, printBackground: true });
      results.pdfs.push(pdf.toString('base64'));
      return;
    }
  }
}

/** The elements `selector` matches, once at least one is there (waiting up to SELECTOR_GRACE_MS). */
async function matching(ctx: ActionContext, selector: string): Promise<Locator> {
  const locator = ctx.page.locator(selector);
  const timeout = Math.max(1, Math.min(SELECTOR_GRACE_MS, ctx.remaining()));
  try {
    await locator.first().waitFor({ state: 'attached', timeout });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw new ActionFailure(`no element matches ${JSON.stringify(selector)} (waited ${timeout} ms)`);
    throw err;
  }
  return locator;
}

/** The page's HTML; a page in the middle of a navigation an action started is read once it has loaded. */
export async function pageContent(page: Page): Promise<string> {
  try {
    return await page.content();
  } catch (err) {
    if (!/navigat/i.test((err as Error).message)) throw err;
    await page.waitForLoadState('load').catch(() => undefined);
    return page.content();
  }
}

/**
 * Runs `script` in the page: as an expression first, then, if that is not valid JavaScript, as the
 * body of an async function (so `return x` works). The value is returned as JSON, refused above
 * MAX_SCRIPT_RETURN_BYTES; `type` is its JavaScript type (`null` for null, `array` for arrays).
 */
async function evaluateScript(page: Page, script: string): Promise<{ type: string; value: unknown }> {
  const wrap = (body: string) => `(async () => {
    const value = await (${body});
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json !== undefined && json.length > ${MAX_SCRIPT_RETURN_BYTES}) return { tooLarge: json.length };
    return { type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, json };
  })()`;
  let outcome: { type?: string; json?: string; tooLarge?: number };
  try {
    outcome = await page.evaluate(wrap(`\n${script}\n`));
  } catch (err) {
    if (!/SyntaxError|Unexpected|Illegal return/i.test((err as Error).message)) throw scriptError(err);
    try {
      outcome = await page.evaluate(wrap(`(async () => {\n${script}\n})()`));
    } catch (again) {
      throw scriptError(again);
    }
  }
  if (outcome.tooLarge !== undefined) throw new ActionFailure(`the script returned ${outcome.tooLarge} characters of JSON; at most ${MAX_SCRIPT_RETURN_BYTES}`);
  return { type: outcome.type!, value: outcome.json === undefined ? null : JSON.parse(outcome.json) };
}

function scriptError(err: unknown): ActionFailure {
  return new ActionFailure(`the script threw: ${actionMessage(err).replace(/^Error: /, '')}`);
}
