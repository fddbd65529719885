import { describe, expect, it } from 'vitest';
import { pageOptionProblems } from '../schemas/scrape.js';
import { FormatError, formatsFromV2 } from './formats.js';

function formatError(formats: Parameters<typeof formatsFromV2>[0]): FormatError {
  try {
    formatsFromV2(formats);
  } catch (err) {
    if (err instanceof FormatError) return err;
    throw err;
  }
  throw new Error('no FormatError');
}

describe('v2 formats onto v1', () => {
  it('offers images and summary by name, and attributes as an object carried into attributesOptions', () => {
    const selectors = [{ selector: 'a.item', attribute: 'href' }, { selector: '[data-id]', attribute: 'data-id' }];
    expect(formatsFromV2(['markdown', 'images', 'summary', { type: 'attributes', selectors }])).toEqual({ formats: ['markdown', 'images', 'summary', 'attributes'], attributesOptions: { selectors } });
  });

  it('refuses a bare attributes name, a second attributes object and an invalid selector, naming where', () => {
    expect(formatError(['markdown', 'attributes'])).toMatchObject({ index: 1, path: '', message: 'the attributes format needs its selectors: { "type": "attributes", "selectors": [{ "selector": "...", "attribute": "..." }] }' });
    const one = { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] };
    expect(formatError([one, one])).toMatchObject({ index: 1, message: 'give one attributes format, with every selector in it' });
    const bad = formatError(['markdown', { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }, { selector: 'div[[', attribute: 'id' }] }]);
    expect(bad).toMatchObject({ index: 1, path: '.selectors[1].selector' });
    expect(bad.message).toMatch(/^is not a CSS selector this server can match: /);
  });

  it('still refuses the hosted formats this server does not have', () => {
    expect(formatError(['branding']).message).toBe('the "branding" format is not offered by this server (offered: markdown, html, rawHtml, links, images, screenshot, summary, changeTracking, json, attributes)');
  });
});

describe('pageOptionProblems: the attributes format (v1)', () => {
  const base = { waitFor: 0 } as const;
  it('needs attributesOptions with the format, and the format with attributesOptions', () => {
    expect(pageOptionProblems({ ...base, formats: ['attributes'] })).toEqual([{ field: 'attributesOptions', message: 'is required with the attributes format: give { "selectors": [{ "selector", "attribute" }] }' }]);
    expect(pageOptionProblems({ ...base, formats: ['markdown'], attributesOptions: { selectors: [{ selector: 'a', attribute: 'href' }] } })).toEqual([{ field: 'attributesOptions', message: 'needs "attributes" in formats (the result is data.attributes)' }]);
  });

  it('names an invalid selector by its place', () => {
    const problems = pageOptionProblems({ ...base, formats: ['attributes'], attributesOptions: { selectors: [{ selector: 'a', attribute: 'href' }, { selector: 'p::before', attribute: 'id' }] } });
    expect(problems).toEqual([{ field: 'attributesOptions.selectors[1].selector', message: 'is not a CSS selector this server can match: pseudo-elements select nothing in a document' }]);
  });
});
