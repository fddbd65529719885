/**
 * Node 20's TextDecoder accepts the `windows-1252` label (and `iso-8859-1`, `latin1`, `ascii`, which
 * WHATWG maps to it) but decodes bytes 0x80-0x9F as Latin-1 control characters instead of
 * windows-1252's punctuation: curly quotes, dashes, €, ™ come out as invisible C1 controls. This
 * repairs that range from the WHATWG index, and only when the runtime gets it wrong.
 */

/** WHATWG windows-1252 code points for bytes 0x80-0x9F. */
export const HIGH_CONTROLS = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

const runtimeIsCorrect = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) === '\u20ac';

/** Fixes text that a TextDecoder for windows-1252 produced. */
export function repairWindows1252(decoded: string): string {
  if (runtimeIsCorrect) return decoded;
  return decoded.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(HIGH_CONTROLS[c.charCodeAt(0) - 0x80]));
}

/** The byte windows-1252 decodes to each character of 0x80-0xFF's range (WHATWG index), by code point. */
const BYTE_OF = new Map<number, number>();
for (let b = 0x80; b <= 0xff; b++) BYTE_OF.set(b < 0xa0 ? HIGH_CONTROLS[b - 0x80] : b, b);
// A C1 control stands for the byte of its number: WHATWG leaves five of them so (0x81, 0x8D, 0x8F,
// 0x90, 0x9D), and Node 20's decoder all 32 (above). Never text of its own.
for (let b = 0x80; b < 0xa0; b++) BYTE_OF.set(b, b);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Continuation bytes a UTF-8 lead byte takes, or 0 when `b` cannot start a sequence of several bytes. */
function continuations(b: number): number {
  return b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
}

/**
 * Undoes reading UTF-8 bytes as windows-1252 ("â€™" back to "’", "Ã©" to "é"): each run of
 * characters that windows-1252 decodes from one valid UTF-8 sequence becomes that sequence's
 * character. Anything else stays as it is, so text that was right (written by a script, or an
 * "é" on its own) is left alone.
 */
export function undoWindows1252Misread(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const lead = BYTE_OF.get(text.charCodeAt(i));
    const n = lead === undefined ? 0 : continuations(lead);
    if (n === 0 || i + n >= text.length) continue;
    const bytes = [lead!];
    for (let k = 1; k <= n; k++) {
      const b = BYTE_OF.get(text.charCodeAt(i + k));
      if (b === undefined || b > 0xbf) break;
      bytes.push(b);
    }
    if (bytes.length !== n + 1) continue;
    let char: string;
    try {
      char = utf8.decode(Uint8Array.from(bytes));
    } catch {
      continue; // an overlong form or a surrogate: not UTF-8 after all
    }
    out += text.slice(copied, i) + char;
    copied = i + n + 1;
    i += n;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
