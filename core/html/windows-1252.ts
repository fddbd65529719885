/**
 * Node 20's TextDecoder accepts the `windows-1252` label (and `iso-8859-1`, `latin1`, `ascii`, which
 * WHATWG maps to it) but decodes bytes 0x80-0x9F as Latin-1 control characters instead of
 * windows-1252's punctuation: curly quotes, dashes, €, ™ come out as invisible C1 controls. This
 * repairs that range from the WHATWG index, and only when the runtime gets it wrong.
 */

/** WHATWG windows-1252 code points for bytes 0x80-0x9F. */
const HIGH_CONTROLS = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

const runtimeIsCorrect = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) === '\u20ac';

/** Fixes text that a TextDecoder for windows-1252 produced. */
export function repairWindows1252(decoded: string): string {
  if (runtimeIsCorrect) return decoded;
  return decoded.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(HIGH_CONTROLS[c.charCodeAt(0) - 0x80]));
}
