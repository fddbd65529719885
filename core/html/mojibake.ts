/**
 * Text encoded twice: a page whose UTF-8 went once more through Latin-1 or windows-1252 before it
 * was stored (a database or a feed read with the wrong charset) shows "weâ€™ve" and "cafÃ©" where
 * it means "we’ve" and "café". Readers, and the models our users feed, read that as other words.
 * Each such run of characters is the UTF-8 bytes of one character, read one byte a character:
 * `undoWindows1252Misread` (windows-1252.ts, which also mends a browser's rendering) reads them back.
 *
 * Only on a page that shows the sure sign of it (SIGN), which no text writes. Then every run on the
 * page that decodes as UTF-8 is repaired, "Ã©" too: on such a page every character past ASCII was
 * encoded twice. A page without the sign is left as it is, so a Portuguese "SÃO", a French "à « »"
 * or a German "Fuß“" is never touched.
 */
import { HIGH_CONTROLS, undoWindows1252Misread } from './windows-1252.js';

/** windows-1252's signs at bytes 0x80–0x9f (curly quotes, dashes, €, ™), without the C1 controls it leaves unassigned. */
const SIGNS = String.fromCharCode(...HIGH_CONTROLS.filter((c) => c > 0xff));
/**
 * The sure sign: a lead byte read as a character, then a C1 control ("â\u0080\u0099"), or "â€"
 * (a curly quote or a dash through windows-1252), or "Ã" and a windows-1252 sign ("Ã‰" for "É").
 * Not any lead and sign: a German "Fuß“" or a French "café…" writes those.
 */
const SIGN = new RegExp(`[\\u00c2-\\u00f4][\\u0080-\\u009f]|\\u00e2\\u20ac|\\u00c3[${SIGNS}]`);

/** The text with its twice-encoded characters decoded, or the same string when it shows no sign of them. */
export function repairMojibake(text: string): string {
  return SIGN.test(text) ? undoWindows1252Misread(text) : text;
}
