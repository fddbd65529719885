/** Reading images the API returned, as base64. */

/** Width and height of a PNG (IHDR) or a baseline/progressive JPEG (SOF0/SOF2). */
export function imageSize(base64: string): { kind: string; width: number; height: number } {
  const b = Buffer.from(base64, 'base64');
  if (b.subarray(1, 4).toString() === 'PNG') return { kind: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new Error('neither PNG nor JPEG');
  for (let i = 2; i < b.length; ) {
    const marker = b[i + 1]!;
    if (marker === 0xc0 || marker === 0xc2) return { kind: 'jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + b.readUInt16BE(i + 2);
  }
  throw new Error('JPEG without a frame header');
}
