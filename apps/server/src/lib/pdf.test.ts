import { describe, expect, it } from 'vitest';
import { fullCard } from '../../test/card-pdf-fixture';
import { pdfText } from '../../test/pdf-text';
import { renderReportCards } from '../modules/results/pdf';
import { pdfFonts, renderPdf } from './pdf';

/** A PDF's bytes without what changes on every render: the font subset tags (random), the creation date, the file id. */
function comparable(pdf: Buffer): string {
  return pdf
    .toString('latin1')
    .replace(/\/([A-Z]{6})\+/g, '/SUBSET+')
    .replace(/\(D:\d{14}Z\)/g, '')
    .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, '');
}

describe('renderPdf: the parsed fonts are kept between documents', () => {
  it('draws later documents, one after the other or interleaved, byte for byte as the first one (which parsed the fonts)', async () => {
    // The first render of this process parses the fonts; the later ones reuse them.
    const first = await renderReportCards([fullCard(16)], { compress: false });
    const second = await renderReportCards([fullCard(16)], { compress: false });
    // Two cards each, drawn at once: their pages interleave on the event loop over the same fonts.
    const [a, b] = await Promise.all([
      renderReportCards([fullCard(16), fullCard(4)], { compress: false }),
      renderReportCards([fullCard(16), fullCard(4)], { compress: false }),
    ]);
    const alone = await renderReportCards([fullCard(16), fullCard(4)], { compress: false });
    expect(comparable(second)).toBe(comparable(first));
    expect(comparable(a)).toBe(comparable(alone));
    expect(comparable(b)).toBe(comparable(alone));
    // Both fonts embedded, and the text still reads back (₦ needs DejaVu: Helvetica has none).
    expect(comparable(first)).toContain('/FontName /SUBSET+DejaVuSans-Bold');
    expect(comparable(first)).toContain('/FontName /SUBSET+DejaVuSans\n');
    expect(pdfText(second)).toContain('Role Models College');
  });
});

describe('renderPdf: one parse of each font per process', () => {
  it("every document lays its text out with the process's parsed fontkit fonts (pdfkit's registerFont takes them)", async () => {
    const used: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      await renderPdf({ compress: false }, (doc) => {
        // pdfkit's current font: a private field, read only here. An upgrade that parses the file
        // again per document (or stops taking a parsed font) fails this test or every PDF test.
        doc.font('body').text('₦1,000');
        used.push((doc as unknown as { _font: { font: unknown } })._font.font);
        doc.font('bold').text('Total');
        used.push((doc as unknown as { _font: { font: unknown } })._font.font);
      });
    }
    const { regular, bold } = pdfFonts();
    expect(used).toEqual([regular, bold, regular, bold]);
    expect(used.every((font, i) => font === [regular, bold][i % 2])).toBe(true);
  });
});
