import { describe, expect, it } from 'vitest';
import { processPage } from './index.js';
import { repairMojibake } from './mojibake.js';

/** A string's UTF-8 bytes read back one byte a character, as Latin-1 does. */
const throughLatin1 = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

describe('repairMojibake', () => {
  it('decodes text that went through Latin-1 or windows-1252 once more', () => {
    expect(repairMojibake(throughLatin1('we’ve narrowed it down to “four” — café, Été'))).toBe('we’ve narrowed it down to “four” — café, Été');
    expect(repairMojibake('weâ€™ve and â€œquotedâ€\u009d in a cafÃ©, Ã‰tÃ©, Â\u00a0and ðŸ˜€')).toBe('we’ve and “quoted” in a café, Été, \u00a0and 😀');
  });

  it('leaves a page without the sure sign as it is, letters that look like a lead byte included', () => {
    for (const text of ['Der Fuß“ und das café… in SÃO PAULO, à « x », Ã©', 'plain ascii', 'Ã\u00a9 alone']) expect(repairMojibake(text)).toBe(text);
  });

  it('leaves a run that is no UTF-8 as it is', () => {
    expect(repairMojibake('â€™ then \u00e2\u0080 alone')).toBe('’ then \u00e2\u0080 alone');
  });
});

describe('processPage on a page encoded twice', () => {
  it('repairs its markdown, html and title, and keeps rawHtml as it came', async () => {
    const page = throughLatin1('<html><head><title>We’ve moved</title></head><body><p>Caf\u00e9 “Zur Post” is open — again.</p></body></html>');
    const out = await processPage({ body: page, url: 'https://example.test/', formats: new Set(['markdown', 'html', 'rawHtml']) });
    expect(out.markdown).toBe('Café “Zur Post” is open — again.');
    expect(out.html).toContain('<p>Café “Zur Post” is open — again.</p>');
    expect(out.metadata.title).toBe('We’ve moved');
    expect(out.rawHtml).toBe(page);
  });
});
