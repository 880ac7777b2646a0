import { describe, expect, it } from 'vitest';
import { CARD_SECTION_TITLES } from '@portal/domain';
import { fullCard } from '../../../test/card-pdf-fixture';
import { pdfPageCount, pdfText } from '../../../test/pdf-text';
import { renderReportCards } from './pdf';

describe('report card PDF', () => {
  it('prints every section, in order, on one A4 page for 16 subjects of six components (third term)', async () => {
    const pdf = await renderReportCards([fullCard(16)], { compress: false });
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    const order = [
      'Role Models College',
      'Report Card',
      CARD_SECTION_TITLES.numberInClass,
      CARD_SECTION_TITLES.attendance,
      CARD_SECTION_TITLES.timesOpened,
      CARD_SECTION_TITLES.present,
      CARD_SECTION_TITLES.absent,
      'Subject number 16',
      CARD_SECTION_TITLES.summary,
      CARD_SECTION_TITLES.passed,
      CARD_SECTION_TITLES.failed,
      'Affective domain',
      'Psychomotor skills',
      CARD_SECTION_TITLES.gradingKey,
      CARD_SECTION_TITLES.ratingKey,
      CARD_SECTION_TITLES.comments,
      CARD_SECTION_TITLES.formTeacherComment,
      CARD_SECTION_TITLES.principalComment,
      CARD_SECTION_TITLES.nextTerm,
      CARD_SECTION_TITLES.nextTermBegins,
      CARD_SECTION_TITLES.nextTermFees,
      CARD_SECTION_TITLES.outstanding,
      CARD_SECTION_TITLES.signature,
      CARD_SECTION_TITLES.stamp,
      CARD_SECTION_TITLES.cumulative,
      CARD_SECTION_TITLES.annualAverage,
      CARD_SECTION_TITLES.promotion,
      CARD_SECTION_TITLES.revised,
    ];
    let at = -1;
    for (const t of order) {
      const i = text.indexOf(t, at + 1);
      expect(i, `${t} after position ${at}`).toBeGreaterThan(at);
      at = i;
    }
    expect(text).toContain('Grace Okafor');
    expect(text).toContain('Promoted');
    expect(text).toContain('₦85,000.00');
    expect(text).toContain('₦12,500.00');
    // Logo, photo, signature and stamp are drawn (four image XObjects).
    expect((pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length).toBeGreaterThanOrEqual(4);
  });

  it('runs to two pages above 16 subjects, with the heading repeated and no subject row split', async () => {
    for (const n of [17, 24]) expect(pdfPageCount(await renderReportCards([fullCard(n)], { compress: false }))).toBe(2);
    // A table longer than a page: its heading row is drawn again on the next page, every row whole.
    const big = await renderReportCards([fullCard(70)], { compress: false });
    expect(pdfPageCount(big)).toBeGreaterThanOrEqual(2);
    const text = pdfText(big);
    expect(text.match(/^Subject$/gm)).toHaveLength(2);
    for (let i = 1; i <= 70; i++) expect(text.match(new RegExp(`Subject number\\s+${i}(?!\\d)`, 'g'))).toHaveLength(1);
  });

  it('prints an arm as one PDF, each card on its own page(s)', async () => {
    const cards = [fullCard(12, '1st'), fullCard(16), fullCard(20)];
    const pdf = await renderReportCards(cards, { compress: false });
    expect(pdfPageCount(pdf)).toBe(1 + 1 + 2);
  });
});
