import { describe, expect, it } from 'vitest';
import { processPage, UnreadablePdfError } from './index.js';
import { pageParagraphs, type TextRun } from './pdf-text.js';

interface Line {
  text: string;
  /** Baseline in points from the page bottom. */
  y: number;
}

/**
 * A minimal valid PDF written out by hand: Helvetica text lines at given baselines, an Info
 * dictionary with the title, an optional URI link, and a correct cross-reference table.
 */
function makePdf(pages: Line[][], options: { title?: string; link?: string } = {}): Uint8Array {
  const escape = (s: string) => s.replace(/[\\()]/g, '\\$&');
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = options.title ? `<< /Title (${escape(options.title)}) >>` : '<< >>';
  const kids: string[] = [];
  let next = 5;
  for (const lines of pages) {
    const pageId = next++;
    const contentId = next++;
    let annots = '';
    if (options.link && kids.length === 0) {
      const linkId = next++;
      objects[linkId] = `<< /Type /Annot /Subtype /Link /Rect [72 700 200 720] /A << /S /URI /URI (${escape(options.link)}) >> >>`;
      annots = ` /Annots [${linkId} 0 R]`;
    }
    kids.push(`${pageId} 0 R`);
    const stream = lines.map(({ text, y }) => `BT /F1 12 Tf 72 ${y} Td (${escape(text)}) Tj ET`).join('\n');
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R${annots} >>`;
    objects[contentId] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < next; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${next}\n0000000000 65535 f \n`;
  for (let id = 1; id < next; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${next} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0));
}

const url = 'https://example.com/files/report.pdf';

describe('PDF', () => {
  const pdf = makePdf(
    [
      [
        { text: 'Quarterly (draft) report', y: 720 },
        { text: 'First paragraph starts here and', y: 692 },
        { text: 'continues on a second line with a hyphen-', y: 678 },
        { text: 'ated word.', y: 664 },
        { text: 'Second paragraph.', y: 636 },
      ],
      [{ text: 'Page two text.', y: 720 }],
    ],
    { title: 'Q3 Report', link: 'https://example.com/more#section' },
  );

  it('extracts text into paragraphs, pages separated by a rule, with the Info title', async () => {
    const result = await processPage({ body: pdf, contentType: 'application/pdf', url, formats: new Set(['markdown', 'links']) });
    expect(result).toEqual({
      markdown:
        'Quarterly (draft) report\n\nFirst paragraph starts here and continues on a second line with a hyphenated word.\n\n'
        + 'Second paragraph.\n\n---\n\nPage two text.',
      links: ['https://example.com/more'],
      metadata: { contentType: 'application/pdf', title: 'Q3 Report', numPages: 2 },
    });
  });

  it('recognises a PDF by its magic bytes whatever the Content-Type says, and builds html from paragraphs', async () => {
    const result = await processPage({ body: pdf, contentType: 'text/html', url, formats: new Set(['html']) });
    expect(result.html).toBe(
      '<section><p>Quarterly (draft) report</p><p>First paragraph starts here and continues on a second line with a hyphenated word.</p>'
        + '<p>Second paragraph.</p></section>\n<section><p>Page two text.</p></section>',
    );
    expect(result.metadata.contentType).toBe('application/pdf');
  });

  it('throws UnreadablePdfError for a corrupt PDF', async () => {
    const corrupt = new TextEncoder().encode('%PDF-1.4\nthis is not a pdf body at all');
    await expect(processPage({ body: corrupt, url, formats: new Set(['markdown']) })).rejects.toThrow(UnreadablePdfError);
  });
});

describe('pageParagraphs', () => {
  const run = (str: string, y: number, hasEOL = true): TextRun => ({ str, y, fontSize: 10, hasEOL });

  it('joins runs on one baseline, splits lines on baseline changes and paragraphs on wide gaps', () => {
    const runs = [run('Hello ', 700, false), run('world', 700), run('again', 688), run('', 688), run('New', 660, false), run('line', 648, false)];
    expect(pageParagraphs(runs)).toEqual(['Hello world again', 'New line']);
  });

  it('starts a paragraph when text jumps up the page (a new column)', () => {
    expect(pageParagraphs([run('left end', 100), run('right top', 700), run('right next', 688)])).toEqual(['left end', 'right top right next']);
  });

  it('keeps hyphens that are not line-end hyphenation', () => {
    expect(pageParagraphs([run('well-', 700), run('Known', 688), run('x', 676)])).toEqual(['well- Known x']);
  });
});
