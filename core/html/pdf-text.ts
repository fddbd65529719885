/**
 * Paragraphs from positioned PDF text. PDF has no paragraphs, only glyph runs at coordinates, so
 * they are inferred: runs on one baseline form a line; a vertical gap clearly wider than the page's
 * usual line spacing (or a jump upwards, into the next column) starts a new paragraph.
 */

/** The fields of a positioned text run this module needs (unpdf's StructuredTextItem fits). */
export interface TextRun {
  str: string;
  /** Baseline, PDF units from the bottom of the page. */
  y: number;
  fontSize: number;
  /** The run ends a line. */
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
}

/** A gap this much wider than the usual line spacing separates paragraphs. */
const PARAGRAPH_GAP_FACTOR = 1.3;

function toLines(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const run of runs) {
    // A change of baseline by more than half a glyph is a new line even without hasEOL.
    if (current && run.str.trim() && Math.abs(run.y - current.y) > Math.max(run.fontSize, 1) / 2) {
      lines.push(current);
      current = undefined;
    }
    if (!current) {
      if (!run.str.trim() && run.hasEOL) continue;
      current = { text: '', y: run.y };
    }
    current.text += run.str;
    if (run.hasEOL) {
      lines.push(current);
      current = undefined;
    }
  }
  if (current) lines.push(current);
  return lines
    .map((l) => ({ ...l, text: l.text.replace(/\s+/g, ' ').trim() }))
    .filter((l) => l.text);
}

/** The usual distance between consecutive lines: the lower quartile, so paragraph gaps do not inflate it. */
function usualLineGap(lines: readonly Line[]): number | undefined {
  const gaps = lines.slice(1).map((l, i) => lines[i].y - l.y).filter((g) => g > 0).sort((a, b) => a - b);
  return gaps.length ? gaps[Math.floor((gaps.length - 1) / 4)] : undefined;
}

/** Joins a paragraph's lines, rejoining words hyphenated across a line break. */
function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const line of lines) {
    if (!text) text = line;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text += ` ${line}`;
  }
  return text;
}

/** Paragraph texts of one page, in reading order as the PDF stores it. */
export function pageParagraphs(runs: readonly TextRun[]): string[] {
  const lines = toLines(runs);
  const usual = usualLineGap(lines);
  const paragraphs: string[][] = [];
  lines.forEach((line, i) => {
    const gap = i === 0 ? 0 : lines[i - 1].y - line.y;
    const breaks = i === 0 || gap < 0 || (usual !== undefined && gap > usual * PARAGRAPH_GAP_FACTOR);
    if (breaks) paragraphs.push([line.text]);
    else paragraphs[paragraphs.length - 1].push(line.text);
  });
  return paragraphs.map(joinLines);
}
