/**
 * Text encoded twice: a page whose UTF-8 went once more through Latin-1 or windows-1252 before it
 * was stored (a database or a feed read with the wrong charset) shows "weâ€™ve" and "cafÃ©" where
 * it means "we’ve" and "café". Readers, and the models our users feed, read that as other words.
 * Each such run of characters is the UTF-8 bytes of one character, read one byte a character: read
 * back as bytes and decoded, it is the character again.
 *
 * Only on a page that shows the sure sign of it (SIGN), which no text writes. Then every run on the
 * page that decodes as UTF-8 is repaired, "Ã©" too: on such a page every character past ASCII was
 * encoded twice. A page without the sign is left as it is, so a Portuguese "SÃO", a French "à « »"
 * or a German "Fuß“" is never touched.
 */

/** windows-1252's characters at bytes 0x80–0x9f (the five bytes it leaves unassigned read as C1 controls). */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const BYTE_OF = new Map<string, number>([...WINDOWS_1252_HIGH].map((c, i) => [c, 0x80 + i]));

/** windows-1252's signs at those bytes: what a continuation byte reads as there, besides Latin-1's C1 controls. */
const SIGNS = WINDOWS_1252_HIGH.replace(/[\u0080-\u009f]/g, '');
/** A continuation byte read as a character: Latin-1's C1 controls and 0xa0–0xbf, or windows-1252's signs. */
const CONTINUATION = `[\\u0080-\\u00bf${SIGNS}]`;
/**
 * The sure sign: a lead byte read as a character, then a C1 control ("â\u0080\u0099"), or "â€"
 * (a curly quote or a dash through windows-1252), or "Ã" and a windows-1252 sign ("Ã‰" for "É").
 * Not any lead and sign: a German "Fuß“" or a French "café…" writes those.
 */
const SIGN = new RegExp(`[\\u00c2-\\u00f4][\\u0080-\\u009f]|\\u00e2\\u20ac|\\u00c3[${SIGNS}]`);
/** One character's UTF-8 bytes read one a character: a lead, then as many continuations as it announces. */
const RUN = new RegExp(`[\\u00c2-\\u00df]${CONTINUATION}|[\\u00e0-\\u00ef]${CONTINUATION}{2}|[\\u00f0-\\u00f4]${CONTINUATION}{3}`, 'g');

const utf8 = new TextDecoder('utf-8', { fatal: true });

function byteOf(c: string): number {
  const code = c.charCodeAt(0);
  return code <= 0xff ? code : BYTE_OF.get(c)!;
}

/** The text with its twice-encoded characters decoded, or the same string when it shows no sign of them. */
export function repairMojibake(text: string): string {
  if (!SIGN.test(text)) return text;
  return text.replace(RUN, (run) => {
    try {
      return utf8.decode(Uint8Array.from(run, byteOf));
    } catch {
      return run;
    }
  });
}
