import { formatPin } from '@portal/domain';
import { renderPdf } from '../../lib/pdf';
import { yieldToEventLoop } from '../../lib/yield';

export interface SheetCard {
  serial: string;
  pin: string;
}

/** Cards per A4 page: two columns of five, cut along the dashed lines. */
const COLUMNS = 2;
const ROWS = 5;
const MARGIN = 24;

/**
 * A batch's cards as an A4 sheet for printing (decision record 043): each card the school's name,
 * what it is for (session and term), its serial, its PIN in groups of four, its uses and the address
 * where it is checked.
 */
export function pinSheetPdf(
  cards: readonly SheetCard[],
  o: { school: string; scope: string; uses: number; checkAt: string },
): Promise<Buffer> {
  return renderPdf({ size: 'A4', margin: MARGIN, info: { Title: 'Result checker PINs', Author: o.school } }, async (doc) => {
    const { width, height } = doc.page;
    const w = (width - 2 * MARGIN) / COLUMNS;
    const h = (height - 2 * MARGIN) / ROWS;
    const inner = { width: w - 24, lineBreak: true, ellipsis: true };
    for (let i = 0; i < cards.length; i++) {
      const onPage = i % (COLUMNS * ROWS);
      if (i && !onPage) {
        doc.addPage();
        // A turn of the event loop every few pages: a 5,000-card sheet is 500 pages.
        if ((i / (COLUMNS * ROWS)) % 4 === 0) await yieldToEventLoop();
      }
      const c = cards[i]!;
      const x = MARGIN + (onPage % COLUMNS) * w;
      const y = MARGIN + Math.floor(onPage / COLUMNS) * h;
      doc.save().dash(3, { space: 3 }).lineWidth(0.5).strokeColor('#999').rect(x, y, w, h).stroke().restore();
      doc
        .font('bold')
        .fontSize(11)
        .fillColor('#000')
        .text(o.school, x + 12, y + 10, { ...inner, height: 28 });
      doc
        .font('body')
        .fontSize(8.5)
        .fillColor('#444')
        .text(`Result checker · ${o.scope}`, x + 12, doc.y + 1, { ...inner, height: 12 });
      doc
        .font('body')
        .fontSize(9)
        .fillColor('#000')
        .text(`Serial: ${c.serial}`, x + 12, doc.y + 4, inner);
      doc
        .font('bold')
        .fontSize(16)
        .text(`PIN: ${formatPin(c.pin)}`, x + 12, doc.y + 3, inner);
      doc
        .font('body')
        .fontSize(8)
        .fillColor('#444')
        .text(
          `Check at ${o.checkAt} with the student's admission number. Valid for ${o.uses} check${o.uses === 1 ? '' : 's'} of one student.`,
          x + 12,
          doc.y + 4,
          { ...inner, height: 34 },
        );
    }
  });
}
