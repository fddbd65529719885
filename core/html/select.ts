/**
 * includeTags / excludeTags: caller-supplied CSS selectors, matched by domino's selector engine
 * (CSS3 selectors plus :not, :is and :has with a descendant argument, not `:has(> p)`; no
 * pseudo-elements, no dynamic pseudo-classes; anything unsupported fails as an invalid selector).
 *
 * Both lists are matched against the same, unmodified body, so an exclude like `.ad` and an
 * include like `article` mean what they say about the page as served. Removal wins: an element
 * that is excluded, or inside an excluded one, is gone even if it was also included. Includes
 * nested in other includes are kept once, inside their ancestor.
 */
import { isWithin, parseHtml } from './dom.js';
import { InvalidSelectorError } from './errors.js';

/**
 * Pseudo-classes the engine evaluates on a static document. Others (:hover, :visited, :where...)
 * either always throw or fail only when an element reaches them, so they are rejected up front
 * to make an invalid selector fail on every page alike.
 */
const SUPPORTED_PSEUDO = new Set([
  'first-child', 'last-child', 'only-child', 'nth-child', 'nth-last-child', 'first-of-type', 'last-of-type',
  'only-of-type', 'nth-of-type', 'nth-last-of-type', 'root', 'empty', 'not', 'is', 'matches', 'has', 'lang',
  'checked', 'enabled', 'disabled', 'required', 'optional',
]);

type SelectorOption = InvalidSelectorError['option'];

/** Checks pseudo-class names outside strings and attribute brackets; the engine checks the rest. */
function checkPseudoClasses(selector: string, option: SelectorOption): void {
  let quote = '';
  let inBrackets = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '\\') i++;
    else if (quote) quote = c === quote ? '' : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '[') inBrackets = true;
    else if (c === ']') inBrackets = false;
    else if (c === ':' && !inBrackets) {
      if (selector[i + 1] === ':') throw new InvalidSelectorError(selector, option, 'pseudo-elements select nothing in a document');
      const name = /^[\w-]*/.exec(selector.slice(i + 1))![0].toLowerCase();
      if (!SUPPORTED_PSEUDO.has(name)) throw new InvalidSelectorError(selector, option, `unsupported pseudo-class :${name}`);
    }
  }
}

/** All elements under `root` matching any of `selectors`, in document order. */
export function queryAll(root: Element | Document, selectors: readonly string[], option: SelectorOption): Element[] {
  for (const selector of selectors) {
    if (selector.trim() === '') throw new InvalidSelectorError(selector, option, 'empty selector');
    checkPseudoClasses(selector, option);
  }
  const matched: Element[] = [];
  for (const selector of selectors) {
    try {
      matched.push(...Array.from(root.querySelectorAll(selector)));
    } catch (error) {
      throw new InvalidSelectorError(selector, option, error instanceof Error ? error.message : String(error));
    }
  }
  if (selectors.length === 1) return matched;
  const unique = [...new Set(matched)];
  return unique.sort((a, b) => (a.compareDocumentPosition(b) & 4 /* FOLLOWING */ ? -1 : 1));
}

let probe: Element | undefined;

/**
 * Throws InvalidSelectorError for the first selector the engine cannot use. For the API edge, so a
 * bad request fails with 400 before any fetch.
 */
export function validateSelectors(options: { includeTags?: readonly string[]; excludeTags?: readonly string[] }): void {
  probe ??= parseHtml('<div id="a" class="b"><p lang="en">x</p></div>').body;
  queryAll(probe, options.includeTags ?? [], 'includeTags');
  queryAll(probe, options.excludeTags ?? [], 'excludeTags');
}

/** Why the engine cannot use `selector`, or undefined when it can: for the API edge's 400 naming the field. */
export function selectorProblem(selector: string): string | undefined {
  probe ??= parseHtml('<div id="a" class="b"><p lang="en">x</p></div>').body;
  try {
    queryAll(probe, [selector], 'attributesOptions');
    return undefined;
  } catch (err) {
    if (!(err instanceof InvalidSelectorError)) throw err;
    return `is not a CSS selector this server can match: ${err.reason}`;
  }
}

/**
 * Applies the selectors. Excluded elements are removed from `body`. Without includeTags, returns
 * undefined. With them, returns a detached container holding the surviving included elements
 * (moved there, so only the kept subtrees are touched, not the whole page) and that list; the
 * list is empty when includeTags matched nothing.
 */
export function applySelectors(
  body: Element,
  includeTags?: readonly string[],
  excludeTags?: readonly string[],
): { container: Element; kept: Element[] } | undefined {
  const excluded = excludeTags?.length ? queryAll(body, excludeTags, 'excludeTags') : [];
  const included = includeTags?.length ? queryAll(body, includeTags, 'includeTags') : undefined;
  for (const el of excluded) el.parentNode?.removeChild(el);
  if (!included) return undefined;
  const kept: Element[] = [];
  const keptSet = new Set<Element>();
  for (const el of included) {
    if (!isWithin(el, body)) continue; // removed by an exclude
    let nested = false;
    for (let up = el.parentElement; up && up !== body && !nested; up = up.parentElement) nested = keptSet.has(up);
    if (nested) continue;
    kept.push(el);
    keptSet.add(el);
  }
  const container = body.ownerDocument.createElement('div');
  for (const el of kept) container.appendChild(el);
  return { container, kept };
}
