/**
 * The attributes format: for each `{ selector, attribute }` pair, the attribute's value on every
 * element of the whole, untouched page that matches the selector (includeTags, excludeTags and
 * onlyMainContent do not apply: they shape the content formats, not this lookup). Values are as
 * written in the page (a relative href stays relative); an element without the attribute adds none.
 */
import { queryAll } from './select.js';
import type { AttributeSelector, AttributeValues } from './types.js';

/** Most values kept per pair; further matches are left out. */
export const MAX_ATTRIBUTE_VALUES = 1000;
/** Longer values are cut to this many characters (an inline data: URL can be megabytes). */
export const MAX_ATTRIBUTE_VALUE_CHARS = 8192;

/** Throws InvalidSelectorError (option `attributesOptions`) for a selector the engine cannot use. */
export function extractAttributes(doc: Document, pairs: readonly AttributeSelector[]): AttributeValues[] {
  return pairs.map(({ selector, attribute }) => {
    const values: string[] = [];
    for (const el of queryAll(doc, [selector], 'attributesOptions')) {
      const value = el.getAttribute(attribute);
      if (value !== null) values.push(value.length > MAX_ATTRIBUTE_VALUE_CHARS ? value.slice(0, MAX_ATTRIBUTE_VALUE_CHARS) : value);
      if (values.length >= MAX_ATTRIBUTE_VALUES) break;
    }
    return { selector, attribute, values };
  });
}
